/**
 * The rows a narrow shows, read through the narrow compiler's SQL (db/narrow/compile.ts): pages
 * either side of an id, id ranges, membership re-checks, the first unread, and stale copies.
 * sync/engine/narrow/ turns them into pages and live views.
 */
import { FLAG, HAS_ROW } from '../flags.js';
import type { CompiledLocalNarrow, NarrowShape } from '../narrow/compile.js';
import type { LocalDb } from '../open.js';
import { LOCAL_ECHO_MIN_ID } from './messages.js';
import { cachedStatement } from './statements.js';

/** What the readers select for each message: `channel_name` from the channels table, not the
 * message's `display_recipient`, so a renamed channel shows its current name; `local`, the outbox
 * row shown on the message (JSON `[id, state, last_error]`), or null. */
export interface ViewRow {
  readonly id: number;
  readonly flags: number;
  readonly json: string;
  readonly channel_name: string | null;
  readonly local: string | null;
}

const MARKER = 'json_array(o.id, o.state, json(o.last_error))';
/**
 * The columns read per message: the channel's name and a local echo's marker are looked up once
 * per page in `finish` below, not per row in SQL (two correlated subqueries per row cost as much
 * as the page's own SQL; bench/engine-narrow.bench.ts).
 */
const BASE_COLUMNS = 'm.id, m.flags, m.json, m.channel_id';
/** A local echo shows its `send_message` row (by id: the echo's id is LOCAL_ECHO_MIN_ID + the row id). */
const ECHO_MARKER_SQL = `SELECT ${MARKER} FROM outbox o WHERE o.id = ?`;
/** A live row on `message:<id>`: a conflict first, then a failure, then the newest. */
const ROW_MARKER = `(SELECT ${MARKER} FROM outbox o WHERE o.entity_key = 'message:' || m.id AND o.state NOT IN ('done', 'discarded')
  ORDER BY o.state = 'conflict' DESC, o.state = 'failed' DESC, o.id DESC LIMIT 1)`;

/**
 * A failed reaction or flag change (star, read) is shown on the message it was for, though its row
 * is keyed elsewhere (`reaction:<id>:…`, `flags:<flag>` over many messages). Failed rows are few.
 */
const FAILED_ELSEWHERE = `(SELECT ${MARKER} FROM outbox o WHERE o.state = 'failed' AND o.kind IN ('add_or_remove_reaction', 'update_message_flags')
  AND (o.entity_key LIKE 'reaction:' || m.id || ':%' OR (o.kind = 'update_message_flags' AND EXISTS (SELECT 1 FROM json_each(o.args, '$.messages') j WHERE j.value = m.id)))
  ORDER BY o.id DESC LIMIT 1)`;

/** The columns when the narrow names the rows' channel (or none, a DM narrow): one value less per row. */
const KNOWN_CHANNEL_COLUMNS = 'm.id, m.flags, m.json';
const LIVE_ROW_COLUMN = `coalesce(${ROW_MARKER}, ${FAILED_ELSEWHERE}) AS local`;

/**
 * The channel every row of a read is in, when the narrow says: its id, or null (a DM narrow);
 * undefined when rows vary (the statement selects `m.channel_id`).
 */
type KnownChannel = number | null | undefined;

/**
 * What the readers select. `local` is the outbox row shown on the message; probing the outbox's
 * live-rows index for every message costs about 0.02 ms per 50-message page, so it is only in the
 * statement while some row is live (one EXISTS on that partial index per read); otherwise an
 * echo's marker comes from `finish`. No `NULL AS` columns: each value of a row costs better-sqlite3
 * about as much as a row's SQL. Inline constants only: the readers bind the narrow's parameters
 * positionally.
 */
function viewColumns(db: LocalDb, channel: KnownChannel): string {
  const base = channel === undefined ? BASE_COLUMNS : KNOWN_CHANNEL_COLUMNS;
  const live = cachedStatement<[], number>(db, "SELECT EXISTS (SELECT 1 FROM outbox WHERE state NOT IN ('done', 'discarded'))").pluck().get() === 1;
  return live ? `${base}, ${LIVE_ROW_COLUMN}` : base;
}

