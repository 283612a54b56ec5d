/**
 * What the server stores of what we sent (Zulip's normalisation, which the reference server
 * follows), so verify-by-reading compares like with like: a lost answer to a send of
 * `"  padded topic "` must find the message stored under `"padded topic"`, or the resend is a
 * duplicate; an edit to `"X\n"` landed if the server holds `"X"`.
 *
 *   content  trailing whitespace dropped, line ends `\n`, past `max_message_length` code points
 *            cut to fit with `\n[message truncated]`; an edit to blank text stores `(deleted)`
 *   topic    trimmed; `(no topic)` and the realm's empty-topic name mean `""`; past
 *            `max_topic_length` code points cut to fit with `...`
 *   snippet  title and content trimmed
 */

export interface ServerLimits {
  readonly maxMessageLength: number;
  readonly maxTopicLength: number;
  /** The realm's display name of the empty topic (null: not known). */
  readonly emptyTopicName: string | null;
}

/** Zulip's defaults, for callers without a realm (tests, benches). */
export const DEFAULT_LIMITS: ServerLimits = { maxMessageLength: 10_000, maxTopicLength: 60, emptyTopicName: null };

function truncate(s: string, max: number, marker: string): string {
  const cps = [...s];
  return cps.length <= max ? s : cps.slice(0, max - [...marker].length).join('') + marker;
}

export function storedContent(content: string, limits: ServerLimits = DEFAULT_LIMITS): string {
  return truncate(content.replace(/\r\n?/g, '\n').trimEnd(), limits.maxMessageLength, '\n[message truncated]');
}

/** An edit's content as stored: blank text deletes the message's words. */
export function storedEditContent(content: string, limits: ServerLimits = DEFAULT_LIMITS): string {
  return storedContent(content.trimEnd() === '' ? '(deleted)' : content, limits);
}

export function storedTopic(topic: string, limits: ServerLimits = DEFAULT_LIMITS): string {
  const t = topic.trim();
  if (t === '(no topic)' || (limits.emptyTopicName !== null && t === limits.emptyTopicName)) return '';
  return truncate(t, limits.maxTopicLength, '...');
}

export const storedSnippetText = (s: string): string => s.trim();
