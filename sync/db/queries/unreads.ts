/**
 * Unread and starred state as the server states it, for messages the cache may not hold.
 *
 * Where counts come from: a CACHED message counts by its own `read` / `starred` bits (current with
 * events, and with the outbox's pending changes on top). A message NOT cached counts from
 * `server_unreads` / `server_starred`: register's `unread_msgs` and `starred_messages`, kept
 * current by the event handlers (new messages, flag changes, moves, deletions), less what pending
 * outbox rows mark read (`UnreadExclusions`, built by engine/unread-pending.ts).
 *
 * Where this can still be incomplete: a message marked unread by hand (a `read` remove) that is
 * not cached and whose event carried no `message_details` is counted only once fetched; the server
 * truncates `unread_msgs` past 50,000 (`old_unreads_missing`, reported as incomplete); before the
 * first register only the cache counts; and channels not subscribed have no server rows (the
 * server leaves them out of `unread_msgs`), so their counts are the cache's.
 */
import { topicKey, type Message, type UnreadMsgs } from '../../api/index.js';
import { FLAG, flagsToBits, HAS_ROW } from '../flags.js';
import type { LocalDb } from '../open.js';
import { getJsonValue, setJsonValue } from './json-values.js';
import { dmKeyOf } from './message-columns.js';
import { LOCAL_ECHO_MIN_ID } from './messages.js';
import { cachedStatement, insertRows } from './statements.js';
import { rebuildUnreadSummary, withSummariesPaused } from './summaries.js';

export const MENTION_BITS = FLAG.mentioned | FLAG.stream_wildcard_mentioned | FLAG.topic_wildcard_mentioned;
const OLD_MISSING = 'unreads.old_unreads_missing';

/** Where an unread message is: a channel's topic, or a DM conversation. */
export type UnreadPlace = { channel_id: number; topic: string } | { dm_key: string };

// --- writes (snapshot and events) ----------------------------------------------------------------

// An upsert, not OR REPLACE: the unread summary's triggers (migration 0009) see a replaced row as an update.
const UPSERT = `INSERT INTO server_unreads (message_id, channel_id, topic, topic_key, dm_key, flags) VALUES (?, ?, ?, ?, ?, ?)
  ON CONFLICT(message_id) DO UPDATE SET channel_id = excluded.channel_id, topic = excluded.topic, topic_key = excluded.topic_key, dm_key = excluded.dm_key, flags = excluded.flags`;

export function putServerUnread(db: LocalDb, id: number, place: UnreadPlace, mentionBits: number): void {
  const bits = mentionBits & MENTION_BITS;
  if ('channel_id' in place) cachedStatement(db, UPSERT).run(id, place.channel_id, place.topic, topicKey(place.topic), null, bits);
  else cachedStatement(db, UPSERT).run(id, null, '', '', place.dm_key, bits);
}

/** Sorted, deduplicated, with self: the key `messages.dm_key` uses. */
export function dmKeyOfIds(ids: readonly number[], selfUserId: number): string {
  return [...new Set([...ids, selfUserId])].sort((a, b) => a - b).join(',');
}

/**
 * Replace the server's unread set with register's `unread_msgs`: tens of thousands of rows in a
 * large organisation, so written with the summaries paused and every unread summary rebuilt once.
 */
export function replaceServerUnreads(db: LocalDb, u: UnreadMsgs, selfUserId: number): void {
  withSummariesPaused(db, () => writeServerUnreads(db, u, selfUserId), () => rebuildUnreadSummary(db));
  setJsonValue(db, 'engine_settings', OLD_MISSING, u.old_unreads_missing);
}