/**
 * A row as the readers' SQL answers it, in raw mode (an array: better-sqlite3 builds an object per
 * row property by property, which cost as much as the page's SQL): id, flags, JSON, then the
 * channel by id unless the narrow names it (`KnownChannel`), then the marker of a live row on the
 * message (a column only while some row is live).
 */
type SelectedRow = [id: number, flags: number, json: string, channelOrLocal?: number | string | null, local?: string | null];

/** The readers' statement for `sql`, answering rows as arrays. */
const selecting = (db: LocalDb, sql: string) => cachedStatement<unknown[], SelectedRow>(db, sql).raw(true);

/**
 * Selected rows as view rows: each channel's current name read once per page, and a local echo
 * without a live row on it shows its own send row (what the SQL's marker did before: live row,
 * else failure elsewhere, else the echo's row).
 */
function finish(db: LocalDb, rows: readonly SelectedRow[], channel: KnownChannel): ViewRow[] {
  const names = new Map<number | null, string | null>([[null, null]]);
  const known = channel !== undefined;
  return rows.map(([id, flags, json, channelOrLocal, local]) => {
    // The columns after the JSON: the channel (unless known), then the live row's marker.
    const channelId = known ? channel : typeof channelOrLocal === 'number' ? channelOrLocal : null;
    const marker = known ? channelOrLocal : local;
    let name = names.get(channelId);
    if (name === undefined && channelId !== null) {
      name = cachedStatement<[number], string>(db, 'SELECT name FROM channels WHERE id = ?').pluck().get(channelId) ?? null;
      names.set(channelId, name);
    }
    return {
      id,
      flags,
      json,
      channel_name: name ?? null,
      local: typeof marker === 'string' ? marker : id > LOCAL_ECHO_MIN_ID ? (cachedStatement<[number], string>(db, ECHO_MARKER_SQL).pluck().get(id - LOCAL_ECHO_MIN_ID) ?? null) : null,
    };
  });
}

/** Which ids a read covers: below an id (newest first), above one, or a closed range (both ascending). */
export type IdSpan = { readonly below: number } | { readonly above: number } | { readonly from: number; readonly to: number };

function spanSql(span: IdSpan): { range: string; desc: boolean; bounds: number[] } {
  if ('below' in span) return { range: 'm.id < ?', desc: true, bounds: [span.below] };
  if ('above' in span) return { range: 'm.id > ?', desc: false, bounds: [span.above] };
  return { range: 'm.id BETWEEN ? AND ?', desc: false, bounds: [span.from, span.to] };
}

/**
 * Rows of the narrow in the span, in the span's order, at most `limit` (-1: all). A search narrow
 * walks the search index in id order and joins each match to its message (CROSS JOIN keeps that
 * order), so a page of a common word stops after the page's matches instead of collecting every
 * match first (bench/engine-narrow.bench.ts: within 3x of the FTS5 query alone).
 */
export function narrowRowsIn(db: LocalDb, n: CompiledLocalNarrow, span: IdSpan, limit: number): ViewRow[] {
  if (n.search) {
    const { range, desc, bounds } = spanSql(span);
    const dir = desc ? 'DESC' : '';
    const sql = `SELECT ${viewColumns(db, undefined)} FROM messages_fts f CROSS JOIN messages m ON m.id = f.rowid
      WHERE f.messages_fts MATCH ? AND ${range.replaceAll('m.id', 'f.rowid')} AND (${n.search.where}) ORDER BY f.rowid ${dir} LIMIT ?`;
    return finish(db, selecting(db, sql).all(n.search.match, ...bounds, ...n.search.params, limit), undefined);
  }
  return plainRowsIn(db, n, span, limit);
}

/**
 * As `narrowRowsIn`, over `messages` alone whatever the narrow (the live view widening its window
 * reads so).
 */
export function narrowMessageRowsIn(db: LocalDb, n: CompiledLocalNarrow, span: IdSpan, limit: number): ViewRow[] {
  return plainRowsIn(db, n, span, limit);
}

