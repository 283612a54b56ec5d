/**
 * Topic comparison for the contract's users (the engine's draft keys, the renderer): the same
 * function as sync/api/topics.ts, which is a standalone library and cannot be imported here (nor
 * can this be imported there); test/integration/topic-key-agreement.test.ts checks the copies agree
 * on every code point.
 *
 * How topic names compare, as the server compares them: Zulip matches topics with SQL
 * `UPPER(a) = UPPER(b)`, PostgreSQL's per-character simple case mapping. `Äpfel`, `ÄPFEL` and
 * `äpfel` are one topic, as are `Σ`, `σ` and `ς`; `ß` and `SS`, `ﬁ` and `FI`, `İ` and `i`, and NFC
 * and NFD spellings are not. (`toLowerCase()` differs in exactly those corners: it keeps final
 * sigma apart and turns `İ` into two code points.)
 *
 * `topicKey` names each class: per code point, the PostgreSQL-style upper case, written back in
 * lower case when that lower case maps to the same upper case, so keys read like `toLowerCase()`
 * (ASCII keys are exactly that) and keys persisted before stay valid. The reference server has
 * the same function (server/model/topic-key.ts; test/integration checks they agree).
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
