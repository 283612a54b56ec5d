/**
 * `content_html_diff` of the edit history (Zulip's highlight_html_differences, simplified): a
 * word-level diff of two rendered messages, inserted text wrapped in
 * `<span class="highlight_text_inserted">`, deleted text in `<span class="highlight_text_deleted">`,
 * the new version's markup kept, all inside a `<div>`.
 */

type Token = { kind: 'tag' | 'text'; value: string };

function tokenize(html: string): Token[] {
  const out: Token[] = [];
  const re = /(<[^>]*>)|([^<\s]+)|(\s+)/g;
  for (const m of html.matchAll(re)) {
    if (m[1]) out.push({ kind: 'tag', value: m[1] });
    else out.push({ kind: 'text', value: m[0] });
  }
  return out;
}

/** Longest common subsequence table over token values (messages are short; O(n·m) is fine). */
function lcs(a: Token[], b: Token[]): number[][] {
  const t: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      t[i]![j] = a[i]!.value === b[j]!.value ? t[i + 1]![j + 1]! + 1 : Math.max(t[i + 1]![j]!, t[i]![j + 1]!);
    }
  }
  return t;
}

export function htmlDiff(oldHtml: string, newHtml: string): string {
  const a = tokenize(oldHtml);
  const b = tokenize(newHtml);
  const t = lcs(a, b);
  let out = '';
  let run: { cls: 'inserted' | 'deleted'; text: string } | undefined;
  const flush = () => {
    if (run && run.text.trim() !== '') out += `<span class="highlight_text_${run.cls}">${run.text}</span>`;
    else if (run) out += run.text;
    run = undefined;
  };
  const addText = (cls: 'inserted' | 'deleted', text: string) => {
    if (run && run.cls !== cls) flush();
    run = run ? { cls, text: run.text + text } : { cls, text };
  };
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i]!.value === b[j]!.value) {
      flush();
      out += b[j]!.value;
      i++;
      j++;
    } else if (j < b.length && (i >= a.length || t[i]![j + 1]! >= t[i + 1]![j]!)) {
      const tok = b[j++]!;
      if (tok.kind === 'tag') {
        flush();
        out += tok.value;
      } else addText('inserted', tok.value);
    } else {
      const tok = a[i++]!;
      if (tok.kind === 'text') addText('deleted', tok.value);
    }
  }
  flush();
  return `<div>${out}</div>`;
}
