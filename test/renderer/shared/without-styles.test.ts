/** `style` attributes cut from tags before DOMPurify parses, KaTeX's layout carried as data (sanitize.ts; the DOMPurify part runs in the e2e tests). */
import { describe, expect, it } from 'vitest';
import { safeKatexStyle, withoutStyles } from '../../../renderer/src/shared/sanitize.js';

describe('style attributes cut before parsing', () => {
  it("carries KaTeX's layout declarations as data in every quoting, keeping the other attributes; anything else goes", () => {
    // From Zulip's markdown_test_cases.json (tex_inline), trimmed.
    expect(withoutStyles('<span class="katex-html" aria-hidden="true"><span class="strut" style="height:0.7278em;vertical-align:-0.0833em;"></span><span class="mord">1</span></span>')).toBe(
      '<span class="katex-html" aria-hidden="true"><span class="strut" data-katex-style="height:0.7278em;vertical-align:-0.0833em"></span><span class="mord">1</span></span>',
    );
    expect(withoutStyles("<b STYLE='x'>a</b><i style=y title=t>b</i>")).toBe('<b>a</b><i title=t>b</i>');
    expect(withoutStyles("<span style='top:-3.1em;position:fixed;background:url(https://x.example/a.png);color:#b00'>x</span>")).toBe('<span data-katex-style="top:-3.1em;color:#b00">x</span>');
  });

  it('keeps only lengths and colours KaTeX writes', () => {
    expect(safeKatexStyle('height:1em; margin-right:-0.05em;min-width:0.888em;border-bottom-width:0.04em')).toBe('height:1em;margin-right:-0.05em;min-width:0.888em;border-bottom-width:0.04em');
    expect(safeKatexStyle('height:calc(1em + 2px);width:expression(alert(1));color:red;left:1e9em')).toBe('color:red');
    expect(safeKatexStyle('')).toBe('');
  });

  it('leaves text alone: a message that talks about style="…" keeps it', () => {
    const text = '<p>write style="color: red" in the tag</p>';
    expect(withoutStyles(text)).toBe(text);
    expect(withoutStyles('<code>&lt;p style="x"&gt;</code>')).toBe('<code>&lt;p style="x"&gt;</code>');
  });
});
