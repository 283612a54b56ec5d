/**
 * The `search` operator's query semantics, one for the client's local index and the reference
 * server's (Zulip's full-text search as the reference server implements it): every term is
 * required, bare words match as prefixes, `"quoted phrases"` match as phrases, punctuation
 * separates words. Both index the topic and the message's text in a contentless FTS5 table
 * (`messages_fts`, rowid = message id) and query it with the same expression, so a local search
 * and the server's agree on the same messages.
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

/** An FTS5 MATCH expression (every term must match), or null when the text has no searchable word (matches everything). */
export function ftsQuery(text: string): string | null {
  const terms = searchTerms(text);
  if (terms.length === 0) return null;
  return terms.map((t) => `"${t.phrase.replace(/"/g, '""')}"${t.prefix ? '*' : ''}`).join(' AND ');
}
