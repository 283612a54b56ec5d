/** `realSleep` is safe for any value: NaN / negative wait 0, waits beyond a timer's range really wait, Infinity until aborted. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_MS, realSleep, SleepAborted } from '../../../sync/base/seams.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function track(p: Promise<void>): { settled: () => 'pending' | 'resolved' | 'aborted' } {
  let state: 'pending' | 'resolved' | 'aborted' = 'pending';
  p.then(
    () => (state = 'resolved'),
    (e: unknown) => {
      if (e instanceof SleepAborted) state = 'aborted';
    },
  );
  return { settled: () => state };
}

describe('realSleep', () => {
  it('NaN, negative and -Infinity wait nothing (not a spin: one zero timer each)', async () => {
    for (const ms of [Number.NaN, -1, -1e12, Number.NEGATIVE_INFINITY, 0]) {
      const t = track(realSleep(ms));
      await vi.advanceTimersByTimeAsync(0);
      expect(t.settled(), String(ms)).toBe('resolved');
    }
  });

  it('beyond 2^31 - 1 ms it really waits (setTimeout alone would fire at once)', async () => {
    for (const ms of [MAX_TIMER_MS + 1, 1e8 * 1000]) {
      const t = track(realSleep(ms));
      await vi.advanceTimersByTimeAsync(1_000);
      expect(t.settled()).toBe('pending');
      await vi.advanceTimersByTimeAsync(MAX_TIMER_MS);
      expect(t.settled()).toBe(ms === MAX_TIMER_MS + 1 ? 'resolved' : 'pending');
      if (ms !== MAX_TIMER_MS + 1) {
        await vi.advanceTimersByTimeAsync(ms);
        expect(t.settled()).toBe('resolved');
      }
    }
  });

  it('Infinity waits until aborted, and an abort ends any wait at once', async () => {
    const ctl = new AbortController();
    const t = track(realSleep(Number.POSITIVE_INFINITY, ctl.signal));
    await vi.advanceTimersByTimeAsync(3 * MAX_TIMER_MS);
    expect(t.settled()).toBe('pending');
    ctl.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(t.settled()).toBe('aborted');
    expect(vi.getTimerCount()).toBe(0);
  });
});
