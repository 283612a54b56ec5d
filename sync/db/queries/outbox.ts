/**
 * The outbox table's SQL (migrations 0002 and 0005): its rows as stored, the temporary ids of
 * objects created offline, and the reads the session and the views make of live rows. What a row
 * means (states, kinds, coalescing, history) is sync/outbox's: sync/outbox/store.ts is the table's
 * only writer and goes through these functions. Kind names are bound as parameters: this layer
 * does not know the kinds.
 */
import type { LocalDb } from '../open.js';
import { LOCAL_ECHO_MIN_ID } from './messages.js';
import { cachedStatement } from './statements.js';

/** One outbox row as stored (JSON columns still text). */
export interface OutboxDbRow {
  id: number;
  kind: string;
  kind_version: number;
  entity_key: string;
  args: string;
  base: string;
  state: string;
  attempts: number;
  next_attempt_at: number | null;
  deadline_at: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  history: string;
}

const LIVE = "state NOT IN ('done', 'discarded')";

/**
 * Runnable heads in the pusher's order, reading only heads (migration 0005): SQLite triggers keep
 * `is_head` on each entity's oldest live row, and the partial indexes hold only heads, so the
 * cost does not grow with the rows queued behind a head (5 or 5,000 sends queued behind a waiting
 * one cost the same; bench/outbox-heads.bench.ts). Queued heads are walked in that order along
 * `outbox_queued_heads` and the walk stops at the limit; waiting heads are read only once due,
 * from `outbox_waiting_heads`; SQLite merges the two. INDEXED BY because the planner, left alone,
 * may prefer `outbox_by_state` plus a sort, and because a lost index should fail loudly rather
 * than slowly (test/sync/outbox/heads-plan.test.ts checks the plan). A compound ORDER BY may only
 * name result columns, hence `no_deadline`. Parameters: now, limit (-1: all).
 */
export const RUNNABLE_HEADS_SQL = `
  SELECT o.*, o.deadline_at IS NULL AS no_deadline FROM outbox o INDEXED BY outbox_queued_heads
   WHERE o.state = 'queued' AND o.is_head = 1
  UNION ALL
  SELECT o.*, o.deadline_at IS NULL AS no_deadline FROM outbox o INDEXED BY outbox_waiting_heads
   WHERE o.state IN ('retry_wait', 'unknown') AND o.is_head = 1 AND coalesce(o.next_attempt_at, 0) <= ?
  ORDER BY no_deadline, deadline_at, id
  LIMIT ?`;

/** The id of an entity's head (one probe of outbox_live_by_entity). Parameter: entity key. */
export const ENTITY_HEAD_SQL = "SELECT MIN(id) FROM outbox WHERE entity_key = ? AND state NOT IN ('done', 'discarded')";

/** The earliest due time among waiting heads: the first entry of `outbox_waiting_heads`. */
export const NEXT_WAKE_SQL = `
  SELECT coalesce(o.next_attempt_at, 0) FROM outbox o INDEXED BY outbox_waiting_heads
   WHERE o.state IN ('retry_wait', 'unknown') AND o.is_head = 1
   ORDER BY coalesce(o.next_attempt_at, 0)
   LIMIT 1`;

// --- temporary ids -------------------------------------------------------------------------------

/** A fresh number N for a `tmp-N` id. */
export function insertTempId(db: LocalDb): number | bigint {
  return cachedStatement<[]>(db, 'INSERT INTO outbox_temp_ids DEFAULT VALUES').run().lastInsertRowid;
}

/** The server id `tmp-N` got (text), once its create landed; anything else for none. */
export function tempIdServerId(db: LocalDb, n: number): unknown {
  return cachedStatement<[number], unknown>(db, 'SELECT server_id FROM outbox_temp_ids WHERE n = ?').pluck().get(n);
}

export function setTempIdServerId(db: LocalDb, n: number, serverId: string): void {
  cachedStatement<[string, number]>(db, 'UPDATE outbox_temp_ids SET server_id = ? WHERE n = ?').run(serverId, n);
}

// --- rows ----------------------------------------------------------------------------------------

