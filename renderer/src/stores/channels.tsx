/**
 * Channels: the subscribed channels with their topics and unread counts, for the sidebar. Refetched
 * (coalesced: one request in flight, one more queued at most) when an engine event may have changed
 * them (`refreshesChannels`), when the account changes, and when the host connection comes back.
 */
import { createContext, onCleanup, useContext, type JSX } from 'solid-js';
import { createStore, reconcile } from 'solid-js/store';
import type { ChannelSummary } from '../../../sync/protocol/commands.js';
import { bridge as defaultBridge, type Bridge } from '../bridge.js';
import { refreshesChannels, sidebarChannels } from '../channels-reducer.js';
import { errorText } from '../signin-reducer.js';
import { singleFlight } from '../single-flight.js';

export interface ChannelsStore {
  readonly state: { readonly channels: ChannelSummary[]; readonly loaded: boolean; readonly error: string | null };
  byId(id: number): ChannelSummary | undefined;
  refresh(): Promise<void>;
  dispose(): void;
}

/** Bursts of events (a backfill batch, a busy topic) cost one refetch. */
const DEBOUNCE_MS = 150;

export function createChannelsStore(bridge: Bridge): ChannelsStore {
  const [state, setState] = createStore<{ channels: ChannelSummary[]; loaded: boolean; error: string | null }>({ channels: [], loaded: false, error: null });
  let timer: number | undefined;

  const fetchOnce = async () => {
    try {
      const list = sidebarChannels(await bridge.invoke('channels', {}));
      setState('channels', reconcile(list, { key: 'channel_id' }));
      setState({ loaded: true, error: null });
    } catch (e) {
      // NO_ACCOUNT before an account is open is not an error worth showing.
      setState({ channels: [], error: errorText(e) });
    }
  };

  const refresh = singleFlight(fetchOnce);

  const soon = () => {
    if (timer !== undefined) return;
    timer = window.setTimeout(() => {
      timer = undefined;
      void refresh();
    }, DEBOUNCE_MS);
  };

  const offEvents = bridge.subscribe((e) => {
    if (refreshesChannels(e)) soon();
  });
  const offConn = bridge.onConnection((s) => {
    if (s === 'up') soon();
  });
  void refresh();

  return {
    state,
    byId: (id) => state.channels.find((c) => c.channel_id === id),
    refresh,
    dispose: () => {
      offEvents();
      offConn();
      if (timer !== undefined) window.clearTimeout(timer);
    },
  };
}

const Ctx = createContext<ChannelsStore>();

export function ChannelsProvider(props: { bridge?: Bridge; children: JSX.Element }) {
  const store = createChannelsStore(props.bridge ?? defaultBridge);
  onCleanup(store.dispose);
  return <Ctx.Provider value={store}>{props.children}</Ctx.Provider>;
}

export function useChannels(): ChannelsStore {
  const s = useContext(Ctx);
  if (!s) throw new Error('useChannels() used outside <ChannelsProvider>');
  return s;
}
