/**
 * Status: the open account's connection (live / connecting / syncing with progress / offline /
 * unauthorized / error) and whether the app host itself is reachable. `now` ticks once a second
 * only while a countdown is shown.
 */
import { batch, createEffect, createMemo, onCleanup } from 'solid-js';
import { createStore, reconcile } from 'solid-js/store';
import type { SessionStatus } from '../../../sync/protocol/status.js';
import { startAreaQuery } from '../core/area-query.js';
import type { Bridge } from '../core/bridge.js';
import { describeStatus, needsTicking, type StatusView } from './status-reducer.js';
import { storeContext } from './store-context.js';

export interface StatusStore {
  /** `hostRefused`: the app host does not know this tab any more (started again with a new sign-in). */
  readonly state: { readonly session: SessionStatus | null; readonly hostUp: boolean; readonly hostRefused: boolean; readonly now: number };
  /** What the indicator shows; `pending` (the outbox's count) goes into its sentence. */
  view(pending?: number | null): StatusView;
  isLive(): boolean;
  refresh(): Promise<void>;
  dispose(): void;
}

export function createStatusStore(bridge: Bridge, clock: () => number = Date.now): StatusStore {
  const [state, setState] = createStore<{ session: SessionStatus | null; hostUp: boolean; hostRefused: boolean; now: number }>({ session: null, hostUp: true, hostRefused: false, now: clock() });

  // Replaced, not merged (setState merges objects): a `live` status keeps no stale `progress`.
  const setSession = (s: SessionStatus | null) => setState('session', reconcile(s));
  // The status itself is pushed (`status` events); it is asked for at start, when the account
  // changes and when the host is back.
  const q = startAreaQuery(bridge, {
    fetch: () => bridge.invoke('status', {}),
    areas: [],
    onData: setSession,
    // NO_ACCOUNT (nothing open yet) or the host is away: nothing to show.
    onError: () => setSession(null),
  });
  const offEvents = bridge.subscribe((e) => {
    if (e.type === 'status') setSession(e.status);
  });
  const offConn = bridge.onConnection((s) => {
    batch(() => {
      setState('hostUp', s === 'up');
      setState('hostRefused', s === 'refused');
      setState('now', clock());
    });
  });

  const ticking = createMemo(() => needsTicking(state.session));
  createEffect(() => {
    if (!ticking()) return;
    setState('now', clock());
    const t = window.setInterval(() => setState('now', clock()), 1000);
    onCleanup(() => window.clearInterval(t));
  });

  return {
    state,
    view: (pending = null) => describeStatus(state.session, state.hostRefused ? 'refused' : state.hostUp, state.now, pending),
    // Sending the outbox happens on a live stream, or once the server answered it while the stream
    // reconnects (it is nudged at once): live enough for what waits on the connection.
    isLive: () => state.hostUp && (state.session?.state === 'live' || (state.session?.state === 'syncing' && state.session.progress.phase === 'outbox')),
    refresh: q.refresh,
    dispose: () => {
      q.dispose();
      offEvents();
      offConn();
    },
  };
}

const ctx = storeContext('Status', (bridge) => createStatusStore(bridge));
export const StatusProvider = ctx.Provider;
export const useStatus = ctx.use;
