/**
 * Changing personal flags (Zulip's do_update_message_flags): only `read`, `starred` and
 * `collapsed` are editable; messages without a user_messages row count as `read` + `historical`
 * and get a row when the change needs one; marking unread ignores channels the user is not
 * subscribed to. The `update_message_flags` event lists the messages that changed; removing
 * `read` adds `message_details` so clients can rebuild their unread state.
 */
import { emit } from '../events/emit.js';
import type { QueueView } from '../events/queues.js';
import { badRequest } from '../http/errors.js';
import type { ServerState } from '../state.js';
import { canAccessMessage } from './access.js';
import { EDITABLE_FLAGS, FLAG, HISTORICAL_FLAGS, MENTION_BITS, type EditableFlag } from './flags.js';
import { sql } from '../db/statements.js';
import { dmParticipantIds, type MessageRow } from './messages.js';
import { getRealm } from './realm.js';
import { topicKey } from '../../common/topic-key.js';
import type { UserRow } from './users.js';

const API_FLAGS = ['read', 'starred', 'collapsed', 'mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'wildcard_mentioned', 'has_alert_word', 'historical'];

export function checkEditableFlag(flag: string): EditableFlag {
  if (!API_FLAGS.includes(flag)) throw badRequest(`Invalid flag: '${flag}'`);
  if (!(EDITABLE_FLAGS as readonly string[]).includes(flag)) throw badRequest(`Flag not editable: '${flag}'`);
  return flag as EditableFlag;
}

export interface FlagUpdate {
  /** Messages whose flag actually changed, in the order given. */
  readonly changed: number[];
  /** Channels whose messages were skipped when marking unread (not subscribed). */
  readonly ignoredChannelIds: number[];
}

export function updateMessageFlags(srv: ServerState, user: UserRow, op: 'add' | 'remove', flag: EditableFlag, messageIds: readonly number[]): FlagUpdate {
  const bit = FLAG[flag];
  const adding = op === 'add';
  const target = adding ? bit : 0;
  let ids = [...new Set(messageIds)];
  const ignored = new Set<number>();
  if (flag === 'read' && !adding) {
    ids = ids.filter((id) => {
      const m = sql(srv, 'SELECT channel_id FROM messages WHERE id = ?').get(id) as { channel_id: number | null } | undefined;
      if (!m || m.channel_id === null) return true;
      if (sql(srv, 'SELECT 1 FROM subscriptions WHERE user_id = ? AND channel_id = ? AND active = 1').get(user.id, m.channel_id)) return true;
      ignored.add(m.channel_id);
      return false;
    });
  }
  const rowFlags = new Map<number, number>();
  for (const id of ids) {
    const f = sql(srv, 'SELECT flags FROM user_messages WHERE user_id = ? AND message_id = ?').pluck().get(user.id, id) as number | undefined;
    if (f !== undefined) rowFlags.set(id, f);
  }
  const changed = ids.filter((id) => ((rowFlags.get(id) ?? HISTORICAL_FLAGS) & bit) !== target);
  const historical = changed.filter((id) => !rowFlags.has(id));
  if (historical.length > 0) {
    for (const id of historical) {
      const m = sql(srv, 'SELECT id, type, channel_id FROM messages WHERE id = ?').get(id) as Pick<MessageRow, 'id' | 'type' | 'channel_id'> | undefined;
      if (!m || !canAccessMessage(srv, user, m)) throw badRequest('Invalid message(s)');
    }
    const insert = sql(srv, 'INSERT INTO user_messages (user_id, message_id, flags) VALUES (?, ?, ?)');
    for (const id of historical) insert.run(user.id, id, (HISTORICAL_FLAGS & ~bit) | target);
  }
  const update = adding
    ? sql(srv, `UPDATE user_messages SET flags = flags | ${bit} WHERE user_id = ? AND message_id = ?`)
    : sql(srv, `UPDATE user_messages SET flags = flags & ~${bit} WHERE user_id = ? AND message_id = ?`);
  for (const id of changed) if (rowFlags.has(id)) update.run(user.id, id);

  emitFlagEvent(srv, user.id, op, flag, changed);
  return { changed, ignoredChannelIds: [...ignored].sort((a, b) => a - b) };
}

export function emitFlagEvent(srv: ServerState, userId: number, op: 'add' | 'remove', flag: string, messages: readonly number[], all = false): void {
  if (flag === 'read' && op === 'remove') {
    const details = messageDetails(srv, userId, messages);
    const emptyName = getRealm(srv).empty_topic_display_name;
    emit(srv, [userId], (q: QueueView) => {
      const allowEmpty = q.options.capabilities.empty_topic_name === true;
      const shaped: Record<string, Record<string, unknown>> = {};
      for (const [id, d] of Object.entries(details)) shaped[id] = d.topic === '' && !allowEmpty ? { ...d, topic: emptyName } : d;
      return { type: 'update_message_flags', op, operation: op, flag, messages: [...messages], all, message_details: shaped };
    });
    return;
  }
  emit(srv, [userId], { type: 'update_message_flags', op, operation: op, flag, messages: [...messages], all });
}

/** Zulip's format_unread_message_details (for `remove` `read` events). */
function messageDetails(srv: ServerState, userId: number, ids: readonly number[]): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const id of ids) {
    const m = sql(srv, 'SELECT m.type, m.channel_id, m.topic, m.recipient_id, um.flags FROM messages m JOIN user_messages um ON um.message_id = m.id AND um.user_id = ? WHERE m.id = ?').get(
      userId,
      id,
    ) as { type: string; channel_id: number | null; topic: string; recipient_id: number; flags: number } | undefined;
    if (!m) continue;
    const d: Record<string, unknown> = {};
    if (m.type === 'stream') {
      const muted = !!sql(srv, 'SELECT 1 FROM subscriptions WHERE user_id = ? AND channel_id = ? AND is_muted = 1').get(userId, m.channel_id);
      Object.assign(d, { type: 'stream', stream_id: m.channel_id, topic: m.topic, unmuted_stream_msg: !muted });
    } else {
      Object.assign(d, { type: 'private', user_ids: dmParticipantIds(srv, m.recipient_id).filter((u) => u !== userId) });
    }
    if (m.flags & MENTION_BITS) d.mentioned = true;
    out[String(id)] = d;
  }
  return out;
}

