/** Full-jitter backoff bounds (0.5 s doubling to 60 s) and Retry-After. */
import { describe, expect, it } from 'vitest';
import { RateLimitedError, ServerError } from '../../../sync/api/errors.js';
import { backoffBound, fullJitter, retryDelay } from '../../../sync/outbox/backoff.js';
const ctx = { method: 'POST', path: '/test' };

describe('outbox backoff', () => {
  it('bounds double from 0.5 s and stop at 60 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => backoffBound(n))).toEqual([500, 1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000]);
    expect(backoffBound(10_000)).toBe(60_000);
    expect(backoffBound(0)).toBe(500);
  });

  it('draws uniformly in [0, bound) with the injected random', () => {
    expect(fullJitter(3, () => 0)).toBe(0);
    expect(fullJitter(3, () => 0.5)).toBe(1000);
    expect(fullJitter(3, () => 0.999999)).toBeLessThan(2000);
    expect(fullJitter(50, () => 0.999999)).toBeLessThan(60_000);
  });

  it("honours Retry-After (fractional seconds) instead of the draw, and backs off on other transients", () => {
    expect(retryDelay(new RateLimitedError(ctx, 429, 1500.5, undefined, undefined), 1, () => 0)).toBe(1501);
    expect(retryDelay(new RateLimitedError(ctx, 429, undefined, undefined, undefined), 2, () => 0.5)).toBe(500);
    expect(retryDelay(new ServerError(ctx, 503, undefined, undefined, ''), 4, () => 0.25)).toBe(1000);
  });

  it('caps any Retry-After at 60 s (a day, 10^8 s, Infinity) and survives NaN and odd draws', () => {
    const limited = (ms: number) => new RateLimitedError(ctx, 429, ms, undefined, undefined);
    expect(retryDelay(limited(86_400_000), 1, () => 0)).toBe(60_000);
    expect(retryDelay(limited(1e8 * 1000), 1, () => 0)).toBe(60_000);
    expect(retryDelay(limited(Number.POSITIVE_INFINITY), 1, () => 0)).toBe(60_000);
    expect(retryDelay(limited(-5), 1, () => 0)).toBe(0);
    expect(retryDelay(limited(Number.NaN), 2, () => 0.5)).toBe(500);
    for (const r of [Number.NaN, -1, 1, 2, Number.POSITIVE_INFINITY]) {
      const d = fullJitter(3, () => r);
      expect(Number.isFinite(d) && d >= 0 && d < 2000, String(r)).toBe(true);
    }
    expect(fullJitter(Number.NaN, () => 0.5)).toBe(250);
  });
});
