/**
 * The channels screen's engine data, for as long as the calling component lives: every visible
 * channel (`allChannels`) and the realm's creation rules (`channelCreation`), both answered offline
 * and kept current by their `QUERY_AREAS`; and one channel's subscribers (`channelSubscribers`,
 * the server's list, so online; offline it says it needs a connection), asked again when the
 * channel's subscriptions change or the connection comes back.
 */
import { onCleanup } from 'solid-js';
import { QUERY_AREAS, type ChannelCreationView, type ChannelListing } from '../../../sync/protocol/commands.js';
import { createAreaQuery, turnedLive, useLiveQuery } from '../core/area-query-store.js';
import type { Bridge } from '../core/bridge.js';

export function useAllChannels(bridge: Bridge) {
  return useLiveQuery<ChannelListing[]>(bridge, {
    fetch: () => bridge.invoke('allChannels', {}),
    areas: [...QUERY_AREAS.allChannels, 'accounts'],
    initial: [],
    key: 'channel_id',
  });
}

export function useChannelCreation(bridge: Bridge) {
  return useLiveQuery<ChannelCreationView | null>(bridge, { fetch: () => bridge.invoke('channelCreation', {}), areas: [...QUERY_AREAS.channelCreation, 'accounts'], initial: null });
}

export interface SubscribersAnswer {
  user_ids: number[];
  source: 'server' | 'cache';
}

export function useChannelSubscribers(bridge: Bridge, channelId: number) {
  const q = createAreaQuery<SubscribersAnswer | null>(bridge, {
    fetch: () => bridge.invoke('channelSubscribers', { channel_id: channelId }),
    areas: [...QUERY_AREAS.channelSubscribers],
    // Offline it could not answer; back live, ask again.
    when: turnedLive,
    initial: null,
    // A list from before the connection went is no longer known to be true.
    onError: 'reset',
  });
  onCleanup(q.dispose);
  return q;
}
