/**
 * Home data: the engine's `unreadCounts` and `dmConversations`, each kept current by re-running on
 * the areas the contract's `QUERY_AREAS` names for it (and when the sync turns live, and when the
 * host comes back). Read by the sidebar (view counts, direct messages) and the home views.
 */
import { createContext, onCleanup, useContext, type JSX } from 'solid-js';
import { QUERY_AREAS, type DmConversation, type UnreadCountsView } from '../../../sync/protocol/commands.js';
import { createAreaQuery } from '../core/area-query-store.js';
import { bridge as defaultBridge, type Bridge } from '../core/bridge.js';

export interface HomeStore {
  unread(): UnreadCountsView;
  unreadLoaded(): boolean;
  dms(): readonly DmConversation[];
  dmsLoaded(): boolean;
  dispose(): void;
}

export const NO_UNREAD: UnreadCountsView = { total: 0, mentions: 0, followed: 0, starred: 0, channels: [], topics: [], dms: [], complete: false };

/** Bursts of events (a backfill batch) cost one refetch. */
const DEBOUNCE_MS = 150;

const liveNow = (e: { type: string; status?: { state: string } }) => e.type === 'status' && e.status?.state === 'live';

export function createHomeStore(bridge: Bridge): HomeStore {
  const unread = createAreaQuery<UnreadCountsView>(bridge, {
    fetch: () => bridge.invoke('unreadCounts', {}),
    areas: QUERY_AREAS.unreadCounts,
    when: liveNow,
    debounceMs: DEBOUNCE_MS,
    initial: NO_UNREAD,
    key: 'key',
    onError: 'reset',
  });
  const dms = createAreaQuery<DmConversation[]>(bridge, {
    fetch: () => bridge.invoke('dmConversations', {}),
    areas: QUERY_AREAS.dmConversations,
    when: liveNow,
    debounceMs: DEBOUNCE_MS,
    initial: [],
    key: 'key',
    onError: 'reset',
  });
  return {
    unread: () => unread.state.data,
    unreadLoaded: () => unread.state.loaded,
    dms: () => dms.state.data,
    dmsLoaded: () => dms.state.loaded,
    dispose() {
      unread.dispose();
      dms.dispose();
    },
  };
}

const Ctx = createContext<HomeStore>();

export function HomeProvider(props: { bridge?: Bridge; children: JSX.Element }) {
  const store = createHomeStore(props.bridge ?? defaultBridge);
  onCleanup(store.dispose);
  return <Ctx.Provider value={store}>{props.children}</Ctx.Provider>;
}

export function useHome(): HomeStore {
  const s = useContext(Ctx);
  if (!s) throw new Error('useHome() used outside <HomeProvider>');
  return s;
}
