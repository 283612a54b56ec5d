/**
 * Narrow: the one open message view (a channel or a topic). `open(target)` asks the engine for a
 * live view (snapshot + change sets); change sets for our view id are applied by the pure reducers
 * in narrow-reducer.ts and mirrored into the store with `reconcile` by message id. Opening another
 * narrow, or leaving, closes the previous view in the engine.
 *
 * Races handled here: an answer for a narrow the user already left is closed at once (a sequence
 * token); change sets that overtake their view's `openNarrow` answer are held briefly and applied
 * after the snapshot; a view refused before the account's first sync (`UNAVAILABLE`) or lost with
 * the host connection is reopened once the status is live / the host is back.
 */
import { createContext, createEffect, onCleanup, useContext, type JSX } from 'solid-js';
import { createStore, reconcile } from 'solid-js/store';
import type { NarrowChangeSet } from '../../../sync/protocol/views.js';
import { bridge as defaultBridge, isBridgeError, type Bridge } from '../core/bridge.js';
import { canLoadOlder, changed, failed, narrowRequest, olderRequested, olderSettled, opened, opening, PAGE_SIZE, reopening, sameTarget, type NarrowTarget, type ViewState } from './narrow-reducer.js';
import { errorText } from '../core/errors.js';

export interface NarrowStore {
  readonly state: { readonly view: ViewState | null };
  open(target: NarrowTarget): void;
  close(): void;
  loadOlder(): void;
  dispose(): void;
}

/** Change sets held for a view whose `openNarrow` answer has not arrived yet. */
const MAX_EARLY = 50;
/** How long "loading older" may wait for messages before another scroll may ask again. */
const OLDER_SETTLE_MS = 3000;

export function createNarrowStore(bridge: Bridge, opts: { isLive: () => boolean }): NarrowStore {
  const [state, setState] = createStore<{ view: ViewState | null }>({ view: null });
  /** The plain truth the reducers work on; the store mirrors it. */
  let plain: ViewState | null = null;
  let seq = 0;
  let early: { viewId: string; changes: NarrowChangeSet }[] = [];
  let settleTimer: number | undefined;

  const commit = (next: ViewState | null) => {
    plain = next;
    // `reconcile` merges into the objects the store already holds, in place; the store gets its
    // own copy so that merging never writes into `plain` (or a snapshot it shares objects with).
    setState('view', next === null ? null : reconcile(structuredClone(next), { key: 'id' }));
  };

  const closeInEngine = (viewId: string | null) => {
    if (viewId !== null) bridge.invoke('closeNarrow', { view_id: viewId }).catch(() => undefined);
  };

  const start = async (from: ViewState) => {
    const token = ++seq;
    early = [];
    commit(from);
    try {
      const r = await bridge.invoke('openNarrow', narrowRequest(from.target));
      if (token !== seq || plain === null) {
        closeInEngine(r.view_id);
        return;
      }
      let next = opened(plain, r.view_id, r.snapshot);
      for (const e of early) if (e.viewId === r.view_id) next = changed(next, e.changes);
      early = [];
      commit(next);
    } catch (e) {
      if (token !== seq || plain === null) return;
      const waiting = isBridgeError(e) && (e.code === 'UNAVAILABLE' || e.code === 'OFFLINE' || e.code === 'NO_ACCOUNT');
      commit(failed(plain, errorText(e), waiting));
    }
  };

  const offEvents = bridge.subscribe((e) => {
    if (e.type !== 'view' || plain === null) return;
    if (plain.viewId === e.view_id) commit(changed(plain, e.changes));
    else if (plain.phase === 'opening' && early.length < MAX_EARLY) early.push({ viewId: e.view_id, changes: e.changes });
  });

  const offConn = bridge.onConnection((s) => {
    // The host closed our view with the old socket; a new one replaces it.
    if (s === 'up' && plain !== null) void start(reopening(plain));
  });

  createEffect(() => {
    if (opts.isLive() && state.view?.phase === 'waiting' && plain !== null) void start(reopening(plain));
  });

  const clearSettle = () => {
    if (settleTimer !== undefined) window.clearTimeout(settleTimer);
    settleTimer = undefined;
  };

  return {
    state,
    open(target) {
      if (plain !== null && sameTarget(plain.target, target) && plain.phase !== 'error') return;
      closeInEngine(plain?.viewId ?? null);
      clearSettle();
      void start(opening(target));
    },
    close() {
      closeInEngine(plain?.viewId ?? null);
      clearSettle();
      seq++;
      commit(null);
    },
    loadOlder() {
      if (plain === null || !canLoadOlder(plain) || plain.viewId === null) return;
      const viewId = plain.viewId;
      commit(olderRequested(plain));
      const settle = () => {
        if (plain?.viewId === viewId && plain.loadingOlder) commit(olderSettled(plain));
      };
      bridge.invoke('loadOlder', { view_id: viewId, count: PAGE_SIZE }).then(
        () => {
          clearSettle();
          // Older messages arrive as a change set; if none do (offline, nothing older), allow a retry.
          settleTimer = window.setTimeout(settle, OLDER_SETTLE_MS);
        },
        settle,
      );
    },
    dispose() {
      offEvents();
      offConn();
      clearSettle();
      closeInEngine(plain?.viewId ?? null);
      seq++;
    },
  };
}

const Ctx = createContext<NarrowStore>();

export function NarrowProvider(props: { bridge?: Bridge; isLive: () => boolean; children: JSX.Element }) {
  const store = createNarrowStore(props.bridge ?? defaultBridge, { isLive: () => props.isLive() });
  onCleanup(store.dispose);
  return <Ctx.Provider value={store}>{props.children}</Ctx.Provider>;
}

export function useNarrow(): NarrowStore {
  const s = useContext(Ctx);
  if (!s) throw new Error('useNarrow() used outside <NarrowProvider>');
  return s;
}