/** POST /mark_topic_as_read and friends: every unread message of the user in a channel (topic). */
export function markChannelRead(srv: ServerState, user: UserRow, channelId: number, topic: string | null): number[] {
  const ids = (
    topic === null
      ? sql(srv, `SELECT um.message_id FROM user_messages um JOIN messages m ON m.id = um.message_id WHERE um.user_id = ? AND m.channel_id = ? AND (um.flags & ${FLAG.read}) = 0 ORDER BY um.message_id`).pluck().all(user.id, channelId)
      : sql(srv, `SELECT um.message_id FROM user_messages um JOIN messages m ON m.id = um.message_id WHERE um.user_id = ? AND m.channel_id = ? AND m.topic_key = ? AND (um.flags & ${FLAG.read}) = 0 ORDER BY um.message_id`)
          .pluck()
          .all(user.id, channelId, topicKey(topic))
  ) as number[];
  const update = sql(srv, `UPDATE user_messages SET flags = flags | ${FLAG.read} WHERE user_id = ? AND message_id = ?`);
  for (const id of ids) update.run(user.id, id);
  if (ids.length > 0) emitFlagEvent(srv, user.id, 'add', 'read', ids);
  return ids;
}

/** POST /mark_all_as_read: one event with `all: true` and no ids, as Zulip sends. */
export function markAllRead(srv: ServerState, user: UserRow): number {
  const n = sql(srv, `UPDATE user_messages SET flags = flags | ${FLAG.read} WHERE user_id = ? AND (flags & ${FLAG.read}) = 0`).run(user.id).changes;
  emitFlagEvent(srv, user.id, 'add', 'read', [], true);
  return n;
}
