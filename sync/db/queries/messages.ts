/**
 * The message cache: batch ingest (idempotent, reports added vs really changed), deletes, and
 * reads that hand back message objects as the server would (flags restored from the bitmask).
 */
import type { Message } from '../../api/index.js';
import type { ChangeCollector } from '../changes.js';
import { bitsToFlags, flagsToBits, HAS_ROW, rowBitOf } from '../flags.js';
import type { LocalDb } from '../open.js';
import { htmlToText, messageRow, type MessageRow } from './message-columns.js';
import { cachedStatement, insertRows } from './statements.js';
import { groupOf, rebuildSummaryGroups, withSummariesPaused } from './summaries.js';

/**
 * What the source of fetched messages says about the user's per-user rows (see `rowBitOf`):
 * `personal` (a `message` event, or a narrow that searched personal history only): every one has
 * a row; `knownRows`: what is known per id (a flag event named it; the server was asked);
 * otherwise derived.
 */
export interface RowSource {
  readonly personal?: boolean;
  readonly knownRows?: ReadonlyMap<number, boolean>;
}

export interface UpsertResult {
  readonly added: number[];
  readonly updated: number[];
}

/** A `messages` row's columns, in the order every statement here writes them. */
const ROW_COLUMNS = ['id', 'type', 'channel_id', 'topic', 'topic_key', 'dm_key', 'sender_id', 'flags', 'has_link', 'has_image', 'has_attachment', 'has_reaction', 'json'] as const;
const COLUMNS = `(${ROW_COLUMNS.join(', ')}) VALUES (${ROW_COLUMNS.map((c) => `@${c}`).join(', ')})`;
const UPDATE_ALL = ROW_COLUMNS.filter((c) => c !== 'id')
  .map((c) => `${c} = excluded.${c}`)
  .join(', ');

/**
 * Write one row and its search entry (no change detection; callers decide). `isNew` (the caller
 * knows the id is not stored) takes plain INSERTs: an FTS "OR REPLACE" first probes for a row to
 * delete, which costs more than the insert itself.
 */
export function writeMessageRow(db: LocalDb, row: MessageRow, content: string, isNew = false): void {
  if (isNew) {
    cachedStatement(db, `INSERT INTO messages ${COLUMNS}`).run(row);
    cachedStatement(db, 'INSERT INTO messages_fts (rowid, topic, body) VALUES (?, ?, ?)').run(row.id, row.topic, htmlToText(content));
    return;
  }
  // An upsert, not OR REPLACE: the summaries' triggers (migration 0009) see a replaced row as an update.
  cachedStatement(db, `INSERT INTO messages ${COLUMNS} ON CONFLICT(id) DO UPDATE SET ${UPDATE_ALL}`).run(row);
  cachedStatement(db, 'INSERT OR REPLACE INTO messages_fts (rowid, topic, body) VALUES (?, ?, ?)').run(row.id, row.topic, htmlToText(content));
}

/** From this many new rows in one batch, the summaries are rebuilt per group instead of kept per row (summaries.ts). */
const BULK_NEW_ROWS = 16;

/**
 * Store fetched (or event-delivered) messages. Existing rows are rewritten only when the object or
 * its flags differ, so re-fetching an unchanged page wakes no view. Runs in its own transaction
 * (nested in the caller's when there is one).
 */
export function upsertMessages(db: LocalDb, messages: readonly Message[], changes: ChangeCollector, source: RowSource = {}): UpsertResult {
  const added: number[] = [];
  const updated: number[] = [];
  if (messages.length === 0) return { added, updated };
  db.transaction(() => {
    // One lookup for the whole batch instead of one per message.
    const existing = new Map<number, { flags: number; json: string }>();
    const rows = cachedStatement<[string], { id: number; flags: number; json: string }>(db, 'SELECT id, flags, json FROM messages WHERE id IN (SELECT value FROM json_each(?))').all(
      JSON.stringify(messages.map((m) => m.id)),
    );
    for (const r of rows) existing.set(r.id, r);
    // Rows not stored yet, written together at the end (the last copy of an id given twice).
    const fresh = new Map<number, { row: MessageRow; content: string }>();
    for (const m of messages) {
      const before = existing.get(m.id);
      const bits = flagsToBits(m.flags);
      const known = source.personal === true ? true : source.knownRows?.get(m.id);
      const row = messageRow(m, bits | rowBitOf(bits, known, before?.flags));
      if (before && before.flags === row.flags && before.json === row.json) continue;
      existing.set(m.id, row);
      if (before && !fresh.has(m.id)) {
        writeMessageRow(db, row, m.content);
        updated.push(m.id);
        changes.messageUpdated(m.id);
      } else {
        if (!fresh.has(m.id)) {
          added.push(m.id);
          changes.messageAdded(m.id);
        }
        fresh.set(m.id, { row, content: m.content });
      }
      if (!before || (before.flags & 1) !== (row.flags & 1)) changes.touched('unread');
    }
    insertNewRows(db, [...fresh.values()]);
  })();
  return { added, updated };
}