function plainRowsIn(db: LocalDb, n: CompiledLocalNarrow, span: IdSpan, limit: number): ViewRow[] {
  const { sql, params, channel } = plainRowsSql(db, n, span);
  return finish(db, selecting(db, sql).all(...params, limit), channel);
}

/**
 * A common narrow's own filter (`NarrowShape`): the compiler's conditions for it, the indexed
 * column first, selecting no channel column when the narrow names the channel. EXPLAIN QUERY PLAN:
 * messages_by_channel, messages_by_topic_key, messages_by_dm, messages_starred, each walked in id
 * order from the span's end.
 */
function shapeFilter(shape: NarrowShape): { where: string; params: Array<string | number>; channel: KnownChannel } {
  switch (shape.kind) {
    case 'channel':
      return { where: "m.channel_id = ? AND m.type = 'stream'", params: [shape.channelId], channel: shape.channelId };
    case 'topic':
      return { where: "m.channel_id = ? AND m.topic_key = ? AND m.type = 'stream'", params: [shape.channelId, shape.topicKey], channel: shape.channelId };
    case 'dm':
      return { where: `m.dm_key = ? AND m.type = 'private' AND (m.flags & ${HAS_ROW}) != 0`, params: [shape.dmKey], channel: null };
    case 'starred':
      return { where: `(m.flags & ${FLAG.starred}) != 0 AND (m.flags & ${HAS_ROW}) != 0`, params: [], channel: undefined };
  }
}

/**
 * The statement of a plain (not search) read in `span`, with its parameters but the limit (bound
 * last). `LIMIT ?+0`, not `LIMIT ?`: SQLite's planner reads a bare LIMIT parameter's value, so
 * each run with it bound cost about as much as preparing the statement again (a 51-row DM page:
 * 80 against 59 µs).
 */
export function plainRowsSql(db: LocalDb, n: CompiledLocalNarrow, span: IdSpan): { sql: string; params: Array<string | number>; channel: KnownChannel } {
  const { where, params, channel } = n.shape ? shapeFilter(n.shape) : { where: `(${n.where})`, params: n.params, channel: undefined };
  const { range, desc, bounds } = spanSql(span);
  const sql = `SELECT ${viewColumns(db, channel)} FROM messages m WHERE ${where} AND ${range} ORDER BY m.id ${desc ? 'DESC' : ''} LIMIT ?+0`;
  return { sql, params: [...params, ...bounds], channel };
}

/** Of these ids, the rows that are in the narrow, by id. */
export function narrowRowsById(db: LocalDb, n: CompiledLocalNarrow, ids: readonly number[]): ViewRow[] {
  const sql = `SELECT ${viewColumns(db, undefined)} FROM messages m WHERE m.id IN (SELECT value FROM json_each(?)) AND (${n.where}) ORDER BY m.id`;
  return finish(db, selecting(db, sql).all(JSON.stringify(ids), ...n.params), undefined);
}

/** The oldest cached unread message of the narrow. */
export function firstUnreadId(db: LocalDb, n: CompiledLocalNarrow): number | undefined {
  return cachedStatement<unknown[], number>(db, `SELECT m.id FROM messages m WHERE (${n.where}) AND (m.flags & 1) = 0 ORDER BY m.id LIMIT 1`)
    .pluck()
    .get(...n.params);
}

/**
 * Cached messages of the narrow in [lo, hi] without a per-user row, in channels the user is not
 * subscribed to, that are not among `answered` (copies the server's answer left out).
 */
export function staleCopyIds(db: LocalDb, n: CompiledLocalNarrow, lo: number, hi: number, answered: readonly number[]): number[] {
  return db
    .prepare<unknown[], number>(
      `SELECT m.id FROM messages m WHERE (${n.where}) AND m.id BETWEEN ? AND ? AND (m.flags & ${HAS_ROW}) = 0
         AND m.channel_id NOT IN (SELECT channel_id FROM subscriptions) AND m.id NOT IN (SELECT value FROM json_each(?))`,
    )
    .pluck()
    .all(...n.params, lo, hi, JSON.stringify(answered));
}