/** Many rows a statement (a large organisation's set is 100,000 rows over 50,000 topics), then the mentions. */
function writeServerUnreads(db: LocalDb, u: UnreadMsgs, selfUserId: number): void {
  cachedStatement(db, 'DELETE FROM server_unreads').run();
  const rows: Array<[number, number | null, string, string, string | null]> = [];
  for (const s of u.streams) {
    const key = topicKey(s.topic);
    for (const id of s.unread_message_ids) rows.push([id, s.stream_id, s.topic, key, null]);
  }
  const dm = (dmKey: string, ids: readonly number[]) => {
    for (const id of ids) rows.push([id, null, '', '', dmKey]);
  };
  for (const p of u.pms) dm(dmKeyOfIds([p.other_user_id], selfUserId), p.unread_message_ids);
  for (const h of u.huddles) dm(dmKeyOfIds(h.user_ids_string.split(',').filter((x) => x.trim() !== '').map(Number), selfUserId), h.unread_message_ids);
  // In id order: the table's b-tree then grows at its end instead of splitting pages all over.
  rows.sort((a, b) => a[0] - b[0]);
  insertRows(db, 'INSERT OR REPLACE', 'server_unreads', ['message_id', 'channel_id', 'topic', 'topic_key', 'dm_key'], rows, 200);
  // The server lists mentions apart; which kind of mention is not said (counted as personal ones).
  if (u.mentions.length > 0) cachedStatement(db, `UPDATE server_unreads SET flags = ${FLAG.mentioned} WHERE message_id IN (SELECT value FROM json_each(?))`).run(JSON.stringify(u.mentions));
}

export function replaceServerStarred(db: LocalDb, ids: readonly number[]): void {
  cachedStatement(db, 'DELETE FROM server_starred').run();
  const ins = cachedStatement(db, 'INSERT OR IGNORE INTO server_starred (message_id) VALUES (?)');
  for (const id of ids) ins.run(id);
}

/** A message as it arrives (event or fetch): its unread and starred state. */
export function noteMessageFlags(db: LocalDb, m: Message): void {
  const bits = flagsToBits(m.flags);
  if ((bits & FLAG.read) === 0) {
    const dm = dmKeyOf(m);
    if (m.type === 'stream' && m.stream_id !== undefined) putServerUnread(db, m.id, { channel_id: m.stream_id, topic: m.subject }, bits);
    else if (dm !== null) putServerUnread(db, m.id, { dm_key: dm }, bits);
  } else {
    forgetServerUnreads(db, [m.id]);
  }
  if ((bits & FLAG.starred) !== 0) cachedStatement(db, 'INSERT OR IGNORE INTO server_starred (message_id) VALUES (?)').run(m.id);
}

export function forgetServerUnreads(db: LocalDb, ids: readonly number[]): void {
  if (ids.length > 0) cachedStatement(db, 'DELETE FROM server_unreads WHERE message_id IN (SELECT value FROM json_each(?))').run(JSON.stringify(ids));
}

export function forgetAllServerUnreads(db: LocalDb): void {
  cachedStatement(db, 'DELETE FROM server_unreads').run();
}

export function setServerStarred(db: LocalDb, ids: readonly number[], starred: boolean): void {
  const sql = starred ? 'INSERT OR IGNORE INTO server_starred (message_id) SELECT value FROM json_each(?)' : 'DELETE FROM server_starred WHERE message_id IN (SELECT value FROM json_each(?))';
  if (ids.length > 0) cachedStatement(db, sql).run(JSON.stringify(ids));
}

/** Mention bits of unread rows changed (an edit added or removed a mention; a flag event). */
export function setServerUnreadMentionBits(db: LocalDb, id: number, bits: number): void {
  cachedStatement(db, 'UPDATE server_unreads SET flags = ? WHERE message_id = ?').run(bits & MENTION_BITS, id);
}

export function addServerUnreadBits(db: LocalDb, ids: readonly number[], bit: number, on: boolean): void {
  if (ids.length === 0 || (bit & MENTION_BITS) === 0) return;
  const expr = on ? `flags | ${bit & MENTION_BITS}` : `flags & ~${bit & MENTION_BITS}`;
  cachedStatement(db, `UPDATE server_unreads SET flags = ${expr} WHERE message_id IN (SELECT value FROM json_each(?))`).run(JSON.stringify(ids));
}

/** Moved messages: their unread rows follow them (channel and/or topic). */
export function moveServerUnreads(db: LocalDb, ids: readonly number[], to: { channel_id?: number; topic?: string }): void {
  if (ids.length === 0 || (to.channel_id === undefined && to.topic === undefined)) return;
  const list = JSON.stringify(ids);
  if (to.channel_id !== undefined) cachedStatement(db, 'UPDATE server_unreads SET channel_id = ? WHERE channel_id IS NOT NULL AND message_id IN (SELECT value FROM json_each(?))').run(to.channel_id, list);
  if (to.topic !== undefined) {
    cachedStatement(db, 'UPDATE server_unreads SET topic = ?, topic_key = ? WHERE channel_id IS NOT NULL AND message_id IN (SELECT value FROM json_each(?))').run(to.topic, topicKey(to.topic), list);
  }
}

