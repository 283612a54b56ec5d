/**
 * Message rows read and rewritten by column (flags, channel, topic, sender) rather than as message
 * objects: what the event handlers and the outbox's local effects ask of the `messages` table
 * beyond messages.ts's writes and reads by id.
 */
import { FLAG, HAS_ROW } from '../flags.js';
import type { CompiledLocalNarrow } from '../narrow/compile.js';
import type { LocalDb } from '../open.js';
import { LOCAL_ECHO_MIN_ID } from './messages.js';
import { cachedStatement } from './statements.js';

// --- flags ---------------------------------------------------------------------------------------

/** Stored flag bits of the cached ones among `ids`. */
export function storedFlagRows(db: LocalDb, ids: readonly number[]): Array<{ id: number; flags: number }> {
  return cachedStatement<[string], { id: number; flags: number }>(db, 'SELECT id, flags FROM messages WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids));
}

/** Set a message's flag bits; true when they changed. */
export function setFlagBits(db: LocalDb, id: number, bits: number): boolean {
  return cachedStatement<[number, number, number]>(db, 'UPDATE messages SET flags = ? WHERE id = ? AND flags != ?').run(bits, id, bits).changes > 0;
}

/** Set `bit` on every cached message; returns the ids that changed. */
export function setFlagOnAll(db: LocalDb, bit: number): number[] {
  return cachedStatement<[], number>(db, `UPDATE messages SET flags = flags | ${bit} WHERE (flags & ${bit}) = 0 RETURNING id`).pluck().all();
}

/**
 * Set or clear `bit` on the cached ones among `ids`, marking each as having a per-user row
 * (`HAS_ROW`); returns the ids that changed.
 */
export function changeFlagWithRow(db: LocalDb, ids: readonly number[], bit: number, set: boolean): number[] {
  const expr = set ? `(flags | ${bit | HAS_ROW})` : `((flags & ~${bit}) | ${HAS_ROW})`;
  return cachedStatement<[string], number>(db, `UPDATE messages SET flags = ${expr} WHERE id IN (SELECT value FROM json_each(?)) AND flags != ${expr} RETURNING id`)
    .pluck()
    .all(JSON.stringify(ids));
}

/** Unread cached server messages matching a narrow's WHERE over `messages m`. */
export function unreadServerIdsWhere(db: LocalDb, n: Pick<CompiledLocalNarrow, 'where' | 'params'>): number[] {
  return db.prepare<unknown[], number>(`SELECT m.id FROM messages m WHERE ${n.where} AND (m.flags & ${FLAG.read}) = 0 AND m.id < ${LOCAL_ECHO_MIN_ID}`).pluck().all(...n.params);
}

// --- by channel, topic or sender ----------------------------------------------------------------

/** The stored `display_recipient` of a channel's messages becomes `name`; returns their ids. */
export function renameChannelInMessages(db: LocalDb, channelId: number, name: string): number[] {
  return cachedStatement<[string, number], number>(db, "UPDATE messages SET json = json_set(json, '$.display_recipient', ?) WHERE channel_id = ? RETURNING id")
    .pluck()
    .all(name, channelId);
}

/** A channel's recipient id, read off one cached message of the channel. */
export function channelRecipientId(db: LocalDb, channelId: number): number | undefined {
  const v = cachedStatement<[number], unknown>(db, "SELECT json_extract(json, '$.recipient_id') FROM messages WHERE channel_id = ? LIMIT 1").pluck().get(channelId);
  return typeof v === 'number' ? v : undefined;
}

/** Messages the user sent, or DMs the user is in. */
export function messagesInvolvingUser(db: LocalDb, userId: number): Array<{ id: number; json: string; flags: number }> {
  return cachedStatement<{ uid: number }, { id: number; json: string; flags: number }>(
    db,
    `SELECT id, json, flags FROM messages WHERE sender_id = @uid
     OR (dm_key IS NOT NULL AND instr(',' || dm_key || ',', ',' || CAST(@uid AS INTEGER) || ',') > 0)`,
  ).all({ uid: userId });
}

/**
 * The sender's cached server messages sent at or after `sinceSeconds` whose raw text is not kept,
 * newest first, at most `limit`.
 */
export function ownIdsWithoutRaw(db: LocalDb, senderId: number, sinceSeconds: number, limit: number): number[] {
  return cachedStatement<[number, number, number], number>(
    db,
    `SELECT m.id FROM messages m WHERE m.sender_id = ? AND m.id < ${LOCAL_ECHO_MIN_ID} AND json_extract(m.json, '$.timestamp') >= ?
       AND NOT EXISTS (SELECT 1 FROM message_raw r WHERE r.message_id = m.id) ORDER BY m.id DESC LIMIT ?`,
  )
    .pluck()
    .all(senderId, sinceSeconds, limit);
}

/** Cached server message ids at or below `atMost`, newest first. */
export function serverIdsAtOrBelow(db: LocalDb, atMost: number): number[] {
  return db.prepare<[number, number], number>('SELECT id FROM messages WHERE id <= ? AND id < ? ORDER BY id DESC').pluck().all(atMost, LOCAL_ECHO_MIN_ID);
}

/** Where a cached message is: its channel (null for a DM) and topic key. */
export function topicOfMessage(db: LocalDb, id: number): { channel_id: number | null; topic_key: string } | undefined {
  return cachedStatement<[number], { channel_id: number | null; topic_key: string }>(db, 'SELECT channel_id, topic_key FROM messages WHERE id = ?').get(id);
}

/** Cached message ids of a topic (local echoes included), ascending. */
export function idsInTopic(db: LocalDb, channelId: number, topicKey: string): number[] {
  return db.prepare<[number, string], number>('SELECT id FROM messages WHERE channel_id = ? AND topic_key = ? ORDER BY id').pluck().all(channelId, topicKey);
}

/** Cached server message ids of a topic. */
export function serverIdsInTopic(db: LocalDb, channelId: number, topicKey: string): number[] {
  return cachedStatement<[number, string, number], number>(db, 'SELECT id FROM messages WHERE channel_id = ? AND topic_key = ? AND id < ?').pluck().all(channelId, topicKey, LOCAL_ECHO_MIN_ID);
}

/** Unread cached message ids of a topic. */
export function unreadIdsInTopic(db: LocalDb, channelId: number, topicKey: string): number[] {
  return db.prepare<[number, string], number>(`SELECT id FROM messages WHERE channel_id = ? AND topic_key = ? AND (flags & ${FLAG.read}) = 0`).pluck().all(channelId, topicKey);
}
