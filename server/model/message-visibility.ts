/**
 * Topic visibility policies changed by sending a channel message (Zulip's
 * visibility_policy_for_send_message and the "follow where mentioned" step of do_send_messages):
 *
 * - the sender follows (or, in a muted channel, unmutes) the topic according to
 *   `automatically_follow_topics_policy` / `automatically_unmute_topics_in_muted_streams_policy`
 *   (1 participation, 2 send, 3 initiation, 4 never); the new policy is the send response's
 *   `automatic_new_visibility_policy`;
 * - recipients mentioned personally (directly or through a group) follow the topic when
 *   `automatically_follow_topics_where_mentioned` is on, unless they muted or follow it already.
 */
import type { ServerState } from '../state.js';
import { topicKey } from '../../common/topic-key.js';
import { hasHistoricalAccess, type ChannelRow } from './access.js';
import { sql } from '../db/statements.js';
import { getUserSetting } from './user-settings.js';
import { setUserTopicPolicy, userTopicPolicy, VISIBILITY_POLICY } from './user-topics.js';
import type { UserRow } from './users.js';

const ON_PARTICIPATION = 1;
const ON_SEND = 2;
const ON_INITIATION = 3;
const NEVER = 4;

function senderPolicy(srv: ServerState, sender: UserRow, ch: ChannelRow, topic: string, messageId: number): 2 | 3 | null {
  const follow = getUserSetting(srv, sender.id, 'automatically_follow_topics_policy');
  const unmute = getUserSetting(srv, sender.id, 'automatically_unmute_topics_in_muted_streams_policy');
  if (follow === NEVER && unmute === NEVER) return null;
  const current = userTopicPolicy(srv, sender.id, ch.id, topic);
  if (current === VISIBILITY_POLICY.followed) return null;
  const channelMuted = !!sql(srv, 'SELECT 1 FROM subscriptions WHERE user_id = ? AND channel_id = ? AND active = 1 AND is_muted = 1').get(sender.id, ch.id);
  // Sending is both participating and sending.
  if (follow === ON_PARTICIPATION || follow === ON_SEND) return VISIBILITY_POLICY.followed;
  let policy: 2 | 3 | null = channelMuted && (unmute === ON_PARTICIPATION || unmute === ON_SEND) ? VISIBILITY_POLICY.unmuted : null;
  if (current !== VISIBILITY_POLICY.inherit) return policy !== null && current === policy ? null : policy;
  // Did the sender start the topic? Only messages they may see count (protected history).
  const older = hasHistoricalAccess(srv, sender, ch)
    ? sql(srv, 'SELECT 1 FROM messages WHERE channel_id = ? AND topic_key = ? AND id != ? LIMIT 1').get(ch.id, topicKey(topic), messageId)
    : sql(
        srv,
        'SELECT 1 FROM user_messages um JOIN messages m ON m.id = um.message_id WHERE um.user_id = ? AND m.channel_id = ? AND m.topic_key = ? AND m.id != ? LIMIT 1',
      ).get(sender.id, ch.id, topicKey(topic), messageId);
  if (!older && follow === ON_INITIATION) return VISIBILITY_POLICY.followed;
  if (!older && channelMuted && unmute === ON_INITIATION) policy = VISIBILITY_POLICY.unmuted;
  return policy;
}

/** Applies both rules; returns the sender's new policy (for `automatic_new_visibility_policy`). */
export function applySendVisibilityPolicies(
  srv: ServerState,
  sender: UserRow,
  ch: ChannelRow,
  topic: string,
  messageId: number,
  mentioned: ReadonlySet<number>,
  recipients: readonly number[],
): 2 | 3 | undefined {
  let result: 2 | 3 | undefined;
  if (!sender.is_bot) {
    const policy = senderPolicy(srv, sender, ch, topic, messageId);
    if (policy !== null && setUserTopicPolicy(srv, sender.id, ch.id, topic, policy)) result = policy;
  }
  for (const uid of recipients) {
    if (!mentioned.has(uid)) continue;
    const u = sql(srv, 'SELECT is_bot, is_active FROM users WHERE id = ?').get(uid) as { is_bot: number; is_active: number } | undefined;
    if (!u || u.is_bot || !u.is_active) continue;
    if (!getUserSetting(srv, uid, 'automatically_follow_topics_where_mentioned')) continue;
    const current = userTopicPolicy(srv, uid, ch.id, topic);
    if (current === VISIBILITY_POLICY.muted || current === VISIBILITY_POLICY.followed) continue;
    setUserTopicPolicy(srv, uid, ch.id, topic, VISIBILITY_POLICY.followed);
  }
  return result;
}