/** Whether the stored unread set is the server's whole truth (it was fetched, and not truncated). */
export function serverUnreadsKnown(db: LocalDb): boolean {
  return getJsonValue(db, 'engine_settings', OLD_MISSING) === false;
}

// --- reads ---------------------------------------------------------------------------------------

/**
 * What pending outbox rows mark read among messages not cached (the cached ones already show it):
 * message ids, channel topics (`[channel_id, topic_key]`), and narrows as SQL over `messages m`.
 */
export interface UnreadExclusions {
  readonly readIds: readonly number[];
  readonly topics: ReadonlyArray<readonly [number, string]>;
  readonly narrows: ReadonlyArray<{ readonly where: string; readonly params: ReadonlyArray<string | number> }>;
}

export const NO_EXCLUSIONS: UnreadExclusions = { readIds: [], topics: [], narrows: [] };

/** A server row shaped like `messages m` (for narrow SQL): only the columns a row knows are set. */
const SERVER_AS_MESSAGE = `SELECT message_id AS id, CASE WHEN channel_id IS NULL THEN 'private' ELSE 'stream' END AS type, channel_id, topic,
  topic_key, dm_key, NULL AS sender_id, flags | ${HAS_ROW} AS flags, 0 AS has_link, 0 AS has_image, 0 AS has_attachment, 0 AS has_reaction,
  NULL AS json FROM server_unreads`;

/**
 * A CTE `unread(id, channel_id, topic, topic_key, dm_key, flags)`: every unread message, cached
 * or not (see the file comment). Prefix a query with `WITH ${sql}` and pass `params` first.
 */
export function unreadCte(ex: UnreadExclusions): { sql: string; params: Array<string | number> } {
  const params: Array<string | number> = [JSON.stringify(ex.readIds), JSON.stringify(ex.topics)];
  let narrows = '';
  for (const n of ex.narrows) {
    narrows += ` AND NOT COALESCE((${n.where}), 0)`;
    params.push(...n.params);
  }
  const sql = `unread AS (
    SELECT id, channel_id, topic, topic_key, dm_key, flags FROM messages WHERE (flags & ${FLAG.read}) = 0 AND id < ${LOCAL_ECHO_MIN_ID}
    UNION ALL
    SELECT m.id, m.channel_id, m.topic, m.topic_key, m.dm_key, m.flags FROM (${SERVER_AS_MESSAGE}) m
     WHERE NOT EXISTS (SELECT 1 FROM messages c WHERE c.id = m.id)
       AND m.id NOT IN (SELECT value FROM json_each(?))
       AND NOT EXISTS (SELECT 1 FROM json_each(?) t WHERE m.channel_id = json_extract(t.value, '$[0]') AND m.topic_key = json_extract(t.value, '$[1]'))${narrows}
  )`;
  return { sql, params };
}

/** Unread count and mentions of one conversation group (a topic, a DM conversation). */
export interface UnreadGroup {
  readonly count: number;
  /** Unread personal mentions (or mentions the server listed without saying which kind). */
  readonly personal_mentions: number;
  /** Unread messages mentioned only by a wildcard (they do not count in muted topics). */
  readonly wildcard_mentions: number;
}

export interface TopicUnreads extends UnreadGroup {
  readonly channel_id: number;
  readonly topic_key: string;
  /** The spelling of the newest unread message. */
  readonly topic: string;
}

const GROUP_SUMS = `count(*) AS count, sum((flags & ${FLAG.mentioned}) != 0) AS personal_mentions,
  sum((flags & ${FLAG.mentioned}) = 0 AND (flags & ${FLAG.stream_wildcard_mentioned | FLAG.topic_wildcard_mentioned}) != 0) AS wildcard_mentions`;

/**
 * Whether pending outbox rows hide any counted server row (a message not cached): only then do the
 * counts need the scan of `unreadCte`; otherwise `unread_summary` (migration 0009) answers.
 */
