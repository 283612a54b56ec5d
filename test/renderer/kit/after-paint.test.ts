import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterPaint } from '../../../renderer/src/kit/after-paint.js';

describe('afterPaint', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('runs at once without a DOM (no requestAnimationFrame)', () => {
    const fn = vi.fn();
    afterPaint(fn, 100);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('runs once, after the next frame, as a background task where the page has a scheduler', async () => {
    vi.useFakeTimers();
    const frames: (() => void)[] = [];
    const posted: { fn: () => void; priority: string }[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: () => void) => frames.push(cb));
    vi.stubGlobal('scheduler', {
      postTask: (fn: () => void, opts: { priority: string }) => {
        posted.push({ fn, priority: opts.priority });
        return Promise.resolve();
      },
    });
    const fn = vi.fn();
    afterPaint(fn, 100);
    expect(fn).not.toHaveBeenCalled();
    frames.shift()?.();
    expect(posted.map((p) => p.priority)).toEqual(['background']);
    expect(fn).not.toHaveBeenCalled();
    posted[0]?.fn();
    expect(fn).toHaveBeenCalledTimes(1);
    // The latest-by timer does not run it again.
    await vi.advanceTimersByTimeAsync(200);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('runs after latestMs when no frame comes (a hidden window), and not again when one does', async () => {
    vi.useFakeTimers();
    const frames: (() => void)[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: () => void) => frames.push(cb));
    const fn = vi.fn();
    afterPaint(fn, 100);
    await vi.advanceTimersByTimeAsync(99);
    expect(fn).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fn).toHaveBeenCalledTimes(1);
    // No scheduler: a timer after the frame; the work has been done already.
    frames.shift()?.();
    await vi.advanceTimersByTimeAsync(10);
    expect(fn).toHaveBeenCalledTimes(1);
  });
});
