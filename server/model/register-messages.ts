/**
 * register's message-derived parts (docs/zulip-behaviour.md "Register"): `max_message_id`, `starred_messages` and
 * `recent_private_conversations` (from the user's own message rows).
 */
import type { ServerState } from '../state.js';
import { FLAG } from './flags.js';

/** The highest id among messages the user received; -1 when none (as Zulip). */
export function maxMessageId(srv: ServerState, userId: number): number {
  return (srv.db.prepare('SELECT MAX(message_id) FROM user_messages WHERE user_id = ?').pluck().get(userId) as number | null) ?? -1;
}

export function starredMessageIds(srv: ServerState, userId: number): number[] {
  return srv.db.prepare('SELECT message_id FROM user_messages WHERE user_id = ? AND (flags & ?) != 0 ORDER BY message_id').pluck().all(userId, FLAG.starred) as number[];
}

/** Zulip's "recent": conversations among the user's 1000 most recent direct messages. */
const RECENT_DM_WINDOW = 1000;

/**
 * One entry per direct-message conversation, newest first: `user_ids` are the other participants
 * (empty for the conversation with oneself).
 */
export function recentPrivateConversations(srv: ServerState, userId: number): Array<{ max_message_id: number; user_ids: number[] }> {
  const rows = srv.db
    .prepare(
      `SELECT r.dm_key AS dm_key, MAX(t.id) AS max_id FROM (
         SELECT m.id, m.recipient_id FROM user_messages um JOIN messages m ON m.id = um.message_id
         WHERE um.user_id = ? AND m.type = 'private' ORDER BY um.message_id DESC LIMIT ?
       ) t JOIN recipients r ON r.id = t.recipient_id
       GROUP BY r.dm_key ORDER BY max_id DESC`,
    )
    .all(userId, RECENT_DM_WINDOW) as Array<{ dm_key: string | null; max_id: number }>;
  return rows.map((r) => ({
    max_message_id: r.max_id,
    user_ids: (r.dm_key ?? '')
      .split(',')
      .filter(Boolean)
      .map(Number)
      .filter((id) => id !== userId),
  }));
}
