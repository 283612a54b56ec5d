/**
 * Channels: the subscribed channels with their topics and unread counts, for the sidebar. Refetched
 * (debounced, one request in flight) when an engine event may have changed them
 * (`refreshesChannels`), when the account changes, and when the host connection comes back.
 */
import type { ChannelSummary } from '../../../sync/protocol/commands.js';
import { createAreaQuery } from '../core/area-query-store.js';
import type { Bridge } from '../core/bridge.js';
import { refreshesChannels, sidebarChannels } from './channels-reducer.js';
import { storeContext } from './store-context.js';

export interface ChannelsStore {
  readonly state: { readonly channels: readonly ChannelSummary[]; readonly loaded: boolean; readonly error: string | null };
  byId(id: number): ChannelSummary | undefined;
  /** The channels as plain objects, for derivations over all of them (AreaQueryStore.plain). */
  plain(): readonly ChannelSummary[];
  refresh(): Promise<void>;
  dispose(): void;
}

/** Bursts of events (a backfill batch, a busy topic) cost one refetch. */
const DEBOUNCE_MS = 150;

export function createChannelsStore(bridge: Bridge): ChannelsStore {
  const q = createAreaQuery<ChannelSummary[]>(bridge, {
    fetch: async () => sidebarChannels(await bridge.invoke('channels', {})),
    areas: [],
    when: refreshesChannels,
    debounceMs: DEBOUNCE_MS,
    initial: [],
    key: 'channel_id',
    // NO_ACCOUNT before an account is open, or the host away: no stale list.
    onError: 'reset',
  });
  const state = {
    get channels() {
      return q.state.data;
    },
    get loaded() {
      return q.state.loaded;
    },
    get error() {
      return q.state.error;
    },
  };
  return {
    state,
    byId: (id) => q.state.data.find((c) => c.channel_id === id),
    plain: q.plain,
    refresh: q.refresh,
    dispose: q.dispose,
  };
}

const ctx = storeContext('Channels', (bridge) => createChannelsStore(bridge));
export const ChannelsProvider = ctx.Provider;
export const useChannels = ctx.use;
