/**
 * The narrow_ranges table: per canonical narrow key, id ranges [lo, hi] known complete in the
 * local store. What they mean and when they change is sync/engine/narrow/ranges.ts's.
 */
import type { LocalDb } from '../open.js';
import { cachedStatement } from './statements.js';

export interface IdRange {
  readonly lo: number;
  readonly hi: number;
}

/** The key's ranges, by lo. */
export function rangeRows(db: LocalDb, key: string): IdRange[] {
  return db.prepare<[string], IdRange>('SELECT lo, hi FROM narrow_ranges WHERE narrow_key = ? ORDER BY lo').all(key);
}

/** The key's ranges with lo <= `loAtMost` and hi >= `hiAtLeast` (those a new range overlaps or touches). */
export function rangesReaching(db: LocalDb, key: string, loAtMost: number, hiAtLeast: number): IdRange[] {
  return db.prepare<[string, number, number], IdRange>('SELECT lo, hi FROM narrow_ranges WHERE narrow_key = ? AND lo <= ? AND hi >= ?').all(key, loAtMost, hiAtLeast);
}

/** Replace the key's ranges starting within [lo, hi] by [lo, hi]. */
export function replaceRanges(db: LocalDb, key: string, lo: number, hi: number): void {
  db.prepare<[string, number, number]>('DELETE FROM narrow_ranges WHERE narrow_key = ? AND lo >= ? AND lo <= ?').run(key, lo, hi);
  db.prepare<[string, number, number]>('INSERT INTO narrow_ranges (narrow_key, lo, hi) VALUES (?, ?, ?)').run(key, lo, hi);
}

/** The key's last range starting at or below `id`. */
export function rangeStartingAtOrBelow(db: LocalDb, key: string, id: number): IdRange | undefined {
  return cachedStatement<[string, number], IdRange>(db, 'SELECT lo, hi FROM narrow_ranges WHERE narrow_key = ? AND lo <= ? ORDER BY lo DESC LIMIT 1').get(key, id);
}

/** Every range ending at `openEnd` is cut at `throughId` (dropped when it starts after it). */
export function clipOpenRanges(db: LocalDb, openEnd: number, throughId: number): void {
  db.prepare<[number, number]>('DELETE FROM narrow_ranges WHERE hi = ? AND lo > ?').run(openEnd, throughId);
  db.prepare<[number, number]>('UPDATE narrow_ranges SET hi = ? WHERE hi = ?').run(throughId, openEnd);
}

export function deleteRangesOf(db: LocalDb, key: string): void {
  db.prepare<[string]>('DELETE FROM narrow_ranges WHERE narrow_key = ?').run(key);
}

export function deleteAllRanges(db: LocalDb): void {
  db.prepare<[]>('DELETE FROM narrow_ranges').run();
}
