/**
 * The stores' shared skeleton (`startAreaQuery`) over a fake bridge and fake timers: the first
 * fetch, refetches on the named areas (and always on `accounts`), on other events by predicate and
 * when the host is back; unrelated areas ignored; bursts folded by the debounce and by one fetch
 * in flight; failures reported; nothing heard or applied after dispose.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APPLY_SHARE, MAX_WAIT_MS, startAreaQuery, touchesAreas, type AreaQuerySpec } from '../../../renderer/src/core/area-query.js';
import { handClock } from '../hand-clock.js';
import type { EngineEvent } from '../../../sync/protocol/index.js';

function fakeBridge() {
  const events = new Set<(e: EngineEvent) => void>();
  const conns = new Set<(s: 'up' | 'down') => void>();
  return {
    subscribe(l: (e: EngineEvent) => void) {
      events.add(l);
      return () => events.delete(l);
    },
    onConnection(l: (s: 'up' | 'down') => void) {
      conns.add(l);
      return () => conns.delete(l);
    },
    emit: (e: EngineEvent) => [...events].forEach((l) => l(e)),
    conn: (s: 'up' | 'down') => [...conns].forEach((l) => l(s)),
    listeners: () => events.size + conns.size,
  };
}

const areas = (...a: string[]): EngineEvent => ({ type: 'areas', areas: a });
const flush = () => new Promise((r) => setTimeout(r, 0));

/** A fetch answering 1, 2, 3, ... (or failing when told), recording what reached onData / onError. */
function counter(over: Partial<AreaQuerySpec<number>> = {}) {
  let n = 0;
  const seen: number[] = [];
  const errors: unknown[] = [];
  const spec: AreaQuerySpec<number> = {
    fetch: vi.fn(async () => ++n),
    areas: ['users'],
    onData: (v) => seen.push(v),
    onError: (e) => errors.push(e),
    ...over,
  };
  return { spec, seen, errors };
}

