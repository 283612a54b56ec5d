/**
 * Which messages a move takes along (propagate_mode), limited to what the actor can access (spec
 * rule 4: in a private channel with protected history only messages the actor received count),
 * and the topic-wide time limit of change_later / change_all moves
 * (MOVE_MESSAGES_TIME_LIMIT_EXCEEDED, Zulip's check_time_limit_for_change_all_propagate_mode).
 */
import { seconds } from '../../clock.js';
import { JsonableError } from '../../http/errors.js';
import type { ServerState } from '../../state.js';
import { topicKey } from '../../../common/topic-key.js';
import { hasHistoricalAccess, type ChannelRow } from '../access.js';
import type { UserRow } from '../users.js';
import { EDIT_LIMIT_BUFFER_SECONDS, moveLimitSeconds } from './permissions.js';
import { isMoved, isResolveToggle, type EditRequest } from './request.js';

interface TopicMessage {
  id: number;
  date_sent: number;
}

/** Messages of a channel topic (compared by topicKey, as Zulip) the user can access, oldest first. */
export function accessibleTopicMessages(srv: ServerState, user: UserRow, ch: ChannelRow, topic: string): TopicMessage[] {
  if (hasHistoricalAccess(srv, user, ch)) {
    return srv.db.prepare('SELECT id, date_sent FROM messages WHERE channel_id = ? AND topic_key = ? ORDER BY id').all(ch.id, topicKey(topic)) as TopicMessage[];
  }
  return srv.db
    .prepare(
      `SELECT m.id, m.date_sent FROM messages m JOIN user_messages um ON um.message_id = m.id AND um.user_id = ?
       WHERE m.channel_id = ? AND m.topic_key = ? ORDER BY m.id`,
    )
    .all(user.id, ch.id, topicKey(topic)) as TopicMessage[];
}

/** The messages the edit changes: the target, plus the rest of its topic per propagate_mode. */
export function messagesToChange(srv: ServerState, actor: UserRow, r: EditRequest): number[] {
  const target = r.message.id;
  if (!isMoved(r) || r.propagateMode === 'change_one' || !r.origChannel) return [target];
  const others = accessibleTopicMessages(srv, actor, r.origChannel, r.origTopic)
    .map((m) => m.id)
    .filter((id) => (r.propagateMode === 'change_all' ? id !== target : id > target));
  return [target, ...others].sort((a, b) => a - b);
}

/**
 * change_all / change_later moves by users bound by the move time limits: every accessible message
 * that would move must be within the limit, else MOVE_MESSAGES_TIME_LIMIT_EXCEEDED says which part
 * may move (`first_message_id_allowed_to_move` null when none may).
 */
export function checkTopicWideTimeLimit(srv: ServerState, actor: UserRow, r: EditRequest): void {
  if (r.propagateMode === 'change_one' || !isMoved(r) || isResolveToggle(r) || !r.origChannel) return;
  const limit = moveLimitSeconds(srv, actor, r.isTopicEdited && r.isStreamEdited ? 'both' : r.isStreamEdited ? 'channel' : 'topic');
  if (limit === null) return;
  let candidates = accessibleTopicMessages(srv, actor, r.origChannel, r.origTopic);
  if (r.propagateMode === 'change_later') candidates = candidates.filter((m) => m.id >= r.message.id);
  if (!candidates.some((m) => m.id === r.message.id)) candidates.push({ id: r.message.id, date_sent: r.message.date_sent });
  const oldestAllowed = seconds(srv.clock) - (limit + EDIT_LIMIT_BUFFER_SECONDS);
  const allowed = candidates.filter((m) => m.date_sent >= oldestAllowed).sort((a, b) => a.id - b.id);
  if (allowed.length === candidates.length) return;
  throw new JsonableError(
    'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
    `You only have permission to move the ${allowed.length}/${candidates.length} most recent messages in this topic.`,
    400,
    {
      first_message_id_allowed_to_move: allowed[0]?.id ?? null,
      total_messages_in_topic: candidates.length,
      total_messages_allowed_to_move: allowed.length,
    },
  );
}
