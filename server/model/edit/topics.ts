/**
 * Topic rules for edits and moves (Zulip's check_update_message / build_message_edit_request):
 * the realm's empty-topic display name means "", topics are stripped and truncated to
 * `max_topic_length`, control characters are refused, resolving is the `✔ ` prefix, and the
 * destination channel's topics policy (or the realm's, for `inherit`) is enforced.
 */
import { badRequest } from '../../http/errors.js';
import type { ServerState } from '../../state.js';
import type { ChannelRow } from '../access.js';
import { getRealm } from '../realm.js';

export const RESOLVED_TOPIC_PREFIX = '✔ ';

/** Zulip's Message.EMPTY_TOPIC_FALLBACK_NAME (the English display name of ""). */
const EMPTY_TOPIC_FALLBACK_NAME = 'general chat';

/**
 * A topic as a client sent it: stripped, and the empty-topic display name read as "" (spec
 * convention 5); `(no topic)` too, as this server's send path does.
 */
export function normalizeTopicParam(srv: ServerState, raw: string): string {
  const topic = raw.trim();
  return topic === getRealm(srv).empty_topic_display_name || topic === '(no topic)' ? '' : topic;
}

/** Zulip's check_stream_topic: no control, surrogate or unassigned code points. */
export function checkTopicCharacters(topic: string): void {
  let position = 0;
  for (const ch of topic) {
    position++;
    if (/[\p{Cc}\p{Cs}\p{Cn}]/u.test(ch)) throw badRequest(`Invalid character in topic, at position ${position}!`);
  }
}

/** Zulip's truncate_topic: longer topics keep `max - 3` code points and end in "...". */
export function truncateTopic(srv: ServerState, topic: string): string {
  const max = getRealm(srv).max_topic_length;
  const points = [...topic];
  if (points.length <= max) return topic;
  return points.slice(0, max - 3).join('') + '...';
}

/** The names that would mean "resolve the empty topic", which Zulip refuses. */
export function isResolvingGeneralChat(srv: ServerState, topic: string): boolean {
  const display = getRealm(srv).empty_topic_display_name;
  return [RESOLVED_TOPIC_PREFIX.trim(), `${RESOLVED_TOPIC_PREFIX}${EMPTY_TOPIC_FALLBACK_NAME}`, `${RESOLVED_TOPIC_PREFIX}${display}`].includes(topic);
}

const stripResolved = (t: string) => {
  let out = t;
  while (out.length && RESOLVED_TOPIC_PREFIX.includes(out[0]!)) out = out.slice(1);
  return out;
};

/**
 * Whether a topic change marks the topic resolved (`T` → `✔ T`) or unresolved (`✔ T` → `T`),
 * as opposed to a rename that happens to add or drop the prefix.
 */
export function resolveChange(oldTopic: string, requested: string, target: string): { resolved: boolean; unresolved: boolean } {
  const wasResolved = oldTopic.startsWith(RESOLVED_TOPIC_PREFIX);
  const isResolved = target.startsWith(RESOLVED_TOPIC_PREFIX);
  return {
    resolved: isResolved && !wasResolved && requested.slice(RESOLVED_TOPIC_PREFIX.length) === oldTopic,
    unresolved: wasResolved && !isResolved && stripResolved(oldTopic) === target,
  };
}

export type TopicsPolicy = 'allow_empty_topic' | 'disable_empty_topic' | 'empty_topic_only';

export function channelTopicsPolicy(srv: ServerState, ch: ChannelRow): TopicsPolicy {
  if (ch.topics_policy === 'allow_empty_topic' || ch.topics_policy === 'disable_empty_topic' || ch.topics_policy === 'empty_topic_only') {
    return ch.topics_policy;
  }
  return getRealm(srv).topics_policy;
}

/** The destination topic must fit the destination channel's topics policy. */
export function checkTopicsPolicy(srv: ServerState, target: ChannelRow, topic: string, moved: boolean): void {
  const policy = channelTopicsPolicy(srv, target);
  const empty = topic === '' || topic === '(no topic)';
  const display = getRealm(srv).empty_topic_display_name;
  if (empty && moved && policy === 'disable_empty_topic') {
    throw badRequest(`Sending messages to ${display} is not allowed in this channel.`);
  }
  if (policy === 'empty_topic_only' && !empty) {
    throw badRequest(`Only the ${display} topic is allowed in this channel.`);
  }
}
