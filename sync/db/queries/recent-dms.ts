/**
 * Direct-message conversations: the cached ones (their messages are cached) plus register's
 * `recent_private_conversations` (the conversations among the user's 1,000 newest direct
 * messages, most of which the cache may not hold), so the list answers offline.
 */
import type { RecentPrivateConversation } from '../../api/index.js';
import type { LocalDb } from '../open.js';
import { LOCAL_ECHO_MIN_ID } from './messages.js';
import { cachedStatement } from './statements.js';
import { dmKeyOfIds } from './unreads.js';

export function replaceRecentDms(db: LocalDb, list: readonly RecentPrivateConversation[], selfUserId: number): void {
  cachedStatement(db, 'DELETE FROM recent_dms').run();
  const put = cachedStatement(db, 'INSERT INTO recent_dms (dm_key, max_message_id) VALUES (?, ?) ON CONFLICT DO UPDATE SET max_message_id = max(max_message_id, excluded.max_message_id)');
  for (const c of list) put.run(dmKeyOfIds(c.user_ids, selfUserId), c.max_message_id);
}

/**
 * A conversation's newest message was deleted: its entry falls back to the newest cached message
 * of the conversation (or is kept as it was, when the cache holds none: the conversation exists).
 */
export function noteDmDeletions(db: LocalDb, deleted: readonly number[]): void {
  if (deleted.length === 0) return;
  cachedStatement(
    db,
    `UPDATE recent_dms SET max_message_id = (SELECT max(id) FROM messages m WHERE m.dm_key = recent_dms.dm_key AND m.id < ${LOCAL_ECHO_MIN_ID})
     WHERE max_message_id IN (SELECT value FROM json_each(?))
       AND EXISTS (SELECT 1 FROM messages m WHERE m.dm_key = recent_dms.dm_key AND m.id < ${LOCAL_ECHO_MIN_ID})`,
  ).run(JSON.stringify(deleted));
}

export interface DmConversationRow {
  readonly dm_key: string;
  readonly max_message_id: number;
  /** UNIX seconds of the newest message, when it is cached. */
  readonly timestamp: number | null;
}

/** Every known DM conversation, newest first (local echoes of sends count as the newest). */
export function dmConversationRows(db: LocalDb): DmConversationRow[] {
  return cachedStatement<[], DmConversationRow>(
    db,
    `WITH conv AS (
       SELECT dm_key, max(id) AS max_id FROM messages WHERE dm_key IS NOT NULL GROUP BY dm_key
       UNION ALL SELECT dm_key, max_message_id FROM recent_dms
     ), newest AS (SELECT dm_key, max(max_id) AS max_id FROM conv GROUP BY dm_key)
     SELECT n.dm_key, n.max_id AS max_message_id, json_extract(m.json, '$.timestamp') AS timestamp
     FROM newest n LEFT JOIN messages m ON m.id = n.max_id
     ORDER BY n.max_id DESC`,
  ).all();
}
