/**
 * Message ranges around an anchor within a narrow (GET /messages, POST /messages/flags/narrow):
 * Zulip's fetch_messages and post_process_limited_query, in SQL over the compiled narrow.
 */
import { badRequest } from '../http/errors.js';
import type { ServerState } from '../state.js';
import { FLAG } from './flags.js';
import type { MessageRow } from './messages.js';
import { compileNarrow, type CompiledNarrow, type NarrowTerm } from './narrow.js';
import type { UserRow } from './users.js';

/** Zulip's LARGER_THAN_MAX_MESSAGE_ID: the numeric value of `anchor=newest`. */
export const LARGER_THAN_MAX_MESSAGE_ID = 10000000000000000;
export const MAX_MESSAGES_PER_FETCH = 5000;

export type Anchor = number | 'newest' | 'oldest' | 'first_unread';

export function parseAnchor(raw: string): Anchor {
  const v = raw.trim();
  if (v === 'newest' || v === 'oldest' || v === 'first_unread') return v;
  if (/^-?\d+$/.test(v)) {
    const n = Number(v);
    if (n < 0) throw badRequest('Invalid anchor');
    return Math.min(n, LARGER_THAN_MAX_MESSAGE_ID);
  }
  throw badRequest('Invalid anchor');
}

export interface FetchRange {
  readonly anchor: Anchor;
  readonly includeAnchor: boolean;
  readonly numBefore: number;
  readonly numAfter: number;
}

export interface FetchResult {
  readonly anchor: number;
  /** Matching message ids in ascending order. */
  readonly ids: number[];
  /** The matching messages, in the same order. */
  readonly rows: MessageRow[];
  readonly foundAnchor: boolean;
  readonly foundOldest: boolean;
  readonly foundNewest: boolean;
  readonly narrow: CompiledNarrow;
}

function firstUnreadId(srv: ServerState, n: CompiledNarrow): number | undefined {
  const q = `SELECT ${n.idCol} FROM ${n.from} WHERE ${n.where} AND um.message_id IS NOT NULL AND (um.flags & ${FLAG.read}) = 0 ORDER BY ${n.idCol} ASC LIMIT 1`;
  return srv.db.prepare(q).pluck().get(...n.params) as number | undefined;
}

export function fetchRange(srv: ServerState, viewer: UserRow, terms: readonly NarrowTerm[], range: FetchRange): FetchResult {
  const n = compileNarrow(srv, viewer, terms);
  let anchor: number;
  if (range.anchor === 'newest') anchor = LARGER_THAN_MAX_MESSAGE_ID;
  else if (range.anchor === 'oldest') anchor = 0;
  else if (range.anchor === 'first_unread') anchor = firstUnreadId(srv, n) ?? LARGER_THAN_MAX_MESSAGE_ID;
  else anchor = range.anchor;
  const anchoredLeft = anchor === 0;
  const anchoredRight = anchor >= LARGER_THAN_MAX_MESSAGE_ID;

  // The rows come straight from the range queries (one pass over the index).
  const base = `SELECT m.* FROM ${n.from} WHERE ${n.where}`;
  const before = range.numBefore > 0 && !anchoredLeft
    ? (srv.db.prepare(`${base} AND ${n.idCol} < ? ORDER BY ${n.idCol} DESC LIMIT ?`).all(...n.params, anchor, range.numBefore) as MessageRow[]).reverse()
    : [];
  const anchorRow = range.includeAnchor && !anchoredLeft && !anchoredRight
    ? (srv.db.prepare(`${base} AND ${n.idCol} = ?`).get(...n.params, anchor) as MessageRow | undefined)
    : undefined;
  const after = range.numAfter > 0 && !anchoredRight
    ? (srv.db.prepare(`${base} AND ${n.idCol} > ? ORDER BY ${n.idCol} ASC LIMIT ?`).all(...n.params, anchor, range.numAfter) as MessageRow[])
    : [];
  const rows = [...before, ...(anchorRow !== undefined ? [anchorRow] : []), ...after];
  return {
    anchor,
    ids: rows.map((r) => r.id),
    rows,
    foundAnchor: anchorRow !== undefined,
    foundOldest: anchoredLeft || before.length < range.numBefore,
    foundNewest: anchoredRight || after.length < range.numAfter,
    narrow: n,
  };
}

/** GET /messages with `message_ids`: those that exist, the viewer may read, and match the narrow. */
export function fetchByIds(srv: ServerState, viewer: UserRow, terms: readonly NarrowTerm[], ids: readonly number[]): { ids: number[]; narrow: CompiledNarrow } {
  const n = compileNarrow(srv, viewer, terms, { accessMode: true });
  if (ids.length === 0) return { ids: [], narrow: n };
  const list = [...new Set(ids)].join(',');
  const found = srv.db.prepare(`SELECT m.id FROM ${n.from} WHERE ${n.where} AND m.id IN (${list}) ORDER BY m.id`).pluck().all(...n.params) as number[];
  return { ids: found, narrow: n };
}
