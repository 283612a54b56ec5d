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
import { cachedStatement } from '../../db/queries/statements.js';

export const OLDEST = 0;
export const NEWEST = Number.MAX_SAFE_INTEGER;
const GAP_SETTING = 'narrow.stream_gap';

export interface IdRange {
  readonly lo: number;
  readonly hi: number;
}

export function rangesOf(db: LocalDb, key: string): IdRange[] {
  return db.prepare<[string], IdRange>('SELECT lo, hi FROM narrow_ranges WHERE narrow_key = ? ORDER BY lo').all(key);
}

/** Add [lo, hi] to the key's ranges, merging every range it overlaps or touches. */
export function addRange(db: LocalDb, key: string, lo: number, hi: number): void {
  if (lo > hi) return;
  db.transaction(() => {
    const touching = db
      .prepare<[string, number, number], IdRange>('SELECT lo, hi FROM narrow_ranges WHERE narrow_key = ? AND lo <= ? AND hi >= ?')
      .all(key, hi === NEWEST ? NEWEST : hi + 1, lo === OLDEST ? OLDEST : lo - 1);
    let newLo = lo;
    let newHi = hi;
    for (const r of touching) {
      newLo = Math.min(newLo, r.lo);
      newHi = Math.max(newHi, r.hi);
    }
    db.prepare('DELETE FROM narrow_ranges WHERE narrow_key = ? AND lo >= ? AND lo <= ?').run(key, newLo, newHi);
    db.prepare('INSERT INTO narrow_ranges (narrow_key, lo, hi) VALUES (?, ?, ?)').run(key, newLo, newHi);
  })();
}

/** The range containing `id`, if the narrow is known complete there. */
export function rangeAt(db: LocalDb, key: string, id: number): IdRange | undefined {
  return cachedStatement<[string, number], IdRange>(db, 'SELECT lo, hi FROM narrow_ranges WHERE narrow_key = ? AND lo <= ? ORDER BY lo DESC LIMIT 1').get(key, id);
}

/** True when one range covers all of [lo, hi]. */
export function isCovered(db: LocalDb, key: string, lo: number, hi: number): boolean {
  if (lo > hi) return true;
  const r = rangeAt(db, key, lo);
  return r !== undefined && r.hi >= hi;
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
  const raw = cachedStatement<[string], string>(db, 'SELECT value FROM engine_settings WHERE name = ?').pluck().get(GAP_SETTING);
  if (raw === undefined) return undefined;
  const v = JSON.parse(raw) as unknown;
  return typeof v === 'object' && v !== null && 'throughId' in v && typeof v.throughId === 'number' ? { throughId: v.throughId } : { throughId: 0 };
}

/** See the module comment. Idempotent: a second gap keeps the earlier (lower) `throughId`. */
export function markStreamGap(db: LocalDb, opts: { throughId?: number } = {}): void {
  db.transaction(() => {
    const throughId = Math.min(opts.throughId ?? newestCachedId(db), streamGap(db)?.throughId ?? NEWEST);
    db.prepare('INSERT OR REPLACE INTO engine_settings (name, value) VALUES (?, ?)').run(GAP_SETTING, JSON.stringify({ throughId }));
    // A range wholly after the gap point (lo > throughId) is dropped; one spanning it is clipped.
    db.prepare('DELETE FROM narrow_ranges WHERE hi = ? AND lo > ?').run(NEWEST, throughId);
    db.prepare('UPDATE narrow_ranges SET hi = ? WHERE hi = ?').run(throughId, NEWEST);
  })();
}

/** See the module comment. */
export function markStreamResumed(db: LocalDb): void {
  db.prepare('DELETE FROM engine_settings WHERE name = ?').run(GAP_SETTING);
}
