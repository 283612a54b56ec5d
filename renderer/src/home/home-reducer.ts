/**
 * Pure: the home views as Zulip web has them. The inbox (unread conversations: direct messages
 * first, newest first, then each subscribed channel by name with its unread topics, newest first;
 * muted topics and muted channels' topics left out, as Zulip's inbox does) and recent
 * conversations (topics and DM conversations by newest message, filtered). Built from the engine's
 * `unreadCounts`, `channels` and `dmConversations` answers.
 */
import type { ChannelSummary, DmConversation, UnreadCountsView } from '../../../sync/protocol/commands.js';
import type { NarrowTarget } from '../data/target.js';
import { isTopicMuted } from '../data/channels-reducer.js';
import { dmNames, dmTarget } from '../data/dms.js';
import { byName } from '../kit/collate.js';

/** Topic names compare without case, as the server does. */
const topicKey = (channelId: number, topic: string) => `${channelId}\u0000${topic.toLowerCase()}`;

export interface InboxDm {
  key: string;
  names: string;
  target: NarrowTarget;
  /** The narrow `updateMessageFlagsForNarrow` takes for it: every participant, as the engine keys it. */
  userIds: number[];
  count: number;
  mentions: number;
  maxId: number;
}

export interface InboxTopic {
  /** The row's identity in the view's keyed store (the topic: one per channel). */
  key: string;
  topic: string;
  count: number;
  mentions: number;
  maxId: number;
}

export interface InboxChannel {
  /** The group's identity in the view's keyed store. */
  key: string;
  channelId: number;
  name: string;
  color: string | null;
  count: number;
  topics: InboxTopic[];
}

export interface Inbox {
  dms: InboxDm[];
  channels: InboxChannel[];
}

/**
 * The inbox: DM conversations with unread messages, newest first; then subscribed channels (by
 * name) with their unread topics (newest first), muted topics (and muted channels' topics not
 * unmuted or followed) left out. A DM the conversation list does not know yet is still shown, by
 * its ids. `ownUserId` names the notes-to-self conversation's participant when only its key is known.
 */
export function inboxOf(
  unread: Pick<UnreadCountsView, 'topics' | 'dms'>,
  channels: readonly ChannelSummary[],
  conversations: readonly DmConversation[],
  ownUserId: number | null,
): Inbox {
  const convByKey = new Map(conversations.map((c) => [c.key, c]));
  const dms: InboxDm[] = [];
  for (const d of unread.dms) {
    if (d.count <= 0) continue;
    const conv = convByKey.get(d.key);
    const userIds = conv?.user_ids ?? d.key.split(',').map(Number).filter((n) => Number.isSafeInteger(n) && n > 0);
    if (userIds.length === 0) continue;
    const others = userIds.filter((id) => id !== ownUserId);
    const participants = conv?.participants ?? (others.length > 0 ? others : userIds).map((user_id) => ({ user_id, full_name: null }));
    // Fresh arrays: the view keeps these rows in a store of its own (kit/keyed-store.ts), never the engine's objects.
    dms.push({ key: d.key, names: dmNames({ participants }), target: dmTarget({ participants, user_ids: userIds }), userIds: [...userIds], count: d.count, mentions: d.mentions, maxId: conv?.max_message_id ?? 0 });
  }
  dms.sort((a, b) => b.maxId - a.maxId || a.key.localeCompare(b.key));

  const subscribed = new Map(channels.filter((c) => c.is_subscribed).map((c) => [c.channel_id, c]));
  const newest = new Map<string, number>();
  for (const c of subscribed.values()) for (const t of c.topics) newest.set(topicKey(c.channel_id, t.topic), t.max_message_id);
  const groups = new Map<number, InboxChannel>();
  for (const t of unread.topics) {
    const c = subscribed.get(t.channel_id);
    if (!c || t.muted || t.count <= 0) continue;
    let g = groups.get(c.channel_id);
    if (!g) groups.set(c.channel_id, (g = { key: `c${c.channel_id}`, channelId: c.channel_id, name: c.name, color: c.color, count: 0, topics: [] }));
    g.count += t.count;
    g.topics.push({ key: t.topic, topic: t.topic, count: t.count, mentions: t.mentions, maxId: newest.get(topicKey(c.channel_id, t.topic)) ?? 0 });
  }
  const list = [...groups.values()].sort(byName);
  for (const g of list) g.topics.sort((a, b) => b.maxId - a.maxId || a.topic.localeCompare(b.topic));
  return { dms, channels: list };
}

export type RecentFilter = 'all' | 'unread' | 'dms';

export type RecentRow =
  | { kind: 'topic'; key: string; channelId: number; channelName: string; color: string | null; topic: string; maxId: number; unread: number; timestamp: number | null }
  | { kind: 'dm'; key: string; names: string; target: NarrowTarget; maxId: number; unread: number; timestamp: number | null };

/**
 * Recent conversations: topics of subscribed channels and DM conversations, newest message first
 * (message ids grow with time), muted topics left out as Zulip's default does. `unread` keeps those
 * with unread messages; `dms` the DM conversations only. Every row carries its newest message's
 * time (UNIX seconds) when the device holds that message, else null.
 */
export function recentOf(channels: readonly ChannelSummary[], conversations: readonly DmConversation[], filter: RecentFilter): RecentRow[] {
  const rows: RecentRow[] = [];
  if (filter !== 'dms') {
    for (const c of channels) {
      if (!c.is_subscribed) continue;
      for (const t of c.topics) {
        if (isTopicMuted(c, t)) continue;
        rows.push({ kind: 'topic', key: `t:${topicKey(c.channel_id, t.topic)}`, channelId: c.channel_id, channelName: c.name, color: c.color, topic: t.topic, maxId: t.max_message_id, unread: t.unread_count, timestamp: t.last_message_timestamp ?? null });
      }
    }
  }
  for (const d of conversations) {
    rows.push({ kind: 'dm', key: `d:${d.key}`, names: dmNames(d), target: dmTarget(d), maxId: d.max_message_id, unread: d.unread_count, timestamp: d.last_message_timestamp });
  }
  const kept = filter === 'unread' ? rows.filter((r) => r.unread > 0) : rows;
  return kept.sort((a, b) => b.maxId - a.maxId || a.key.localeCompare(b.key));
}
