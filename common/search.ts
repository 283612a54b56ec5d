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

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * What a search highlights, as a global pattern over plain text: each term's words (a bare word as
 * a prefix of a word, a phrase with any separators between its words), never inside a word. Null
 * when the text has no searchable word. Build it once per search (the Unicode-aware pattern is
 * costly to compile). The reference server marks `match_content` / `match_subject` with it, and the
 * client marks its own search results the same way.
 */
export function searchMatcher(text: string): RegExp | null {
  const terms = searchTerms(text);
  if (terms.length === 0) return null;
  const alternatives = terms.map((t) => t.phrase.split(' ').map(escapeRe).join('[^\\p{L}\\p{N}_]+') + (t.prefix ? '[\\p{L}\\p{N}_]*' : ''));
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}_])`, 'giu');
}

/** Plain text cut into the runs a search matches and the runs between (none empty). */
export function splitMatches(text: string, matcher: RegExp): Array<{ text: string; match: boolean }> {
  const out: Array<{ text: string; match: boolean }> = [];
  let at = 0;
  for (const m of text.matchAll(matcher)) {
    if (m[0] === '') continue;
    if (m.index > at) out.push({ text: text.slice(at, m.index), match: false });
    out.push({ text: m[0], match: true });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at), match: false });
  return out;
}
