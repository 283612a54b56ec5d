/**
 * Completeness: per canonical narrow key, the id ranges [lo, hi] (inclusive) for which every
 * message of the narrow is in the local store. `lo = 0` means "from the narrow's oldest message",
 * `hi = NEWEST` means "through the newest message, kept so by the live event stream".
 *
 * Ranges come from `GET /messages` answers (`recordFetch`): the span the server walked, widened to
 * the ends it reported (`found_oldest` / `found_newest`). Ranges that overlap or touch merge.
 *
 * The event stream contract (called by the account session):
 *
 *   markStreamGap(db, {throughId?})    the stream broke (BAD_EVENT_QUEUE_ID, or a start without a
 *                                      live queue): events may have been missed after `throughId`
 *                                      (default: the newest cached message). Every open-ended range
 *                                      is clipped to `throughId`, and until resumed, answers that
 *                                      reach the newest record only up to what they returned.
 *   markStreamResumed(db)              a new queue is registered AND the gap has been backfilled
 *                                      (messages after `throughId` fetched, cached ones refreshed):
 *                                      answers reaching the newest are open-ended again.
 *
 * Clipped ranges are not re-opened by resuming: the next read of those narrows fetches only the
 * part after the clip, which the fetcher does cheaply.
 */
import type { LocalDb } from '../../db/open.js';
import { newestStoredMessageId } from '../../db/queries/messages.js';
import { clipOpenRanges, rangeRows, rangesReaching, rangeStartingAtOrBelow, replaceRanges, type IdRange } from '../../db/queries/narrow-ranges.js';
import { getEngineSetting, setEngineSetting } from '../../db/queries/state.js';

export type { IdRange };

export const OLDEST = 0;
export const NEWEST = Number.MAX_SAFE_INTEGER;
const GAP_SETTING = 'narrow.stream_gap';

export function rangesOf(db: LocalDb, key: string): IdRange[] {
  return rangeRows(db, key);
}

/** Add [lo, hi] to the key's ranges, merging every range it overlaps or touches. */
export function addRange(db: LocalDb, key: string, lo: number, hi: number): void {
  if (lo > hi) return;
  db.transaction(() => {
    const touching = rangesReaching(db, key, hi === NEWEST ? NEWEST : hi + 1, lo === OLDEST ? OLDEST : lo - 1);
    let newLo = lo;
    let newHi = hi;
    for (const r of touching) {
      newLo = Math.min(newLo, r.lo);
      newHi = Math.max(newHi, r.hi);
    }
    replaceRanges(db, key, newLo, newHi);
  })();
}

/** The range containing `id`, if the narrow is known complete there. */
export function rangeAt(db: LocalDb, key: string, id: number): IdRange | undefined {
  return rangeStartingAtOrBelow(db, key, id);
}

/** True when one range covers all of [lo, hi]. */
export function isCovered(db: LocalDb, key: string, lo: number, hi: number): boolean {
  if (lo > hi) return true;
  const r = rangeAt(db, key, lo);
  return r !== undefined && r.hi >= hi;
}

/**
 * `isCovered` for the probes of one page, each starting at or below `at`: the range starting at or
 * below `at`, read once, answers every probe starting within it, and every probe when there is
 * none (no range starts at or below `at`); a probe starting before it reads its own range.
 */
export function coverageAt(db: LocalDb, key: string, at: number): (lo: number, hi: number) => boolean {
  const r = rangeAt(db, key, at);
  return (lo, hi) => {
    if (lo > hi) return true;
    if (lo > at) return isCovered(db, key, lo, hi);
    if (r === undefined) return false;
    return r.lo <= lo ? r.hi >= hi : isCovered(db, key, lo, hi);
  };
}

/** What one `GET /messages` answer proves about a narrow. */
export interface FetchAnswer {
  /** The anchor position searched from: an id, or OLDEST / NEWEST for those anchors. */
  readonly anchor: number;
  readonly includeAnchor: boolean;
  readonly numBefore: number;
  readonly numAfter: number;
  readonly foundOldest: boolean;
  readonly foundNewest: boolean;
  /** Ids returned (any order). */
  readonly ids: readonly number[];
}

/** The span an answer covers, or undefined when it covers nothing. */
export function answerSpan(db: LocalDb, a: FetchAnswer): IdRange | undefined {
  let minId = Infinity;
  let maxId = -Infinity;
  for (const id of a.ids) {
    minId = Math.min(minId, id);
    maxId = Math.max(maxId, id);
  }
  const start = a.includeAnchor ? a.anchor : a.anchor + 1;
  const end = a.includeAnchor ? a.anchor : a.anchor - 1;
  let lo: number;
  if (a.foundOldest || a.anchor === OLDEST) lo = OLDEST;
  else if (minId < a.anchor) lo = minId;
  else if (a.numBefore === 0) lo = Math.min(start, minId);
  else return undefined; // the server said there is more before, yet sent nothing: trust nothing
  let hi: number;
  if (a.foundNewest || a.anchor === NEWEST) hi = streamGap(db) === undefined ? NEWEST : Math.max(maxId, newestCachedId(db));
  else if (maxId > a.anchor) hi = maxId;
  else if (a.numAfter === 0) hi = Math.max(end, maxId);
  else return undefined;
  return lo <= hi ? { lo, hi } : undefined;
}

/** Record what a `GET /messages` answer proves (call after its messages are stored). */
export function recordFetch(db: LocalDb, key: string, a: FetchAnswer): IdRange | undefined {
  const span = answerSpan(db, a);
  if (span) addRange(db, key, span.lo, span.hi);
  return span;
}

function newestCachedId(db: LocalDb): number {
  // Local echoes (ids from LOCAL_ECHO_MIN_ID up) are not server messages: they prove nothing.
  return newestStoredMessageId(db);
}

/** The stream gap in effect, if any: messages after `throughId` may have been missed. */
export function streamGap(db: LocalDb): { throughId: number } | undefined {
  const v = getEngineSetting(db, GAP_SETTING);
  if (v === undefined) return undefined;
  return typeof v === 'object' && v !== null && 'throughId' in v && typeof v.throughId === 'number' ? { throughId: v.throughId } : { throughId: 0 };
}

/** See the module comment. Idempotent: a second gap keeps the earlier (lower) `throughId`. */
export function markStreamGap(db: LocalDb, opts: { throughId?: number } = {}): void {
  db.transaction(() => {
    const throughId = Math.min(opts.throughId ?? newestCachedId(db), streamGap(db)?.throughId ?? NEWEST);
    setEngineSetting(db, GAP_SETTING, { throughId });
    // A range wholly after the gap point (lo > throughId) is dropped; one spanning it is clipped.
    clipOpenRanges(db, NEWEST, throughId);
  })();
}

/** See the module comment. */
export function markStreamResumed(db: LocalDb): void {
  setEngineSetting(db, GAP_SETTING, undefined);
}