/**
 * Write rows whose ids are not stored. A batch writes with the summaries paused and rebuilds the
 * groups it touched: each row's own, and the group of the server's unread row for its id (that row
 * stops counting once its message is cached).
 */
function insertNewRows(db: LocalDb, fresh: readonly { row: MessageRow; content: string }[]): void {
  if (fresh.length < BULK_NEW_ROWS) {
    for (const f of fresh) writeMessageRow(db, f.row, f.content, true);
    return;
  }
  const write = () => {
    insertRows(db, 'INSERT', 'messages', ROW_COLUMNS, fresh.map((f) => ROW_COLUMNS.map((c) => f.row[c])));
    insertRows(db, 'INSERT', 'messages_fts', ['rowid', 'topic', 'body'], fresh.map((f) => [f.row.id, f.row.topic, htmlToText(f.content)]));
  };
  const own = fresh.flatMap((f) => groupOf(f.row) ?? []);
  const server = cachedStatement<[string], { channel_id: number | null; topic_key: string | null; dm_key: string | null }>(
    db,
    'SELECT DISTINCT channel_id, topic_key, dm_key FROM server_unreads WHERE message_id IN (SELECT value FROM json_each(?))',
  )
    .all(JSON.stringify(fresh.map((f) => f.row.id)))
    .flatMap((r) => groupOf(r) ?? []);
  withSummariesPaused(db, write, () => rebuildSummaryGroups(db, [...own, ...server], own));
}

/**
 * Forget messages (deleted, or no longer accessible), with their entries in the server's unread and
 * starred sets (unreads.ts; the server drops those too). Returns the ids that were cached.
 */
export function deleteMessages(db: LocalDb, ids: readonly number[], changes: ChangeCollector): number[] {
  const removed: number[] = [];
  if (ids.length > 0) {
    const list = JSON.stringify(ids);
    const unread = cachedStatement(db, 'DELETE FROM server_unreads WHERE message_id IN (SELECT value FROM json_each(?))').run(list).changes;
    const starred = cachedStatement(db, 'DELETE FROM server_starred WHERE message_id IN (SELECT value FROM json_each(?))').run(list).changes;
    if (unread + starred > 0) changes.touched('unread');
    // The raw text kept for offline edits goes with its message.
    cachedStatement(db, 'DELETE FROM message_raw WHERE message_id IN (SELECT value FROM json_each(?))').run(list);
  }
  const del = cachedStatement<[number], { flags: number }>(db, 'DELETE FROM messages WHERE id = ? RETURNING flags');
  const delFts = cachedStatement(db, 'DELETE FROM messages_fts WHERE rowid = ?');
  for (const id of ids) {
    const row = del.get(id);
    if (!row) continue;
    delFts.run(id);
    removed.push(id);
    changes.messageRemoved(id);
    if ((row.flags & 1) === 0) changes.touched('unread');
  }
  return removed;
}

/**
 * Parsed message objects, per database by message id, each with the stored JSON text it was parsed
 * from: a hit needs the same text (a changed row has different text), so the cache needs no
 * invalidation, and it is keyed by the id rather than the text, since hashing a fresh
 * 500-character string from SQLite costs most of what parsing it does
 * (bench/engine-narrow.bench.ts). Parsing dominated local page reads (0.15 of 0.25 ms for 50
 * messages). One cache per database: the engine holds several organisations in one process, and
 * their ids overlap. Entries are deep-frozen, so a caller that mutated one would throw instead of
 * corrupting later reads; bounded, oldest entries evicted first.
 */
const PARSED_CACHE_LIMIT = 5_000;
type ParsedCache = Map<number, { readonly json: string; readonly message: Readonly<Omit<Message, 'flags'>> }>;
const parsedByDb = new WeakMap<LocalDb, ParsedCache>();
function parsedCacheOf(db: LocalDb): ParsedCache {
  let cache = parsedByDb.get(db);
  if (cache === undefined) parsedByDb.set(db, (cache = new Map()));
  return cache;
}