export interface NewOutboxRow {
  readonly kind: string;
  readonly kindVersion: number;
  readonly entityKey: string;
  /** JSON. */
  readonly args: string;
  /** JSON. */
  readonly base: string;
  readonly deadlineAt: number | null;
  readonly now: number;
  /** JSON. */
  readonly history: string;
  /** 1 when no live row of the entity exists (migration 0005's insert trigger only checks it). */
  readonly isHead: 0 | 1;
}

/** Insert a queued row; returns its id. */
export function insertOutboxRow(db: LocalDb, r: NewOutboxRow): number | bigint {
  return cachedStatement<[string, number, string, string, string, number | null, number, number, string, number]>(
    db,
    `INSERT INTO outbox (kind, kind_version, entity_key, args, base, state, deadline_at, created_at, updated_at, history, is_head)
       VALUES (?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?)`,
  ).run(r.kind, r.kindVersion, r.entityKey, r.args, r.base, r.deadlineAt, r.now, r.now, r.history, r.isHead).lastInsertRowid;
}

export function outboxRowById(db: LocalDb, id: number): OutboxDbRow | undefined {
  return cachedStatement<[number], OutboxDbRow>(db, 'SELECT * FROM outbox WHERE id = ?').get(id);
}

export function allOutboxRows(db: LocalDb): OutboxDbRow[] {
  return cachedStatement<[], OutboxDbRow>(db, 'SELECT * FROM outbox ORDER BY id').all();
}

/** Rows not yet done or discarded for one entity, oldest first. */
export function liveOutboxRowsOf(db: LocalDb, entityKey: string): OutboxDbRow[] {
  return cachedStatement<[string], OutboxDbRow>(db, "SELECT * FROM outbox WHERE entity_key = ? AND state NOT IN ('done', 'discarded') ORDER BY id").all(entityKey);
}

/** The newest live row of an entity. */
export function lastLiveOutboxRowOf(db: LocalDb, entityKey: string): OutboxDbRow | undefined {
  return cachedStatement<[string], OutboxDbRow>(db, "SELECT * FROM outbox WHERE entity_key = ? AND state NOT IN ('done', 'discarded') ORDER BY id DESC LIMIT 1").get(entityKey);
}

/** RUNNABLE_HEADS_SQL: `limit` -1 for all. */
export function runnableHeadRows(db: LocalDb, now: number, limit: number): OutboxDbRow[] {
  return cachedStatement<[number, number], OutboxDbRow>(db, RUNNABLE_HEADS_SQL).all(now, limit);
}

/** ENTITY_HEAD_SQL: the head's id (a number), or null when the entity has no live row. */
export function entityHeadId(db: LocalDb, entityKey: string): unknown {
  return cachedStatement<[string], unknown>(db, ENTITY_HEAD_SQL).pluck().get(entityKey);
}

/** NEXT_WAKE_SQL: a number, or undefined when no head waits on time. */
export function nextWakeTime(db: LocalDb): unknown {
  return cachedStatement<[], unknown>(db, NEXT_WAKE_SQL).pluck().get();
}

/** Rows a crash left mid-request. */
export function inFlightOutboxRows(db: LocalDb): OutboxDbRow[] {
  return cachedStatement<[], OutboxDbRow>(db, "SELECT * FROM outbox WHERE state IN ('sending', 'verifying')").all();
}

/** Write a row's changing columns (a transition). */
export function updateOutboxRow(db: LocalDb, r: OutboxDbRow): void {
  cachedStatement<[string, number, number | null, string | null, string, string, number, string, number]>(
    db,
    `UPDATE outbox SET state = ?, attempts = ?, next_attempt_at = ?, last_error = ?, args = ?, base = ?, updated_at = ?, history = ? WHERE id = ?`,
  ).run(r.state, r.attempts, r.next_attempt_at, r.last_error, r.args, r.base, r.updated_at, r.history, r.id);
}

/** Point a row at another entity key and args (a created id landed). */
export function repointOutboxRow(db: LocalDb, id: number, entityKey: string, args: string): void {
  cachedStatement<[string, string, number]>(db, 'UPDATE outbox SET entity_key = ?, args = ? WHERE id = ?').run(entityKey, args, id);
}

/** Delete done and discarded rows last updated before `before`; returns how many went. */
export function pruneOutboxRows(db: LocalDb, before: number): number {
  return cachedStatement<[number]>(db, "DELETE FROM outbox WHERE state IN ('done', 'discarded') AND updated_at < ?").run(before).changes;
}