describe('startAreaQuery', () => {
  it('makes its first fetch when its start says (after a view is painted), none once disposed', async () => {
    const b = fakeBridge();
    let go: (() => void) | undefined;
    const { spec, seen } = counter({ start: (f) => void (go = f) });
    startAreaQuery(b, spec);
    await flush();
    expect(spec.fetch).not.toHaveBeenCalled();
    go?.();
    await flush();
    expect(seen).toEqual([1]);
    const late = counter({ start: (f) => void (go = f) });
    startAreaQuery(b, late.spec).dispose();
    go?.();
    await flush();
    expect(late.spec.fetch).not.toHaveBeenCalled();
  });

  it('fetches at start and again for its areas and for accounts, not for other areas', async () => {
    const b = fakeBridge();
    const { spec, seen } = counter();
    startAreaQuery(b, spec);
    await flush();
    expect(seen).toEqual([1]);
    b.emit(areas('channels'));
    b.emit({ type: 'status', status: { state: 'live' } });
    await flush();
    expect(seen).toEqual([1]);
    b.emit(areas('outbox', 'users'));
    await flush();
    b.emit(areas('accounts'));
    await flush();
    expect(seen).toEqual([1, 2, 3]);
  });

  it('refetches on events its predicate names and when the host connection is back', async () => {
    const b = fakeBridge();
    const { spec, seen } = counter({ areas: [], when: (e) => e.type === 'status' && e.status.state === 'live' });
    startAreaQuery(b, spec);
    await flush();
    b.emit({ type: 'status', status: { state: 'connecting' } });
    await flush();
    expect(seen).toEqual([1]);
    b.emit({ type: 'status', status: { state: 'live' } });
    await flush();
    b.conn('down');
    await flush();
    expect(seen).toEqual([1, 2]);
    b.conn('up');
    await flush();
    expect(seen).toEqual([1, 2, 3]);
  });

  it('folds calls made while a fetch runs into one more fetch', async () => {
    const b = fakeBridge();
    let release: (() => void) | undefined;
    let n = 0;
    const seen: number[] = [];
    const fetch = vi.fn(
      () =>
        new Promise<number>((resolve) => {
          const v = ++n;
          release = () => resolve(v);
        }),
    );
    startAreaQuery(b, { fetch, areas: ['users'], onData: (v) => seen.push(v), onError: () => undefined });
    b.emit(areas('users'));
    b.emit(areas('users'));
    b.emit(areas('users'));
    expect(fetch).toHaveBeenCalledTimes(1);
    release?.();
    await flush();
    expect(fetch).toHaveBeenCalledTimes(2);
    release?.();
    await flush();
    expect(seen).toEqual([1, 2]);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('reports a failed fetch and keeps listening', async () => {
    const b = fakeBridge();
    let fail = true;
    const { spec, seen, errors } = counter();
    const fetch = spec.fetch;
    spec.fetch = async () => {
      if (fail) throw new Error('NO_ACCOUNT');
      return fetch();
    };
    startAreaQuery(b, spec);
    await flush();
    expect(errors.map(String)).toEqual(['Error: NO_ACCOUNT']);
    expect(seen).toEqual([]);
    fail = false;
    b.emit(areas('accounts'));
    await flush();
    expect(seen).toEqual([1]);
  });

  it('stops listening on dispose and drops an answer that lands after it', async () => {
    const b = fakeBridge();
    let release: (() => void) | undefined;
    const seen: number[] = [];
    const q = startAreaQuery(b, {
      fetch: () => new Promise<number>((r) => (release = () => r(7))),
      areas: ['users'],
      onData: (v) => seen.push(v),
      onError: () => undefined,
    });
    expect(b.listeners()).toBe(2);
    q.dispose();
    expect(b.listeners()).toBe(0);
    release?.();
    await flush();
    expect(seen).toEqual([]);
  });
});

describe('startAreaQuery with a debounce', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('folds a burst of events into one fetch after the delay, and a dispose cancels a pending one', async () => {
    const b = fakeBridge();
    const { spec, seen } = counter({ debounceMs: 150 });
    const q = startAreaQuery(b, spec);
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual([1]);
    for (let i = 0; i < 10; i++) b.emit(areas('users'));
    b.conn('up');
    await vi.advanceTimersByTimeAsync(149);
    expect(seen).toEqual([1]);
    await vi.advanceTimersByTimeAsync(1);
    expect(seen).toEqual([1, 2]);
    expect(spec.fetch).toHaveBeenCalledTimes(2);

    b.emit(areas('users'));
    q.dispose();
    await vi.advanceTimersByTimeAsync(500);
    expect(spec.fetch).toHaveBeenCalledTimes(2);
  });
});

describe('startAreaQuery when applying an answer is slow', () => {
  it('waits at least APPLY_SHARE times the last apply before the next debounced fetch, never more than MAX_WAIT_MS', async () => {
    const clock = handClock();
    const b = fakeBridge();
    // Applying an answer takes 60 ms of the page's thread (a large organisation's channel list).
    let cost = 60;
    const { spec, seen } = counter({ debounceMs: 150, onData: (v) => (seen.push(v), clock.advance(cost)) });
    startAreaQuery(b, spec, clock.timers);
    await flush();
    expect(seen).toEqual([1]);
    b.emit(areas('users'));
    clock.advance(150);
    await flush();
    expect(seen).toEqual([1]);
    clock.advance(APPLY_SHARE * 60 - 150 - 1);
    await flush();
    expect(seen).toEqual([1]);
    clock.advance(1);
    await flush();
    expect(seen).toEqual([1, 2]);
    // A very slow apply waits MAX_WAIT_MS; a quick one the debounce again.
    cost = 1_000;
    b.emit(areas('users'));
    clock.advance(APPLY_SHARE * 60);
    await flush();
    expect(seen).toEqual([1, 2, 3]);
    cost = 1;
    b.emit(areas('users'));
    clock.advance(MAX_WAIT_MS - 1);
    await flush();
    expect(seen).toEqual([1, 2, 3]);
    clock.advance(1);
    await flush();
    expect(seen).toEqual([1, 2, 3, 4]);
    b.emit(areas('users'));
    clock.advance(150);
    await flush();
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('touchesAreas', () => {
  it('is true for a named area or accounts, false for other events', () => {
    expect(touchesAreas(areas('users'), ['users'])).toBe(true);
    expect(touchesAreas(areas('accounts'), [])).toBe(true);
    expect(touchesAreas(areas('channels'), ['users'])).toBe(false);
    expect(touchesAreas({ type: 'status', status: { state: 'live' } }, ['users'])).toBe(false);
  });
});