/** `v` and everything in it, frozen. */
export function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    for (const child of Object.values(v)) deepFreeze(child);
    Object.freeze(v);
  }
  return v;
}

/** A stored row's message object without its flags (shared and frozen: copy before changing it). */
export function storedMessageOf(db: LocalDb, id: number, json: string): Readonly<Omit<Message, 'flags'>> {
  const parsed = parsedCacheOf(db);
  const hit = parsed.get(id);
  if (hit !== undefined && hit.json === json) return hit.message;
  // Our own serialisation of an object zod already checked on the way in.
  const message = deepFreeze(JSON.parse(json) as Omit<Message, 'flags'>);
  if (hit === undefined && parsed.size >= PARSED_CACHE_LIMIT) parsed.delete(parsed.keys().next().value as number);
  parsed.set(id, { json, message });
  return message;
}

/**
 * A stored row as the message object `GET /messages` returns (flags from the bitmask). With the
 * row's database and id, the parsed object comes from the cache above; without, the text is
 * parsed afresh.
 */
export function rowToMessage(json: string, flags: number, cached?: { readonly db: LocalDb; readonly id: number }): Message {
  const stored = cached === undefined ? (JSON.parse(json) as Omit<Message, 'flags'>) : storedMessageOf(cached.db, cached.id, json);
  return { ...stored, flags: bitsToFlags(flags) };
}

/** Cached messages by id, ascending; ids not cached are left out. */
export function getStoredMessages(db: LocalDb, ids: readonly number[]): Message[] {
  if (ids.length === 0) return [];
  const rows = cachedStatement<[string], { id: number; json: string; flags: number }>(
    db,
    'SELECT id, json, flags FROM messages WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id',
  ).all(JSON.stringify(ids));
  return rows.map((r) => rowToMessage(r.json, r.flags, { db, id: r.id }));
}

export function isMessageCached(db: LocalDb, id: number): boolean {
  return cachedStatement<[number], number>(db, 'SELECT 1 FROM messages WHERE id = ?').pluck().get(id) !== undefined;
}

/** One cached message, or undefined. */
export function getStoredMessage(db: LocalDb, id: number): Message | undefined {
  const r = cachedStatement<[number], { json: string; flags: number }>(db, 'SELECT json, flags FROM messages WHERE id = ?').get(id);
  return r && rowToMessage(r.json, r.flags, { db, id });
}

/**
 * Read-modify-write of one cached message for the event handlers: `edit` returns the new object
 * (or undefined to leave it). Columns and the search entry follow. False when not cached.
 */
export function updateStoredMessage(
  db: LocalDb,
  id: number,
  edit: (m: Message) => Message | undefined,
  changes: ChangeCollector,
): boolean {
  const r = cachedStatement<[number], { json: string; flags: number }>(db, 'SELECT json, flags FROM messages WHERE id = ?').get(id);
  if (!r) return false;
  const next = edit(rowToMessage(r.json, r.flags, { db, id }));
  if (!next) return true;
  // The local-only row bit is not in the message's flags: it stays as stored.
  const row = messageRow(next, flagsToBits(next.flags) | (r.flags & HAS_ROW));
  writeMessageRow(db, row, next.content);
  changes.messageUpdated(id);
  return true;
}

/**
 * Ids from here up are local echoes of messages being sent (the outbox's `send_message`, stored as
 * LOCAL_ECHO_MIN_ID + its outbox row id): they sort after every server message, where a message
 * being sent belongs. Server ids stay far below 2^52; nothing about an echo is ever sent to the
 * server, so the readers of "the newest server message" skip them.
 */
export const LOCAL_ECHO_MIN_ID = 2 ** 52;

/** Newest cached server message id (0 when empty): the backfill anchor after a queue loss. */
export function newestStoredMessageId(db: LocalDb): number {
  return cachedStatement<[number], number | null>(db, 'SELECT max(id) FROM messages WHERE id < ?').pluck().get(LOCAL_ECHO_MIN_ID) ?? 0;
}

/** Count of cached messages (for status and tests). */
export function storedMessageCount(db: LocalDb): number {
  // count(*) always answers one row.
  return cachedStatement<[], number>(db, 'SELECT count(*) FROM messages').pluck().get() ?? 0;
}
