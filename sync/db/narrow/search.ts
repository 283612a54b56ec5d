/**
 * The `search` operator's query semantics, kept identical to the server's (Zulip's full-text
 * search as the reference server implements it): every term is required, bare words match as
 * prefixes, `"quoted phrases"` match as phrases, punctuation separates words. The local FTS5 index
 * (`messages_fts`, rowid = message id, columns topic + body text) is queried with the same
 * expression, so a local search and the server's agree on the same messages.
 */

/** Search words: quoted phrases stay together; FTS syntax characters are dropped. */
export function searchTerms(text: string): Array<{ phrase: string; prefix: boolean }> {
  const out: Array<{ phrase: string; prefix: boolean }> = [];
  const re = /"([^"]*)"|(\S+)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const raw = m[1] ?? m[2] ?? '';
    const words = raw
      .split(/[^\p{L}\p{N}_]+/u)
      .filter((w) => w !== '')
      .join(' ');
    if (words !== '') out.push({ phrase: words, prefix: m[1] === undefined });
  }
  return out;
}

/** An FTS5 MATCH expression, or null when the text has no searchable word (matches everything). */
export function ftsQuery(text: string): string | null {
  const terms = searchTerms(text);
  if (terms.length === 0) return null;
  return terms.map((t) => `"${t.phrase.replace(/"/g, '""')}"${t.prefix ? '*' : ''}`).join(' AND ');
}
