/**
 * Narrow: the one open message view (see target.ts for which). `open(target)` asks the
 * engine for a live view (snapshot + change sets); change sets for our view id are applied by the
 * pure reducers in narrow-reducer.ts and mirrored into the Solid store incrementally: an updated
 * message is reconciled in place (its row stays, only what changed re-renders), removed and added
 * ones are spliced in by id. Only the opening snapshot is copied whole. Opening another view, or
 * leaving, closes the previous one in the engine.
 *
 * Races handled here: an answer for a view the user already left is closed at once (a sequence
 * token); change sets that overtake their view's `openNarrow` answer are held briefly and applied
 * after the snapshot; a view refused before the account's first sync (`UNAVAILABLE`) or lost with
 * the host connection is reopened once the status is live / the host is back, and so is a search
 * answered from the device alone.
 *
 * A view seen recently (or prefetched when its link is hovered or focused: `prefetch`) opens at
 * once with the first screen kept in view-cache.ts, in the opening phase (nothing is marked read,
 * no page is loaded from it); the engine's snapshot replaces it when it comes, rows of unchanged
 * messages staying mounted.
 */
import { batch, createEffect, createSelector, createSignal, on, type Signal } from 'solid-js';
import { createStore, reconcile, unwrap, type SetStoreFunction } from 'solid-js/store';
import type { LocalMessage } from '../../../sync/protocol/messages.js';
import type { NarrowChangeSet } from '../../../sync/protocol/views.js';
import { isBridgeError, type Bridge } from '../core/bridge.js';
import { errorText } from '../core/errors.js';
import { canLoad, changed, connectionBack, edgeId, failed, mergeChanges, opened, opening, reopening, searchToRetry, sideLoading, sideSettled, waitingSides, type Side, type ViewState } from './narrow-reducer.js';
import { channelOfTarget, narrowRequest, PAGE_SIZE, sameTarget, type NarrowTarget } from './target.js';
import { afterPaint } from '../kit/after-paint.js';
import { cacheKey, createViewCache, type CachedView } from './view-cache.js';

export interface NarrowStore {
  readonly state: { readonly view: ViewState | null };
  /**
   * A view (a store `state.view` gave) as plain data, what was last mirrored into it: for what is
   * derived from the whole list (ids, positions, unread ids). Read through the store, every message
   * would get signals of its own for the fields read (most of the heap with thousands of messages
   * loaded); rows read the store. It changes only when that view's store does: a list kept for a
   * view while others show hears nothing of their switches.
   */
  plainOf(view: ViewState): ViewState | null;
  /**
   * Whether `view` (a store `state.view` gave) is kept for its view while others show: a list
   * kept mounted for it may show it again. False once its view is forgotten (see `kept`).
   */
  keeps(view: ViewState): boolean;
  /** The channel the open view is in (the channel itself or one of its topics), if any. */
  openChannelId(): number | null;
  /**
   * Whether `openChannelId()` is this channel: a selector, so a switch re-runs the two rows it
   * concerns, not every channel's of a large organisation.
   */
  opensChannel(channelId: number): boolean;
  open(target: NarrowTarget): void;
  /** Ask the engine for a view's first screen ahead of opening it (a hovered or focused link). */
  prefetch(target: NarrowTarget): void;
  close(): void;
  loadOlder(): void;
  loadNewer(): void;
  /**
   * Let go of what the store built for messages no longer rendered (the rows being `rendered`):
   * a message row read leaves signals on its message, kept as long as the message is; a long
   * history scrolled through would keep them all. Those messages become fresh copies (the store
   * and the reducers then share one), the list a fresh array.
   */
  compact(rendered: ReadonlySet<number>): void;
  dispose(): void;
}

/** Change sets held for a view whose `openNarrow` answer has not arrived yet. */
const MAX_EARLY = 50;
/** The latest an opening view replaces the shown one when frames do not come (a hidden window). */
const SHOW_OPENING_MS = 100;
/** Views whose store object is kept while others show (see `kept`), and the most messages one may hold. */
export const KEPT_VIEWS = 32;
const KEPT_MAX_MESSAGES = 4 * PAGE_SIZE;
/** How long "loading older / newer" may wait for messages before another scroll may ask again. */
const SETTLE_MS = 3000;

/** Resolves once the next frame has been painted (after-paint.ts; at once without a DOM). */
const nextFrame = (): Promise<void> => new Promise((resolve) => afterPaint(resolve, SHOW_OPENING_MS));

/** The store's own copy of a message: the store may merge into it later, the reducers' copy must not change. */
const own = (m: LocalMessage): LocalMessage => structuredClone(m);

