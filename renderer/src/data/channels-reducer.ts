/** Pure: which engine events refresh the sidebar, and how channels and topics are listed and dimmed. */
import { QUERY_AREAS, type ChannelSummary, type EngineEvent } from '../../../sync/protocol/commands.js';
import type { QueuedRequest } from '../../../sync/outbox/registry.js';
import { byName } from '../kit/collate.js';

/** One change, as `updateSubscriptionSettings` takes it (without the channel): a colour, or a setting on or off. */
export type ChannelSettingChange = { property: 'color'; value: string } | { property: Exclude<QueuedRequest<'updateSubscriptionSettings'>['property'], 'color'>; value: boolean };

/**
 * Areas whose change may alter channels, topics or unread counts: the contract's
 * `QUERY_AREAS.channels` (which includes `channel_topics` and `outbox`), plus `accounts`;
 * `topics` / `unreads` are accepted too so a renamed area does not silently freeze the sidebar.
 */
const CHANNEL_AREAS = new Set<string>([...QUERY_AREAS.channels, 'unreads', 'topics', 'accounts']);

/** Whether this event should make the sidebar refetch `channels`. */
export function refreshesChannels(e: EngineEvent): boolean {
  switch (e.type) {
    case 'areas':
      return e.areas.some((a) => CHANNEL_AREAS.has(a));
    case 'status':
      // A phase began (register done: channels are known) or caught up (counts may have moved);
      // not on every progress tick.
      return e.status.state === 'live' || (e.status.state === 'syncing' && e.status.progress.done === 0);
    case 'view':
      // New or removed messages change topic lists and counts; the engine names no area for them.
      return e.changes.added.length > 0 || e.changes.removed.length > 0;
    case 'notifications':
    case 'upload_progress':
      return false;
  }
}

/**
 * Subscribed channels, as Zulip web sorts its sidebar: pinned ones first, and within the pinned and
 * the other part muted channels last; each group by name (case-insensitive). The sidebar shows
 * nothing else.
 */
export function sidebarChannels(list: readonly ChannelSummary[]): ChannelSummary[] {
  return list.filter((c) => c.is_subscribed).sort((a, b) => Number(b.pin_to_top) - Number(a.pin_to_top) || Number(a.is_muted) - Number(b.is_muted) || byName(a, b));
}

export { isTopicMuted, VISIBILITY } from '../../../common/topic-visibility.js';

/**
 * Unread messages of one topic as the sidebar counts them (0 when the topic is not listed), so
 * "Mark as read" shows exactly while the sidebar has a count for the topic. Topic names compare
 * without case, as the server does.
 */
export function topicUnread(channels: readonly Pick<ChannelSummary, 'channel_id' | 'topics'>[], channelId: number, topic: string): number {
  const name = topic.toLowerCase();
  const t = channels.find((c) => c.channel_id === channelId)?.topics.find((x) => x.topic.toLowerCase() === name);
  return t?.unread_count ?? 0;
}
