/**
 * One page of a narrow from SQLite, with what is known about its completeness: for each side of
 * the anchor, whether any message of the narrow may be missing between the anchor and the last
 * message shown (`complete`), and whether the page reaches the narrow's end (`found_end`).
 *
 * Anchors: an id (messages before it, the anchor itself if it matches, messages after it);
 * `newest` (the last `before` messages); `oldest` (the first `after` messages); `first_unread`
 * (the oldest cached unread message of the narrow, else as `newest`, like the server).
 */
import type { LocalDb } from '../../db/open.js';
import { firstUnreadId, narrowRowsById, narrowRowsIn, type ViewRow } from '../../db/queries/narrow-rows.js';
import type { LocalMessage } from '../../protocol/messages.js';
import type { NarrowAnchor, SideState } from '../../protocol/views.js';
import { compileLocalNarrow, type CompiledLocalNarrow } from '../../db/narrow/compile.js';
import { rowToLocalMessage } from './local-message.js';
import { coverageAt, NEWEST, OLDEST } from './ranges.js';

export interface PageRequest {
  readonly anchor: NarrowAnchor;
  readonly before: number;
  readonly after: number;
}

export interface NarrowPage {
  readonly key: string;
  /** The anchor as an id: the given id, the first unread found, or null for newest / oldest. */
  readonly anchorId: number | null;
  /** Ascending by id. */
  readonly messages: LocalMessage[];
  readonly before: SideState;
  readonly after: SideState;
  /**
   * The page's window: every cached message of the narrow with lo <= id <= hi is in `messages`.
   * OLDEST / NEWEST when nothing more is cached on that side (so the window is open there).
   */
  readonly lo: number;
  readonly hi: number;
}

/** Where a page pivots: before-side ids are < `pivot`, after-side ids are > it. */
export interface Pivot {
  readonly kind: 'id' | 'newest' | 'oldest';
  readonly id: number;
}

export function resolvePivot(db: LocalDb, n: CompiledLocalNarrow, anchor: NarrowAnchor): Pivot {
  if (typeof anchor === 'number') return { kind: 'id', id: anchor };
  if (anchor === 'newest') return { kind: 'newest', id: NEWEST };
  if (anchor === 'oldest') return { kind: 'oldest', id: OLDEST };
  const first = firstUnreadId(db, n);
  return first === undefined ? { kind: 'newest', id: NEWEST } : { kind: 'id', id: first };
}

export function readNarrowPage(db: LocalDb, narrow: unknown, req: PageRequest, selfUserId: number): NarrowPage {
  const n = compileLocalNarrow(db, narrow, selfUserId);
  return readCompiledPage(db, n, resolvePivot(db, n, req.anchor), req.before, req.after);
}

function rowsBelow(db: LocalDb, n: CompiledLocalNarrow, below: number, limit: number): ViewRow[] {
  if (limit <= 0) return [];
  return narrowRowsIn(db, n, { below }, limit);
}

function rowsAbove(db: LocalDb, n: CompiledLocalNarrow, above: number, limit: number): ViewRow[] {
  if (limit <= 0) return [];
  return narrowRowsIn(db, n, { above }, limit);
}

/** Messages of the narrow with lo <= id <= hi (for live views re-reading their window). */
export function readRange(db: LocalDb, n: CompiledLocalNarrow, lo: number, hi: number): ViewRow[] {
  return narrowRowsIn(db, n, { from: lo, to: hi }, -1);
}

/** Of these ids, the rows that are in the narrow (membership re-check after a store change). */
export function readIds(db: LocalDb, n: CompiledLocalNarrow, ids: readonly number[]): ViewRow[] {
  if (ids.length === 0) return [];
  return narrowRowsById(db, n, ids);
}

/**
 * The page around a pivot. One extra row is read on each side to know whether more is cached
 * beyond the page: if not, the side's claim extends to the narrow's end (and is checked against
 * the completeness ranges like any other).
 */
export function readCompiledPage(db: LocalDb, n: CompiledLocalNarrow, p: Pivot, before: number, after: number): NarrowPage {
  const below = p.kind === 'oldest' ? [] : rowsBelow(db, n, p.kind === 'newest' ? NEWEST + 1 : p.id, before + 1);
  const moreBelow = below.length > before;
  const shownBelow = below.slice(0, before).reverse();
  const centre = p.kind === 'id' ? readIds(db, n, [p.id]) : [];
  const above = p.kind === 'newest' ? [] : rowsAbove(db, n, p.id, after + 1);
  const moreAbove = above.length > after;
  const shownAbove = above.slice(0, after);

  // Window ends: every cached message of the narrow in [lo, hi] is on the page.
  const top = p.kind === 'newest' ? NEWEST : p.id - 1;
  const lo = moreBelow ? (shownBelow[0]?.id ?? p.id) : OLDEST;
  const hi = moreAbove ? (shownAbove.at(-1)?.id ?? p.id) : NEWEST;
  // A full side needs no message missing between its last message and the anchor; a short side
  // claims there is nothing more at all, so it needs the range to reach the narrow's end.
  const beforeFrom = shownBelow.length === before ? (shownBelow[0]?.id ?? p.id) : OLDEST;
  const afterTo = shownAbove.length === after ? (shownAbove.at(-1)?.id ?? p.id) : NEWEST;
  // Every probe starts at or below the pivot: one range read answers most (a newest page: all).
  const covered = coverageAt(db, n.key, p.id);
  const beforeComplete = p.kind === 'oldest' || covered(beforeFrom, top);
  const afterComplete = p.kind === 'newest' || covered(p.id, afterTo);
  const beforeEnd = p.kind === 'oldest' ? covered(OLDEST, OLDEST) : !moreBelow && covered(OLDEST, top);
  const afterEnd = p.kind === 'newest' ? covered(NEWEST, NEWEST) : !moreAbove && covered(p.id, NEWEST);
  const beforeState: SideState = { complete: beforeComplete, found_end: beforeEnd };
  const afterState: SideState = { complete: afterComplete, found_end: afterEnd };
  const rows = [...shownBelow, ...centre, ...shownAbove];
  return {
    key: n.key,
    anchorId: p.kind === 'id' ? p.id : null,
    messages: rows.map((r) => rowToLocalMessage(db, r)),
    before: beforeState,
    after: afterState,
    lo: p.kind === 'oldest' ? OLDEST : lo,
    hi: p.kind === 'newest' ? NEWEST : hi,
  };
}
