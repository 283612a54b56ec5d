/**
 * Pure: the arithmetic of a windowed (virtualised) list of rows of varying height. Rows not yet
 * measured count at an estimate; the window is the rows that intersect the viewport widened by an
 * overscan margin on both sides, so the DOM holds a bounded number of rows however long the list.
 * `keepAnchor` says where to scroll so the row the reader was looking at stays put when rows above
 * it change height or arrive (older messages loaded, images measured).
 */

/** offsets[i] = top of row i; offsets[n] = total height. */
export function rowOffsets(count: number, heightOf: (i: number) => number): Float64Array {
  const offsets = new Float64Array(count + 1);
  for (let i = 0; i < count; i++) offsets[i + 1] = (offsets[i] ?? 0) + Math.max(0, heightOf(i));
  return offsets;
}

/** The row at vertical position `y` (clamped to the rows there are; 0 for none). */
export function rowAt(offsets: Float64Array, y: number): number {
  const n = offsets.length - 1;
  if (n <= 0) return 0;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((offsets[mid] ?? 0) <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export interface RowWindow {
  /** First row rendered. */
  start: number;
  /** One past the last row rendered. */
  end: number;
  /** Space standing in for the rows above and below the window. */
  padTop: number;
  padBottom: number;
}

/** Rows to render for a viewport at `scrollTop` (relative to the list's top) of `height` pixels. */
export function rowWindow(offsets: Float64Array, scrollTop: number, height: number, overscan: number): RowWindow {
  const n = offsets.length - 1;
  if (n <= 0) return { start: 0, end: 0, padTop: 0, padBottom: 0 };
  const total = offsets[n] ?? 0;
  const top = Math.max(0, scrollTop - overscan);
  const bottom = Math.min(total, scrollTop + Math.max(0, height) + overscan);
  const start = rowAt(offsets, top);
  const end = Math.min(n, rowAt(offsets, Math.max(top, bottom - 0.5)) + 1);
  return { start, end, padTop: offsets[start] ?? 0, padBottom: total - (offsets[end] ?? total) };
}

/** Where the reader is: a row (by key) and how far its top sits below the viewport's top. */
export interface ScrollAnchor<K> {
  key: K;
  delta: number;
}

/** The anchor for the current position: the first row whose bottom is below the viewport's top. */
export function anchorAt<K>(offsets: Float64Array, keys: readonly K[], scrollTop: number): ScrollAnchor<K> | null {
  if (keys.length === 0) return null;
  let i = rowAt(offsets, scrollTop);
  if ((offsets[i + 1] ?? 0) <= scrollTop && i < keys.length - 1) i++;
  const key = keys[i];
  return key === undefined ? null : { key, delta: (offsets[i] ?? 0) - scrollTop };
}

/** The scrollTop (relative to the list) that puts the anchor's row back where the reader saw it; null if the row is gone. */
export function keepAnchor<K>(offsets: Float64Array, keys: readonly K[], anchor: ScrollAnchor<K>): number | null {
  const i = keys.indexOf(anchor.key);
  if (i < 0) return null;
  return Math.max(0, (offsets[i] ?? 0) - anchor.delta);
}

/**
 * Where to take the window from (relative to the list's top): following the bottom, the last
 * `height` pixels whatever the scroll position says (a new view's rows render where they will be
 * shown, before the scroll position has caught up); after a jump, around the anchor's row while it
 * is in the list; otherwise the scroll position.
 */
export function windowTop<K>(offsets: Float64Array, keys: readonly K[], pin: 'bottom' | ScrollAnchor<K> | null, scrollTop: number, height: number): number {
  if (pin === 'bottom') return Math.max(0, (offsets[offsets.length - 1] ?? 0) - height);
  if (pin !== null) return keepAnchor(offsets, keys, pin) ?? scrollTop;
  return scrollTop;
}