export function exclusionsApply(db: LocalDb, ex: UnreadExclusions): boolean {
  const uncached = 'NOT EXISTS (SELECT 1 FROM messages c WHERE c.id = m.id)';
  if (ex.readIds.length > 0) {
    const sql = `SELECT 1 FROM (${SERVER_AS_MESSAGE}) m WHERE m.id IN (SELECT value FROM json_each(?)) AND ${uncached} LIMIT 1`;
    if (cachedStatement(db, sql).get(JSON.stringify(ex.readIds)) !== undefined) return true;
  }
  for (const [channelId, key] of ex.topics) {
    if (cachedStatement(db, `SELECT 1 FROM (${SERVER_AS_MESSAGE}) m WHERE m.channel_id = ? AND m.topic_key = ? AND ${uncached} LIMIT 1`).get(channelId, key) !== undefined) return true;
  }
  return ex.narrows.some((n) => db.prepare(`SELECT 1 FROM (${SERVER_AS_MESSAGE}) m WHERE ${uncached} AND COALESCE((${n.where}), 0) LIMIT 1`).get(...n.params) !== undefined);
}

const SUMMARY_SUMS = 'count, personal_mentions, wildcard_mentions';

export function unreadTopics(db: LocalDb, ex: UnreadExclusions, channelId?: number): TopicUnreads[] {
  if (exclusionsApply(db, ex)) return unreadTopicsScan(db, ex, channelId);
  const sql = `SELECT channel_id, topic_key, topic, ${SUMMARY_SUMS} FROM unread_summary WHERE channel_id ${channelId === undefined ? '!= 0' : '= ?'}`;
  return cachedStatement<number[], TopicUnreads>(db, sql).all(...(channelId === undefined ? [] : [channelId]));
}

export function unreadDms(db: LocalDb, ex: UnreadExclusions): Array<UnreadGroup & { dm_key: string }> {
  if (exclusionsApply(db, ex)) return unreadDmsScan(db, ex);
  return cachedStatement<[], UnreadGroup & { dm_key: string }>(db, `SELECT dm_key, ${SUMMARY_SUMS} FROM unread_summary WHERE channel_id = 0`).all();
}

/** `unreadTopics` by scanning every unread message (`unreadCte`): pending rows hide server rows; tests compare the summary with it. */
export function unreadTopicsScan(db: LocalDb, ex: UnreadExclusions, channelId?: number): TopicUnreads[] {
  const cte = unreadCte(ex);
  const where = channelId === undefined ? 'channel_id IS NOT NULL' : 'channel_id = ?';
  const sql = `WITH ${cte.sql} SELECT channel_id, topic_key, topic, max(id) AS last_id, ${GROUP_SUMS} FROM unread WHERE ${where} GROUP BY channel_id, topic_key`;
  const params = channelId === undefined ? cte.params : [...cte.params, channelId];
  return db.prepare<unknown[], TopicUnreads & { last_id: number }>(sql).all(...params).map(({ last_id: _l, ...t }) => t);
}

/** `unreadDms` by scanning every unread message. */
export function unreadDmsScan(db: LocalDb, ex: UnreadExclusions): Array<UnreadGroup & { dm_key: string }> {
  const cte = unreadCte(ex);
  return db.prepare<unknown[], UnreadGroup & { dm_key: string }>(`WITH ${cte.sql} SELECT dm_key, ${GROUP_SUMS} FROM unread WHERE dm_key IS NOT NULL GROUP BY dm_key`).all(...cte.params);
}

/**
 * Starred messages: the cached ones by their bit, the others as the server listed them, with the
 * pending star / unstar of messages not cached (`pending`: id → starred after the user's last action).
 */
export function starredCount(db: LocalDb, pending: ReadonlyMap<number, boolean>): number {
  const cached = cachedStatement<[], number>(db, `SELECT count(*) FROM messages WHERE (flags & ${FLAG.starred}) != 0 AND id < ${LOCAL_ECHO_MIN_ID}`).pluck().get() ?? 0;
  const uncached = new Set(
    cachedStatement<[], number>(db, 'SELECT s.message_id FROM server_starred s WHERE NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = s.message_id)').pluck().all(),
  );
  const isCached = cachedStatement(db, 'SELECT 1 FROM messages WHERE id = ?').pluck();
  for (const [id, starred] of pending) {
    if (isCached.get(id) !== undefined) continue;
    if (starred) uncached.add(id);
    else uncached.delete(id);
  }
  return cached + uncached.size;
}
