/** The windowed list's arithmetic: offsets, the rows in a window, and keeping the reader's row in place. */
import { describe, expect, it } from 'vitest';
import { anchorAt, keepAnchor, rowAt, rowOffsets, rowWindow, windowTop } from '../../../renderer/src/kit/windowing.js';

const uniform = (n: number, h = 50) => rowOffsets(n, () => h);

describe('offsets and positions', () => {
  it('adds heights up (negative ones count as zero)', () => {
    expect([...rowOffsets(3, (i) => [10, 20, -5][i] ?? 0)]).toEqual([0, 10, 30, 30]);
    expect([...rowOffsets(0, () => 10)]).toEqual([0]);
  });

  it('finds the row at a position, clamped to the rows there are', () => {
    const o = uniform(4);
    expect(rowAt(o, 0)).toBe(0);
    expect(rowAt(o, 49.9)).toBe(0);
    expect(rowAt(o, 50)).toBe(1);
    expect(rowAt(o, 199)).toBe(3);
    expect(rowAt(o, 10_000)).toBe(3);
    expect(rowAt(o, -10)).toBe(0);
    expect(rowAt(uniform(0), 10)).toBe(0);
  });
});

describe('the window', () => {
  it('holds the rows in view plus the overscan, with pads standing in for the rest', () => {
    const o = uniform(100);
    expect(rowWindow(o, 1000, 400, 100)).toEqual({ start: 18, end: 30, padTop: 900, padBottom: 3500 });
    expect(rowWindow(o, 0, 400, 100)).toEqual({ start: 0, end: 10, padTop: 0, padBottom: 4500 });
    expect(rowWindow(o, 4600, 400, 100)).toEqual({ start: 90, end: 100, padTop: 4500, padBottom: 0 });
    expect(rowWindow(uniform(0), 0, 400, 100)).toEqual({ start: 0, end: 0, padTop: 0, padBottom: 0 });
  });

  it('stays bounded by the viewport, whatever the number of rows', () => {
    for (const n of [10, 1_000, 100_000]) {
      const w = rowWindow(uniform(n, 40), n * 20, 800, 400);
      expect(w.end - w.start).toBeLessThanOrEqual(Math.ceil((800 + 2 * 400) / 40) + 1);
      expect(w.padTop + w.padBottom + (w.end - w.start) * 40).toBe(n * 40);
    }
  });

  it('renders every row of a short list', () => {
    expect(rowWindow(rowOffsets(3, (i) => [30, 500, 20][i] ?? 0), 0, 600, 50)).toMatchObject({ start: 0, end: 3 });
    // A tall row reaching into the window counts; the one after it, out of reach, does not.
    expect(rowWindow(rowOffsets(3, (i) => [30, 500, 20][i] ?? 0), 0, 300, 50)).toMatchObject({ start: 0, end: 2, padBottom: 20 });
  });
});

describe('keeping the reader in place', () => {
  it('keeps the row in view where it was when rows arrive above it', () => {
    const keys = [10, 11, 12, 13, 14];
    const before = uniform(5);
    const anchor = anchorAt(before, keys, 120);
    expect(anchor).toEqual({ key: 12, delta: -20 });
    // Three older rows land above (estimated at 60 each).
    const keys2 = [7, 8, 9, ...keys];
    const after = rowOffsets(8, (i) => (i < 3 ? 60 : 50));
    expect(keepAnchor(after, keys2, anchor!)).toBe(300);
  });

  it('follows a measured height above the anchor', () => {
    const keys = ['a', 'b', 'c'];
    const anchor = anchorAt(uniform(3), keys, 100)!;
    expect(anchor).toEqual({ key: 'c', delta: 0 });
    expect(keepAnchor(rowOffsets(3, (i) => (i === 0 ? 180 : 50)), keys, anchor)).toBe(230);
  });

  it('skips a row that ends exactly at the top, and gives up on a row that left', () => {
    expect(anchorAt(uniform(3), [1, 2, 3], 50)).toEqual({ key: 2, delta: 0 });
    expect(keepAnchor(uniform(2), [1, 3], { key: 2, delta: 0 })).toBeNull();
    expect(anchorAt(uniform(0), [], 0)).toBeNull();
  });
});

describe('where the window is taken from', () => {
  const o = uniform(100);
  const keys = Array.from({ length: 100 }, (_, i) => 1000 + i);

  it('following the bottom: the last rows, whatever the scroll position (a new view not scrolled yet)', () => {
    expect(windowTop(o, keys, 'bottom', 0, 400)).toBe(4600);
    expect(rowWindow(o, windowTop(o, keys, 'bottom', 0, 400), 400, 0)).toEqual({ start: 92, end: 100, padTop: 4600, padBottom: 0 });
    // Fewer rows than the viewport holds: from the top.
    expect(windowTop(uniform(3), keys, 'bottom', 0, 400)).toBe(0);
  });

  it("after a jump: around the anchor's row while it is in the list, else the scroll position", () => {
    expect(windowTop(o, keys, { key: 1050, delta: 175 }, 0, 400)).toBe(2325);
    expect(rowWindow(o, windowTop(o, keys, { key: 1050, delta: 175 }, 0, 400), 400, 0)).toEqual({ start: 46, end: 55, padTop: 2300, padBottom: 2250 });
    expect(windowTop(o, keys, { key: 7, delta: 175 }, 120, 400)).toBe(120);
  });

  it('otherwise: the scroll position', () => {
    expect(windowTop(o, keys, null, 1234, 400)).toBe(1234);
  });
});