/**
 * Waiting rows due later than `now` become due now, except rows waiting out a rate limit, which
 * wait until `rateLimitedUntil` at most (whichever is sooner).
 */
export function hurryWaitingRows(db: LocalDb, now: number, rateLimitedUntil: number): void {
  db.prepare<[number, number, number]>(
    `UPDATE outbox SET next_attempt_at = CASE
         WHEN coalesce(json_extract(last_error, '$.kind'), '') = 'rate_limited' THEN min(next_attempt_at, ?)
         ELSE ? END
       WHERE state IN ('retry_wait', 'unknown') AND next_attempt_at > ?`,
  ).run(rateLimitedUntil, now, now);
}

/** The id the next inserted row gets (AUTOINCREMENT: the stored sequence + 1). */
export function nextOutboxRowId(db: LocalDb): number {
  const seq = db.prepare<[], unknown>("SELECT seq FROM sqlite_sequence WHERE name = 'outbox'").pluck().get();
  return (typeof seq === 'number' ? seq : 0) + 1;
}

/** Live rows counted by state. */
export function liveOutboxCounts(db: LocalDb): Array<{ state: string; n: number }> {
  return db.prepare<[], { state: string; n: number }>("SELECT state, count(*) AS n FROM outbox WHERE state NOT IN ('done', 'discarded') GROUP BY state").all();
}

// --- live rows, for re-applying local effects ----------------------------------------------------

/** A live row's kind and JSON args / base. */
export interface LiveOutboxRow {
  id: number;
  kind: string;
  args: string;
  base: string;
}

/**
 * Live rows on the touched messages (JSON array of ids) or of the given kinds (JSON array of
 * names), oldest first. Two index probes, not one OR: SQLite answers the OR by reading every
 * outbox row, so each event batch cost grew with all pending rows (bench/engine-store.bench.ts,
 * "batch end step"; test/sync/engine/reapply-plan.test.ts checks the plan).
 */
export const REAPPLY_TOUCHED_SQL = `
  SELECT id, kind, args, base FROM outbox INDEXED BY outbox_live_by_entity
   WHERE ${LIVE} AND entity_key IN (SELECT 'message:' || value FROM json_each(?))
  UNION
  SELECT id, kind, args, base FROM outbox INDEXED BY outbox_live_by_kind
   WHERE ${LIVE} AND kind IN (SELECT value FROM json_each(?))
  ORDER BY id`;

/** REAPPLY_TOUCHED_SQL over these message ids and kind names. */
export function liveRowsTouching(db: LocalDb, messageIds: readonly number[], kinds: readonly string[]): LiveOutboxRow[] {
  return cachedStatement<[string, string], LiveOutboxRow>(db, REAPPLY_TOUCHED_SQL).all(JSON.stringify(messageIds), JSON.stringify(kinds));
}

/** Every live row, oldest first. */
export function allLiveRows(db: LocalDb): LiveOutboxRow[] {
  return cachedStatement<[], LiveOutboxRow>(db, `SELECT id, kind, args, base FROM outbox WHERE ${LIVE} ORDER BY id`).all();
}

/** Live rows of these kinds (kind and JSON args), oldest first. */
export function liveRowsOfKinds(db: LocalDb, kinds: readonly string[]): Array<{ kind: string; args: string }> {
  const marks = kinds.map(() => '?').join(', ');
  return cachedStatement<string[], { kind: string; args: string }>(db, `SELECT kind, args FROM outbox WHERE ${LIVE} AND kind IN (${marks}) ORDER BY id`).all(...kinds);
}

/** The JSON args of the newest live row of this kind on the entity. */
export function newestLiveArgs(db: LocalDb, entityKey: string, kind: string): string | undefined {
  return cachedStatement<[string, string], string>(db, `SELECT args FROM outbox WHERE entity_key = ? AND kind = ? AND ${LIVE} ORDER BY id DESC LIMIT 1`)
    .pluck()
    .get(entityKey, kind);
}

/** Done rows of this kind on the entity: id and JSON history. */
export function doneRowsOf(db: LocalDb, kind: string, entityKey: string): Array<{ id: number; history: string }> {
  return cachedStatement<[string, string], { id: number; history: string }>(db, "SELECT id, history FROM outbox WHERE kind = ? AND entity_key = ? AND state = 'done'").all(
    kind,
    entityKey,
  );
}

