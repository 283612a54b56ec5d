/**
 * The raw Markdown of messages the user may edit (migration 0004 `message_raw`): their own
 * editable messages, fetched in the background, and any message whose raw text was read
 * (`messageRawContent`), kept current by `update_message` events and trimmed to a budget
 * (`trimRawContent`). Edit opens from it offline.
 */
import type { LocalDb } from '../open.js';
import { cachedStatement } from './statements.js';

export function putRawContent(db: LocalDb, messageId: number, raw: string, now: number): void {
  cachedStatement(db, 'INSERT OR REPLACE INTO message_raw (message_id, raw, fetched_at) VALUES (?, ?, ?)').run(messageId, raw, now);
}

export function getRawContent(db: LocalDb, messageId: number): string | undefined {
  const v: unknown = cachedStatement(db, 'SELECT raw FROM message_raw WHERE message_id = ?').pluck().get(messageId);
  return typeof v === 'string' ? v : undefined;
}

export function hasRawContent(db: LocalDb, messageId: number): boolean {
  return cachedStatement(db, 'SELECT 1 FROM message_raw WHERE message_id = ?').pluck().get(messageId) === 1;
}

/**
 * Keep at most `maxRows` texts and `maxBytes` of UTF-8 text, evicting the oldest messages (lowest
 * id) first. Returns how many were evicted.
 */
export function trimRawContent(db: LocalDb, maxRows: number, maxBytes: number): number {
  return cachedStatement<[number, number]>(
    db,
    `DELETE FROM message_raw WHERE message_id IN (
       SELECT message_id FROM (
         SELECT message_id,
                ROW_NUMBER() OVER (ORDER BY message_id DESC) AS n,
                SUM(length(CAST(raw AS BLOB))) OVER (ORDER BY message_id DESC) AS bytes
           FROM message_raw)
        WHERE n > ? OR bytes > ?)`,
  ).run(maxRows, maxBytes).changes;
}