/** Binary search of an ascending list by id: the index of `id`, or -1. */
function indexOfId(list: readonly { id: number }[], id: number): number {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = list[mid]?.id ?? 0;
    if (v === id) return mid;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** A view opening with its cached first screen (still `opening`: the snapshot follows). */
const fromCache = (target: NarrowTarget, c: CachedView): ViewState => ({ ...opening(target), key: c.key, messages: [...c.messages], before: { ...c.before }, after: { ...c.after }, anchorId: c.anchorId });

/**
 * One view's Solid store, and the plain state it last mirrored. Each view has a store of its own:
 * a message list kept mounted for it while other views show (NarrowView) reads that store, which
 * only changes while its view is the one shown.
 */
interface ViewBox {
  readonly view: ViewState;
  readonly set: SetStoreFunction<ViewState>;
  /** What was last mirrored (read by the store itself, untracked). */
  last: ViewState;
  /** The same, as a signal: what `plainOf` gives. */
  readonly plain: Signal<ViewState>;
}

/** Same messages, the very same objects: nothing of them changed since `a` was mirrored. */
const sameMessages = (a: readonly LocalMessage[], b: readonly LocalMessage[]) => a.length === b.length && a.every((m, i) => m === b[i]);

export function createNarrowStore(bridge: Bridge, opts: { isLive: () => boolean }): NarrowStore {
  const [box, setBox] = createSignal<ViewBox | null>(null);
  const state = {
    get view() {
      return box()?.view ?? null;
    },
  };
  /** The box of each view's store object (`plainOf`). */
  const boxOf = new WeakMap<ViewState, ViewBox>();
  const newBox = (next: ViewState): ViewBox => {
    const [view, set] = createStore<ViewState>(structuredClone(next));
    const b = { view, set, last: next, plain: createSignal(next) };
    boxOf.set(view, b);
    return b;
  };
  /** Note `next` as what `b` mirrors now. */
  const mirrored = (b: ViewBox, next: ViewState) => {
    b.last = next;
    b.plain[1](next);
  };
  const openChannelId = () => {
    const t = box()?.view.target;
    return t === undefined ? null : (channelOfTarget(t)?.channelId ?? null);
  };
  const opensChannel = createSelector(openChannelId);
  const cache = createViewCache();
  /** The one prefetch asked for and not answered yet, and the next one to ask. */
  let prefetching: NarrowTarget | null = null;
  let nextPrefetch: NarrowTarget | null = null;
  /** The plain truth the reducers work on; the store mirrors it. */
  let plain: ViewState | null = null;
  let seq = 0;
  let early: { viewId: string; changes: NarrowChangeSet }[] = [];
  const settleTimers = { older: undefined as number | undefined, newer: undefined as number | undefined };

  /** A view opened but not shown yet (see `start`): its token. */
  let unshown: number | null = null;

  /**
   * The stores of views seen lately (view-cache.ts `cacheKey`), kept while other views show. The
   * least recently shown go past KEPT_VIEWS, and a view holding more than a few pages (a long
   * history scrolled through) is not kept.
   */
  const kept = new Map<string, ViewBox>();

  /** Everything but the messages (phase, side states, loading flags). */
  const scalarsOf = (next: ViewState) => ({
    phase: next.phase,
    viewId: next.viewId,
    key: next.key,
    loadingOlder: next.loadingOlder,
    loadingNewer: next.loadingNewer,
    olderWaits: next.olderWaits,
    newerWaits: next.newerWaits,
    anchorId: next.anchorId,
    error: next.error,
  });

  /** Everything but the messages and the target, into a view's store. */
  const setScalars = (b: ViewBox, next: ViewState) => {
    b.set(scalarsOf(next));
    b.set('before', { ...next.before });
    b.set('after', { ...next.after });
    mirrored(b, next);
  };

  /** Mirror `next` into a view's store: whole (its own copy), or only the rest when its messages did not change. */
  const mirror = (b: ViewBox, next: ViewState) => {
    if (sameMessages(b.last.messages, next.messages)) {
      b.set('target', reconcile(structuredClone(next.target)));
      setScalars(b, next);
    } else {
      b.set(reconcile(structuredClone(next), { key: 'id', merge: false }));
      mirrored(b, next);
    }
  };

  /** Replace the whole view (opening, a snapshot, a failure), in the view's own store. */
  const commitAll = (next: ViewState | null) => {
    plain = next;
    unshown = null;
    batch(() => {
      if (next === null) setBox(null);
      else {
        const k = cacheKey(next.target);
        const current = box();
        if (current !== null && sameTarget(current.last.target, next.target)) mirror(current, next);
        else {
          // Another view: the store kept for it, brought up to date, or a new one.
          const mine = k === null ? undefined : kept.get(k);
          if (mine !== undefined) {
            mirror(mine, next);
            setBox(mine);
          } else setBox(newBox(next));
        }
        if (k !== null) keepBox(k, next);
      }
    });
  };

  /** Note the shown view's store as kept for `k` (most recently shown), or forget it when it holds too much. */
  const keepBox = (k: string, next: ViewState) => {
    kept.delete(k);
    const b = box();
    if (next.messages.length > KEPT_MAX_MESSAGES || b === null) return;
    kept.set(k, b);
    for (const old of kept.keys()) {
      if (kept.size <= KEPT_VIEWS) break;
      kept.delete(old);
    }
  };

  /** Everything but the messages (phase, side states, loading flags). */
  const commitScalars = (next: ViewState) => {
    plain = next;
    const b = box();
    if (b === null) return;
    batch(() => setScalars(b, next));
  };

  /** One change set, mirrored message by message. */
  const commitChange = (next: ViewState, cs: NarrowChangeSet) => {
    const b = box();
    if (b === null) return;
    batch(() => {
      const shown = b.view.messages;
      // Messages still shown whose content changed: reconciled in place (their rows stay mounted).
      for (const m of [...cs.updated, ...cs.added]) {
        const i = indexOfId(shown, m.id);
        if (i >= 0) b.set('messages', i, reconcile(own(m), { merge: false }));
      }
      // Structure: removals and insertions, keeping every other item as it is. An inserted message
      // is the reducers' object itself (one copy of a long history, not two): the store only ever
      // merges the engine's newer content into it, which the reducers' state then holds anyway.
      if (cs.removed.length > 0 || cs.added.length > 0 || cs.updated.length > 0) {
        b.set('messages', (list) => mergeChanges(list, cs, (m) => m, false));
      }
      commitScalars(next);
      // Pages loaded by scrolling: past a few, the view is not kept once left.
      const k = cacheKey(next.target);
      if (k !== null && next.messages.length > KEPT_MAX_MESSAGES) kept.delete(k);
    });
  };

  const closeInEngine = (viewId: string | null) => {
    if (viewId !== null) bridge.invoke('closeNarrow', { view_id: viewId }).catch(() => undefined);
  };

  /**
   * Open `from`'s target. `deferShown`: the opening state (no messages) replaces the shown view
   * only as the second frame from now is produced (the old view stays on screen one frame longer,
   * about 16 ms), or after SHOW_OPENING_MS without frames; an answer arriving first is shown
   * instead, so the old rows go and the new ones come in one task and no frame is spent on
   * "Loading…" (nor on tearing the old rows down separately).
   */
  const start = async (from: ViewState, deferShown = false) => {
    const token = ++seq;
    const askedAt = cache.version();
    early = [];
    // A first screen to show (cached, or kept while reopening) is painted before the engine is
    // asked (the message to it is not on the way to the frame), and not at all when another view
    // is opened meanwhile; with nothing to show, asked first: the engine answers while this view
    // is swapped in.
    const painted = from.messages.length > 0 ? nextFrame() : null;
    const ask = () => bridge.invoke('openNarrow', narrowRequest(from.target));
    const answer = painted === null ? ask() : painted.then(() => (token === seq ? ask() : null));
    if (deferShown) {
      plain = from;
      unshown = token;
      const show = () => {
        if (unshown === token && plain !== null) commitAll(plain);
      };
      if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => requestAnimationFrame(show));
      window.setTimeout(show, SHOW_OPENING_MS);
    } else {
      commitAll(from);
    }
    try {
      const r = await answer;
      if (r === null) return;
      if (token !== seq || plain === null) {
        closeInEngine(r.view_id);
        return;
      }
      let next = opened(plain, r.view_id, r.snapshot);
      for (const e of early) if (e.viewId === r.view_id) next = changed(next, e.changes);
      early = [];
      commitAll(next);
      cache.put(next, askedAt);
    } catch (e) {
      if (token !== seq || plain === null) return;
      const waiting = isBridgeError(e) && (e.code === 'UNAVAILABLE' || e.code === 'OFFLINE' || e.code === 'NO_ACCOUNT');
      commitAll(failed(plain, errorText(e), waiting));
    }
  };

  /** Keep the open view's first screen for the next time it opens. */
  const keep = () => {
    if (plain !== null) cache.put(plain, cache.version());
  };

  const offEvents = bridge.subscribe((e) => {
    if (e.type === 'areas') {
      if (e.areas.includes('accounts')) {
        // Another account: no view of this one's may show again (their lists go with them).
        cache.clear();
        kept.clear();
      }
      else if (e.areas.includes('messages')) cache.stale();
    }
    if (e.type !== 'view' || plain === null) return;
    if (plain.viewId === e.view_id) commitChange(changed(plain, e.changes), e.changes);
    else if (plain.phase === 'opening' && early.length < MAX_EARLY) early.push({ viewId: e.view_id, changes: e.changes });
  });

  const offConn = bridge.onConnection((s) => {
    // The host closed our view with the old socket; a new one replaces it.
    if (s === 'up' && plain !== null) void start(reopening(plain));
  });

  createEffect(() => {
    if (opts.isLive() && state.view?.phase === 'waiting' && plain !== null) void start(reopening(plain));
  });

  // A search answered from the device alone is asked again when the sync turns live: the engine
  // asks the server when a view opens (it does not refill open views on reconnecting).
  createEffect(
    on(opts.isLive, (live, was) => {
      if (!live || was !== false || plain === null || !searchToRetry(plain)) return;
      closeInEngine(plain.viewId);
      void start(reopening(plain));
    }),
  );

  const clearSettle = () => {
    for (const k of ['older', 'newer'] as const) {
      if (settleTimers[k] !== undefined) window.clearTimeout(settleTimers[k]);
      settleTimers[k] = undefined;
    }
  };

  /** Ask for a page on one side; the messages arrive as a change set (or never, offline: then allow a retry). */
  const loadSide = (side: Side) => {
    if (plain === null || plain.viewId === null) return;
    if (!canLoad(plain, side)) return;
    const viewId = plain.viewId;
    const edge = edgeId(plain, side);
    commitScalars(sideLoading(plain, side, true));
    const settle = () => {
      if (plain?.viewId !== viewId) return;
      const next = sideSettled(plain, side, opts.isLive(), edge);
      if (next !== plain) commitScalars(next);
    };
    // What the device has arrives before the answer; the server's page, when live, after it.
    bridge.invoke(side === 'older' ? 'loadOlder' : 'loadNewer', { view_id: viewId, count: PAGE_SIZE }).then(() => {
      if (settleTimers[side] !== undefined) window.clearTimeout(settleTimers[side]);
      settleTimers[side] = window.setTimeout(settle, opts.isLive() ? SETTLE_MS : 0);
    }, settle);
  };

  // Sides that waited for the connection load once the sync is live again.
  createEffect(
    on(opts.isLive, (live) => {
      if (!live || plain === null) return;
      const sides = waitingSides(plain);
      if (sides.length === 0) return;
      commitScalars(connectionBack(plain));
      for (const side of sides) loadSide(side);
    }),
  );

  const prefetch = (target: NarrowTarget): void => {
    if (cacheKey(target) === null || cache.has(target) || (plain !== null && sameTarget(plain.target, target))) return;
    if (prefetching !== null) {
      if (!sameTarget(prefetching, target)) nextPrefetch = target;
      return;
    }
    prefetching = target;
    const askedAt = cache.version();
    const done = () => {
      prefetching = null;
      const next = nextPrefetch;
      nextPrefetch = null;
      if (next !== null) prefetch(next);
    };
    bridge.invoke('openNarrow', narrowRequest(target)).then((r) => {
      closeInEngine(r.view_id);
      cache.put(opened(opening(target), r.view_id, r.snapshot), askedAt);
      done();
    }, done);
  };

  return {
    state,
    plainOf: (view) => boxOf.get(view)?.plain[0]() ?? null,
    openChannelId,
    opensChannel,
    // By identity: asked of every kept list on each switch, it reads nothing of the view.
    keeps: (view) => [...kept.values()].some((b) => b.view === view),
    open(target) {
      if (plain !== null && sameTarget(plain.target, target) && plain.phase !== 'error') return;
      keep();
      // Closed once the new view is painted: the message to the engine is not on the way to it.
      const leaving = plain?.viewId ?? null;
      afterPaint(() => closeInEngine(leaving), SHOW_OPENING_MS);
      clearSettle();
      const hit = cache.get(target);
      void start(hit === undefined ? opening(target) : fromCache(target, hit), hit === undefined);
    },
    prefetch,
    close() {
      if (plain === null) return;
      keep();
      closeInEngine(plain.viewId);
      clearSettle();
      seq++;
      commitAll(null);
    },
    compact(rendered) {
      const b = box();
      const raw = b === null ? null : unwrap(b.view).messages;
      if (plain === null || raw === null || raw.length !== plain.messages.length || raw.some((m, i) => m.id !== plain?.messages[i]?.id)) return;
      let touched = false;
      const next = raw.map((m) => {
        if (rendered.has(m.id) || Object.getOwnPropertySymbols(m).length === 0) return m;
        touched = true;
        return structuredClone(m);
      });
      if (!touched || b === null) return;
      plain = { ...plain, messages: next };
      const now = plain;
      batch(() => {
        b.set('messages', next);
        mirrored(b, now);
      });
    },
    loadOlder: () => loadSide('older'),
    loadNewer: () => loadSide('newer'),
    dispose() {
      offEvents();
      offConn();
      clearSettle();
      closeInEngine(plain?.viewId ?? null);
      seq++;
    },
  };
}