/**
 * The send rows that went over (done, discarded or deleted) while their local echo was cached, so
 * retiring echoes after an event batch reads only those, not every echo: with 1,000 messages
 * waiting to be sent, joining every echo to its row made each batch end step about 4x the step
 * with none pending (bench/engine-store.bench.ts, "batch end step"). Triggers keep the table,
 * whatever writes the tables on this connection (the app's only writer): a send row going done or
 * discarded, or deleted, while its echo is cached; an echo stored while its row is over or gone.
 * TEMP: made per connection on first use from the echoes cached then (one pass), so it needs no
 * migration; entries whose echo is no longer cached, or whose row is live again, are dropped by
 * the reader (`forgetEchoOver`).
 */
const OVER = "IN ('done', 'discarded')";
const echoCached = (rowId: string) => `EXISTS (SELECT 1 FROM messages WHERE id = ${LOCAL_ECHO_MIN_ID} + ${rowId})`;
const ECHOES_OVER = `
  CREATE TEMP TABLE outbox_echoes_over (row_id INTEGER PRIMARY KEY);
  CREATE TEMP TRIGGER outbox_echo_over_on_state AFTER UPDATE OF state ON outbox
    WHEN NEW.state ${OVER} AND ${echoCached('NEW.id')}
    BEGIN INSERT OR IGNORE INTO outbox_echoes_over (row_id) VALUES (NEW.id); END;
  CREATE TEMP TRIGGER outbox_echo_over_on_delete AFTER DELETE ON outbox
    WHEN ${echoCached('OLD.id')}
    BEGIN INSERT OR IGNORE INTO outbox_echoes_over (row_id) VALUES (OLD.id); END;
  CREATE TEMP TRIGGER outbox_echo_over_on_store AFTER INSERT ON messages
    WHEN NEW.id > ${LOCAL_ECHO_MIN_ID} AND NOT EXISTS (SELECT 1 FROM outbox WHERE id = NEW.id - ${LOCAL_ECHO_MIN_ID} AND state NOT ${OVER})
    BEGIN INSERT OR IGNORE INTO outbox_echoes_over (row_id) VALUES (NEW.id - ${LOCAL_ECHO_MIN_ID}); END;
  INSERT INTO outbox_echoes_over (row_id)
    SELECT m.id - ${LOCAL_ECHO_MIN_ID} FROM messages m LEFT JOIN outbox o ON o.id = m.id - ${LOCAL_ECHO_MIN_ID}
     WHERE m.id > ${LOCAL_ECHO_MIN_ID} AND (o.id IS NULL OR o.state ${OVER});`;

/**
 * Local echoes whose send row is over: done (with its history, to tell where it landed),
 * discarded, or gone (pruned), from `outbox_echoes_over`: one read of an empty table when nothing
 * went over, however many sends wait. An entry may be stale (its echo no longer cached, or its
 * row live again): `cached` and `state` say so.
 */
export function echoesOfOverRows(db: LocalDb): Array<{ echo_id: number; state: string | null; history: string | null; cached: number }> {
  // Looked up each time rather than remembered: a transaction rolled back undoes its creation.
  if (cachedStatement<[], number>(db, "SELECT 1 FROM sqlite_temp_master WHERE name = 'outbox_echoes_over'").pluck().get() === undefined) db.exec(ECHOES_OVER);
  return cachedStatement<[], { echo_id: number; state: string | null; history: string | null; cached: number }>(
    db,
    `SELECT e.row_id + ${LOCAL_ECHO_MIN_ID} AS echo_id, o.state AS state, o.history AS history,
            EXISTS (SELECT 1 FROM messages m WHERE m.id = e.row_id + ${LOCAL_ECHO_MIN_ID}) AS cached
       FROM outbox_echoes_over e LEFT JOIN outbox o ON o.id = e.row_id ORDER BY e.row_id`,
  ).all();
}

/** The echo of this send row is retired (or was never there): `echoesOfOverRows` no longer names it. */
export function forgetEchoOver(db: LocalDb, echoId: number): void {
  cachedStatement<[number]>(db, 'DELETE FROM outbox_echoes_over WHERE row_id = ?').run(echoId - LOCAL_ECHO_MIN_ID);
}
