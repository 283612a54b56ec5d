/**
 * The renderer's view cache (data/view-cache.ts) and its use by the narrow store: entries keyed by
 * the exact narrow, bounded, trimmed to a first screen, stale on `messages`, dropped on `accounts`
 * (answers asked before refused); a view opened from the cache shows its entry at once and the
 * engine's snapshot replaces it; a prefetch fills the cache without opening a view.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRoot } from 'solid-js';
import { createNarrowStore, type NarrowStore } from '../../../renderer/src/data/narrow-store.js';
import { opened, opening, type ViewState } from '../../../renderer/src/data/narrow-reducer.js';
import { cacheKey, createViewCache } from '../../../renderer/src/data/view-cache.js';
import type { NarrowTarget } from '../../../renderer/src/data/target.js';
import type { EngineEvent, NarrowSnapshot } from '../../../sync/protocol/index.js';
import { message, snapshot } from '../fixtures.js';

const general: NarrowTarget = { kind: 'channel', channelId: 1, channelName: 'general' };
const greetings: NarrowTarget = { kind: 'topic', channelId: 1, channelName: 'general', topic: 'greetings' };
const other: NarrowTarget = { kind: 'channel', channelId: 2, channelName: 'other' };
const ids = (s: { messages: readonly { id: number }[] } | null | undefined) => s?.messages.map((m) => m.id) ?? [];
const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
const openView = (target: NarrowTarget, messageIds: number[], over: Partial<NarrowSnapshot> = {}): ViewState => opened(opening(target), 'v', snapshot(messageIds, over));

describe('createViewCache', () => {
  it('keys entries by the exact narrow and anchor, and caches no searches', () => {
    const c = createViewCache();
    c.put(openView(general, [1, 2]), c.version());
    expect(ids(c.get(general))).toEqual([1, 2]);
    expect(c.get(greetings)).toBeUndefined();
    expect(c.get({ ...general, near: 2 })).toBeUndefined();
    expect(c.get({ ...general, channelName: 'renamed' })?.messages.length).toBe(2);
    expect(cacheKey({ kind: 'search', query: 'x' })).toBeNull();
    c.put(openView({ kind: 'search', query: 'x' }, [3]), c.version());
    expect(c.size).toBe(1);
  });

  it('keeps the newest page of a long view, and only open views', () => {
    const c = createViewCache();
    c.put(openView(general, range(1, 300), { before: { complete: true, found_end: true } }), c.version());
    const e = c.get(general);
    expect(ids(e)).toEqual(range(251, 50));
    expect(e?.before.found_end).toBe(false);
    c.put(opening(other), c.version());
    expect(c.get(other)).toBeUndefined();
  });

  it('holds at most its limit, dropping the least recently used', () => {
    const c = createViewCache(2);
    c.put(openView(general, [1]), c.version());
    c.put(openView(greetings, [2]), c.version());
    c.get(general);
    c.put(openView(other, [3]), c.version());
    expect(c.size).toBe(2);
    expect(c.get(greetings)).toBeUndefined();
    expect(ids(c.get(general))).toEqual([1]);
  });

  it('marks entries stale on changes (an answer asked before them too), and drops everything on clear', () => {
    const c = createViewCache();
    c.put(openView(general, [1]), c.version());
    const asked = c.version();
    c.stale();
    expect(c.has(general)).toBe(false);
    expect(ids(c.get(general))).toEqual([1]);
    c.put(openView(greetings, [2]), asked);
    expect(c.get(greetings)?.stale).toBe(true);
    c.put(openView(general, [1, 4]), c.version());
    expect(c.has(general)).toBe(true);
    const before = c.version();
    c.clear();
    expect(c.size).toBe(0);
    c.put(openView(other, [3]), before);
    expect(c.get(other)).toBeUndefined();
  });
});

/** A bridge whose openNarrow answers are given by the test, in order. */
function fakeBridge() {
  const listeners = new Set<(e: EngineEvent) => void>();
  const asked: { narrow: unknown; answer: (s: NarrowSnapshot) => void }[] = [];
  const closed: string[] = [];
  let n = 0;
  const bridge = {
    invoke: vi.fn((name: string, req: { narrow?: unknown; view_id?: string }) => {
      if (name === 'closeNarrow') {
        closed.push(req.view_id ?? '');
        return Promise.resolve({});
      }
      if (name !== 'openNarrow') return Promise.resolve({});
      return new Promise((resolve) => asked.push({ narrow: req.narrow, answer: (s) => resolve({ view_id: `view-${++n}`, snapshot: s }) }));
    }),
    subscribe(l: (e: EngineEvent) => void) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    onConnection: () => () => undefined,
  };
  return { bridge, asked, closed, emit: (e: EngineEvent) => [...listeners].forEach((l) => l(e)) };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

/** A narrow store over a fake bridge, in a reactive root, disposed after `run`. */
function withStore(run: (store: NarrowStore, b: ReturnType<typeof fakeBridge>) => Promise<void>): Promise<void> {
  return createRoot(async (dispose) => {
    const b = fakeBridge();
    // @ts-expect-error: the fake answers only what the store asks.
    const store = createNarrowStore(b.bridge, { isLive: () => true });
    try {
      await run(store, b);
    } finally {
      store.dispose();
      dispose();
    }
  });
}

describe('narrow store with the view cache', () => {
  beforeEach(() => {
    vi.stubGlobal('window', globalThis);
    vi.stubGlobal('requestAnimationFrame', undefined);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows a cached view at once, replaced by the snapshot; never another view’s messages', async () => {
    await withStore(async (store, b) => {
      store.open(general);
      b.asked[0]?.answer(snapshot([1, 2]));
      await flush();
      expect(ids(store.state.view)).toEqual([1, 2]);
      store.open(other);
      // Not cached: nothing of general's stays as other's.
      expect(store.state.view?.target).toEqual(general);
      b.asked[1]?.answer(snapshot([7], { key: 'channel:2' }));
      await flush();
      expect(ids(store.state.view)).toEqual([7]);
      // Back to general: its first screen at once, in the opening phase; the engine is asked
      // once that screen is painted, not on the way to it.
      store.open(general);
      expect(store.state.view?.phase).toBe('opening');
      expect(ids(store.state.view)).toEqual([1, 2]);
      expect(b.asked).toHaveLength(2);
      await flush();
      expect(b.asked).toHaveLength(3);
      // A message arrived meanwhile: the snapshot replaces the cached screen.
      b.asked[2]?.answer(snapshot([1, 2, 3]));
      await flush();
      expect(store.state.view?.phase).toBe('open');
      expect(ids(store.state.view)).toEqual([1, 2, 3]);
      // Quick switches: whatever is shown is the shown target's own messages, and a view left
      // before its first screen was painted is never asked for.
      store.open(other);
      expect(ids(store.state.view)).toEqual([7]);
      store.open(general);
      expect(ids(store.state.view)).toEqual([1, 2, 3]);
      await flush();
      expect(b.asked.map((a) => a.narrow)).toEqual([b.asked[0]?.narrow, b.asked[1]?.narrow, b.asked[0]?.narrow, b.asked[0]?.narrow]);
      // A view left after it was asked for: its late answer is closed, not shown.
      store.open(other);
      await flush();
      store.open(general);
      b.asked[4]?.answer(snapshot([7, 8], { key: 'channel:2' }));
      await flush();
      expect(store.state.view?.target).toEqual(general);
      expect(ids(store.state.view)).toEqual([1, 2, 3]);
      expect(b.closed).toContain('view-4');
    });
  });

  it('gives each view a store of its own, kept while others show, brought up to date when it shows again', async () => {
    await withStore(async (store, b) => {
      store.open(general);
      b.asked[0]?.answer(snapshot([1, 2]));
      await flush();
      const generalView = store.state.view;
      if (generalView === null) throw new Error('general did not open');
      expect(store.keeps(generalView)).toBe(true);
      const generalPlain = store.plainOf(generalView);
      expect(ids(generalPlain)).toEqual([1, 2]);
      expect([store.openChannelId(), store.opensChannel(1), store.opensChannel(2)]).toEqual([1, true, false]);
      store.open(other);
      b.asked[1]?.answer(snapshot([7], { key: 'channel:2' }));
      await flush();
      expect([store.openChannelId(), store.opensChannel(1), store.opensChannel(2)]).toEqual([2, false, true]);
      // Another view, another store: general's is left as it was, and still kept; so is its
      // plain state (what its list derives ids and positions from).
      expect(store.state.view).not.toBe(generalView);
      expect(ids(store.state.view)).toEqual([7]);
      expect(ids(generalView)).toEqual([1, 2]);
      expect(store.plainOf(generalView)).toBe(generalPlain);
      expect(ids(store.state.view === null ? null : store.plainOf(store.state.view))).toEqual([7]);
      expect(generalView.phase).toBe('open');
      expect(store.keeps(generalView)).toBe(true);
      // Back: the same store, first its cached screen (the very same messages: only the phase
      // changes), then the engine's newer snapshot, mirrored into it.
      store.open(general);
      expect(store.state.view).toBe(generalView);
      expect(generalView.phase).toBe('opening');
      await flush();
      b.asked[2]?.answer(snapshot([1, 2, 3]));
      await flush();
      expect(store.state.view).toBe(generalView);
      expect(ids(generalView)).toEqual([1, 2, 3]);
      expect(ids(store.plainOf(generalView))).toEqual([1, 2, 3]);
      // A search is never kept: its store goes once another view shows.
      const search: NarrowTarget = { kind: 'search', query: 'hello' };
      store.open(search);
      b.asked[3]?.answer(snapshot([2], { key: 'search' }));
      await flush();
      const searchView = store.state.view;
      if (searchView === null) throw new Error('the search did not open');
      expect(store.keeps(searchView)).toBe(false);
      // A view holding more than a few pages is not kept once left (a long history stays unheld).
      store.open(other);
      await flush();
      b.asked[4]?.answer(snapshot(range(100, 5 * 50), { key: 'channel:2' }));
      await flush();
      const long = store.state.view;
      if (long === null) throw new Error('other did not open');
      expect(store.keeps(long)).toBe(false);
      store.open(general);
      expect(store.state.view).toBe(generalView);
      // Another account: nothing of this one's is kept to show again.
      store.open(other);
      b.emit({ type: 'areas', areas: ['accounts'] });
      expect(store.keeps(generalView)).toBe(false);
    });
  });

  it('prefetches into the cache without opening, and forgets everything on an account switch', async () => {
    await withStore(async (store, b) => {
      store.prefetch(greetings);
      store.prefetch(greetings);
      expect(b.asked.length).toBe(1);
      b.asked[0]?.answer(snapshot([5, 6], { key: 'topic' }));
      await flush();
      expect(store.state.view).toBeNull();
      expect(b.closed).toEqual(['view-1']);
      // Fresh: not asked again.
      store.prefetch(greetings);
      expect(b.asked.length).toBe(1);
      // Messages changed somewhere: asked again.
      b.emit({ type: 'areas', areas: ['messages'] });
      store.prefetch(greetings);
      expect(b.asked.length).toBe(2);
      b.asked[1]?.answer(snapshot([5, 6, 9], { key: 'topic' }));
      await flush();
      store.open(greetings);
      expect(ids(store.state.view)).toEqual([5, 6, 9]);
      b.asked[2]?.answer(snapshot([5, 6, 9], { key: 'topic' }));
      await flush();
      store.close();
      // Another account: the cache is empty, the view opens from the engine alone.
      b.emit({ type: 'areas', areas: ['accounts'] });
      store.open(greetings);
      expect(store.state.view).toBeNull();
      b.asked[3]?.answer(snapshot([message(40).id], { key: 'topic' }));
      await flush();
      expect(ids(store.state.view)).toEqual([40]);
    });
  });
});
