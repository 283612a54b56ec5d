/** `style` attributes cut from tags before DOMPurify parses (sanitize.ts; the DOMPurify part runs in the e2e tests). */
import { describe, expect, it } from 'vitest';
import { withoutStyles } from '../../../renderer/src/shared/sanitize.js';

describe('style attributes cut before parsing', () => {
  it("drops KaTeX's inline styles in every quoting, keeping the other attributes", () => {
    // From Zulip's markdown_test_cases.json (tex_inline), trimmed.
    expect(withoutStyles('<span class="katex-html" aria-hidden="true"><span class="strut" style="height:0.7278em;vertical-align:-0.0833em;"></span><span class="mord">1</span></span>')).toBe(
      '<span class="katex-html" aria-hidden="true"><span class="strut"></span><span class="mord">1</span></span>',
    );
    expect(withoutStyles("<b STYLE='x'>a</b><i style=y title=t>b</i>")).toBe('<b>a</b><i title=t>b</i>');
  });

  it('leaves text alone: a message that talks about style="…" keeps it', () => {
    const text = '<p>write style="color: red" in the tag</p>';
    expect(withoutStyles(text)).toBe(text);
    expect(withoutStyles('<code>&lt;p style="x"&gt;</code>')).toBe('<code>&lt;p style="x"&gt;</code>');
  });
});
