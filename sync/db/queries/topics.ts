/**
 * Topic lists and unread counts computed from the cached messages (so they are as complete as the
 * cache; unread state comes from register's `unread_msgs` reconciled onto cached messages).
 */
import { FLAG } from '../flags.js';
import type { LocalDb } from '../open.js';
import { cachedStatement } from './statements.js';

export interface TopicSummary {
  readonly topic: string;
  readonly last_message_id: number;
  readonly unread_count: number;
  /** 0 none, 1 muted, 2 unmuted, 3 followed. */
  readonly visibility_policy: number;
}

export interface ChannelTopics {
  readonly channel_id: number;
  readonly name: string;
  readonly subscribed: boolean;
  readonly is_muted: boolean;
  /** Newest first. */
  readonly topics: TopicSummary[];
}

/** Every known channel with the topics of its cached messages. */
export function channelsWithTopics(db: LocalDb): ChannelTopics[] {
  const channels = cachedStatement(
    db,
    `SELECT c.id, c.name, s.channel_id IS NOT NULL AS subscribed, coalesce(s.is_muted, 0) AS is_muted
     FROM channels c LEFT JOIN subscriptions s ON s.channel_id = c.id ORDER BY c.name`,
  ).all() as Array<{ id: number; name: string; subscribed: number; is_muted: number }>;
  // Topics compare case-insensitively (as the server's topic narrow); the newest spelling is shown.
  const rows = cachedStatement(
    db,
    `SELECT g.channel_id, g.last_message_id, g.unread_count, m.topic, coalesce(ut.visibility_policy, 0) AS visibility_policy
     FROM (SELECT channel_id, max(id) AS last_message_id, sum((flags & ${FLAG.read}) = 0) AS unread_count
           FROM messages WHERE channel_id IS NOT NULL GROUP BY channel_id, topic COLLATE NOCASE) g
     JOIN messages m ON m.id = g.last_message_id
     LEFT JOIN user_topics ut ON ut.channel_id = g.channel_id AND ut.topic = m.topic
     ORDER BY g.last_message_id DESC`,
  ).all() as Array<TopicSummary & { channel_id: number }>;
  const byChannel = new Map<number, TopicSummary[]>();
  for (const { channel_id, ...t } of rows) {
    let list = byChannel.get(channel_id);
    if (!list) byChannel.set(channel_id, (list = []));
    list.push(t);
  }
  return channels.map((c) => ({
    channel_id: c.id,
    name: c.name,
    subscribed: c.subscribed === 1,
    is_muted: c.is_muted === 1,
    topics: byChannel.get(c.id) ?? [],
  }));
}

/** The topics of one channel, newest first. */
export function topicsOf(db: LocalDb, channelId: number): TopicSummary[] {
  return channelsWithTopics(db).find((c) => c.channel_id === channelId)?.topics ?? [];
}

export interface UnreadCounts {
  readonly total: number;
  readonly mentions: number;
  readonly channels: Array<{ channel_id: number; count: number }>;
  readonly topics: Array<{ channel_id: number; topic: string; count: number }>;
  /** Keyed like `messages.dm_key`: sorted participant ids, self included. */
  readonly dms: Array<{ dm_key: string; count: number }>;
}

const MENTION_BITS = FLAG.mentioned | FLAG.stream_wildcard_mentioned | FLAG.topic_wildcard_mentioned;

export function unreadCounts(db: LocalDb): UnreadCounts {
  const unread = `(flags & ${FLAG.read}) = 0`;
  const total = cachedStatement(db, `SELECT count(*) FROM messages WHERE ${unread}`).pluck().get() as number;
  const mentions = cachedStatement(db, `SELECT count(*) FROM messages WHERE ${unread} AND (flags & ${MENTION_BITS}) != 0`).pluck().get() as number;
  const topics = cachedStatement(
    db,
    `SELECT g.channel_id, m.topic, g.count
     FROM (SELECT channel_id, max(id) AS last_id, count(*) AS count FROM messages
           WHERE ${unread} AND channel_id IS NOT NULL GROUP BY channel_id, topic COLLATE NOCASE) g
     JOIN messages m ON m.id = g.last_id ORDER BY g.channel_id, m.topic`,
  ).all() as Array<{ channel_id: number; topic: string; count: number }>;
  const channels = new Map<number, number>();
  for (const t of topics) channels.set(t.channel_id, (channels.get(t.channel_id) ?? 0) + t.count);
  const dms = cachedStatement(
    db,
    `SELECT dm_key, count(*) AS count FROM messages WHERE ${unread} AND dm_key IS NOT NULL GROUP BY dm_key ORDER BY dm_key`,
  ).all() as Array<{ dm_key: string; count: number }>;
  return {
    total,
    mentions,
    channels: [...channels].map(([channel_id, count]) => ({ channel_id, count })),
    topics,
    dms,
  };
}
