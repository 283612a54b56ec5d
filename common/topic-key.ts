/**
 * How topic names compare, as the server compares them: Zulip matches topics with SQL
 * `UPPER(a) = UPPER(b)` (narrows, moves, deletes, topic preferences via `topic_name__iexact`), and
 * PostgreSQL's upper() maps each character on its own with the simple, one-to-one Unicode case
 * mapping. So `Äpfel`, `ÄPFEL` and `äpfel` are one topic, and so are `Σ`, `σ` and `ς`; but `ß` and
 * `SS` stay two topics (upper('ß') is 'ß'), as do `ﬁ` and `FI`, `İ` and `i`, and NFC and NFD
 * spellings (no normalisation), exactly as in Zulip. (`toLowerCase()` differs in exactly those
 * corners: it keeps final sigma apart and turns `İ` into two code points; SQLite's NOCASE folds
 * ASCII only.)
 *
 * `topicKey` names each such class: per code point, the PostgreSQL-style upper case (the code
 * point's own upper case when that is one code point, else the code point lower-cased, which is
 * where the few with a simple mapping go), written back in lower case when that lower case maps to
 * the same upper case, so that keys read like `toLowerCase()` (ASCII keys are exactly that) and
 * keys persisted before stay valid. The client (its local database, draft keys, the renderer) and
 * the reference server (its `topic_key` columns) all use this one function.
 */
const ASCII = /^[\x00-\x7f]*$/;

const isOneCodePoint = (s: string) => s.length === 1 || (s.length === 2 && s.codePointAt(0)! > 0xffff);

/** PostgreSQL's upper() on one code point (simple mapping). */
function upperOf(ch: string): string {
  const upper = ch.toUpperCase();
  return isOneCodePoint(upper) ? upper : ch.toLowerCase();
}

function foldCodePoint(ch: string): string {
  const upper = upperOf(ch);
  const lower = upper.toLowerCase();
  return isOneCodePoint(lower) && upperOf(lower) === upper ? lower : upper;
}

/** The comparison key of a topic name: equal keys, same topic. */
export function topicKey(topic: string): string {
  if (ASCII.test(topic)) return topic.toLowerCase();
  let out = '';
  for (const ch of topic) out += foldCodePoint(ch);
  return out;
}

/** Whether two topic names are the same topic on the server. */
export const sameTopic = (a: string, b: string): boolean => a === b || topicKey(a) === topicKey(b);
