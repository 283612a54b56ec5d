/**
 * Home data: the engine's `unreadCounts` and `dmConversations`, each kept current by re-running on
 * the areas the contract's `QUERY_AREAS` names for it (and when the sync turns live, and when the
 * host comes back). Read by the sidebar (view counts, direct messages) and the home views.
 */
import { QUERY_AREAS, type DmConversation, type UnreadCountsView } from '../../../sync/protocol/commands.js';
import { createAreaQuery, turnedLive } from '../core/area-query-store.js';
import type { Bridge } from '../core/bridge.js';
import { storeContext } from './store-context.js';

export interface HomeStore {
  unread(): UnreadCountsView;
  unreadLoaded(): boolean;
  dms(): readonly DmConversation[];
  dmsLoaded(): boolean;
  /** `unread()` and `dms()` as plain objects, for derivations over all of them (AreaQueryStore.plain). */
  plainUnread(): UnreadCountsView;
  plainDms(): readonly DmConversation[];
  dispose(): void;
}

export const NO_UNREAD: UnreadCountsView = { total: 0, mentions: 0, followed: 0, starred: 0, channels: [], topics: [], dms: [], complete: false };

/** Bursts of events (a backfill batch) cost one refetch. */
const DEBOUNCE_MS = 150;

export function createHomeStore(bridge: Bridge): HomeStore {
  const unread = createAreaQuery<UnreadCountsView>(bridge, {
    fetch: () => bridge.invoke('unreadCounts', {}),
    areas: QUERY_AREAS.unreadCounts,
    when: turnedLive,
    debounceMs: DEBOUNCE_MS,
    initial: NO_UNREAD,
    key: 'key',
    onError: 'reset',
  });
  const dms = createAreaQuery<DmConversation[]>(bridge, {
    fetch: () => bridge.invoke('dmConversations', {}),
    areas: QUERY_AREAS.dmConversations,
    when: turnedLive,
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
    plainUnread: unread.plain,
    plainDms: dms.plain,
    dispose() {
      unread.dispose();
      dms.dispose();
    },
  };
}

const ctx = storeContext('Home', (bridge) => createHomeStore(bridge));
export const HomeProvider = ctx.Provider;
export const useHome = ctx.use;
