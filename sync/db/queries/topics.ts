/**
 * Topic lists and unread counts. A channel's topics are those of its cached messages, of the
 * server's stored topic list (server-topics.ts) and of its unread messages the cache does not
 * hold (unreads.ts), merged by topic key (the server's case folding); each topic's newest known
 * spelling is shown. Unread counts come from `unread` (unreads.ts: the cache where it holds the
 * message, the server's unread set where it does not).
 */
import type { LocalDb } from '../open.js';
import { cachedStatement } from './statements.js';
import { exclusionsApply, NO_EXCLUSIONS, serverUnreadsKnown, starredCount, unreadCte, unreadDms, unreadTopics, type UnreadExclusions } from './unreads.js';

export interface TopicSummary {
  readonly topic: string;
  readonly topic_key: string;
  readonly last_message_id: number;
  /** UNIX seconds of the newest message, when the cache holds it (null: known from the server's lists only). */
  readonly last_message_timestamp: number | null;
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

function prepare<R>(db: LocalDb, sql: string, ex: UnreadExclusions) {
  // Narrow exclusions make one-off SQL: keep those out of the statement cache.
  return ex.narrows.length === 0 ? cachedStatement<unknown[], R>(db, sql) : db.prepare<unknown[], R>(sql);
}

/**
 * The merged topics of one channel, or of every channel, newest first. Unread messages not cached
 * name their topic even while a pending read hides their count. A stored server entry whose
 * newest message the cache holds elsewhere now (moved since) is left out: the topic shows again
 * through the cache or the next fetch if it still has messages.
 */
export function topicRows(db: LocalDb, ex: UnreadExclusions, channelId?: number): Array<TopicSummary & { channel_id: number }> {
  // The summaries (migration 0009) answer, unless pending rows hide some server row's count.
  const scan = exclusionsApply(db, ex);
  const cte = scan ? unreadCte(ex) : { sql: 'unused AS (SELECT 1)', params: [] };
  const only = (col: string) => (channelId === undefined ? '' : ` AND ${col} = @c`);
  // A topic's newest unread message (`unread_summary.last_id`) is cached, so no newer than the
  // cached newest, or a server row: the same newest as each server row taken alone. A newest
  // message cached is the topic's newest cached one (a stored server entry's newest cached
  // elsewhere is left out), so `cached_topics` has its timestamp.
  const sql = `WITH ${cte.sql},
    known AS (
      SELECT g.channel_id, g.topic_key, g.topic, g.max_id FROM cached_topics g WHERE 1${only('g.channel_id')}
      UNION ALL
      SELECT s.channel_id, s.topic_key, s.topic, s.max_id FROM server_topics s
       WHERE 1${only('s.channel_id')} AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = s.max_id AND (m.channel_id IS NOT s.channel_id OR m.topic_key != s.topic_key))
      UNION ALL
      SELECT u.channel_id, u.topic_key, u.topic, u.last_id FROM unread_summary u WHERE u.channel_id != 0${only('u.channel_id')}
    ),
    merged AS (SELECT channel_id, topic_key, topic, max(max_id) AS max_id FROM known GROUP BY channel_id, topic_key),
    counts AS (${
      scan
        ? `SELECT channel_id, topic_key, count(*) AS n FROM unread WHERE channel_id IS NOT NULL${only('channel_id')} GROUP BY channel_id, topic_key`
        : `SELECT channel_id, topic_key, count AS n FROM unread_summary WHERE channel_id != 0${only('channel_id')}`
    })
    SELECT k.channel_id, k.topic, k.topic_key, k.max_id AS last_message_id,
           CASE WHEN lm.max_id = k.max_id THEN lm.ts END AS last_message_timestamp, coalesce(c.n, 0) AS unread_count,
           coalesce(ut.visibility_policy, 0) AS visibility_policy
      FROM merged k
      LEFT JOIN cached_topics lm ON lm.channel_id = k.channel_id AND lm.topic_key = k.topic_key
      LEFT JOIN counts c ON c.channel_id = k.channel_id AND c.topic_key = k.topic_key
      LEFT JOIN user_topics ut ON ut.channel_id = k.channel_id AND ut.topic_key = k.topic_key
     ORDER BY k.max_id DESC`;
  const stmt = prepare<TopicSummary & { channel_id: number }>(db, sql, ex);
  return channelId === undefined ? stmt.all(...cte.params) : stmt.all({ c: channelId }, ...cte.params);
}

/** Every known channel with its topics. */
export function channelsWithTopics(db: LocalDb, ex: UnreadExclusions = NO_EXCLUSIONS): ChannelTopics[] {
  const channels = cachedStatement<[], { id: number; name: string; subscribed: number; is_muted: number }>(
    db,
    `SELECT c.id, c.name, s.channel_id IS NOT NULL AS subscribed, coalesce(s.is_muted, 0) AS is_muted
     FROM channels c LEFT JOIN subscriptions s ON s.channel_id = c.id ORDER BY c.name`,
  ).all();
  const byChannel = new Map<number, TopicSummary[]>();
  for (const { channel_id, ...t } of topicRows(db, ex)) {
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
export function topicsOf(db: LocalDb, channelId: number, ex: UnreadExclusions = NO_EXCLUSIONS): TopicSummary[] {
  return topicRows(db, ex, channelId).map(({ channel_id: _c, ...t }) => t);
}

/** Zulip's rule: a muted topic, or any topic of a muted channel unless unmuted or followed. */
export function isMutedTopic(channelMuted: boolean, policy: number): boolean {
  return policy === 1 || (channelMuted && policy !== 2 && policy !== 3);
}

export interface UnreadCounts {
  /** Unread in subscribed channels outside muted topics and channels, plus every DM (Zulip's "all unread"). */
  readonly total: number;
  /** Unread personal mentions anywhere, and wildcard mentions outside muted topics (subscribed channels, DMs). */
  readonly mentions: number;
  /** Unread in followed topics of subscribed channels. */
  readonly followed: number;
  readonly starred: number;
  readonly channels: Array<{ channel_id: number; count: number; unmuted_count: number }>;
  readonly topics: Array<{ channel_id: number; topic: string; count: number; mentions: number; muted: boolean }>;
  /** Keyed like `messages.dm_key`: sorted participant ids, self included. */
  readonly dms: Array<{ dm_key: string; count: number; mentions: number }>;
  /** The server's whole unread set is known (register stored it, not truncated). */
  readonly complete: boolean;
}

export function unreadCounts(db: LocalDb, ex: UnreadExclusions = NO_EXCLUSIONS, pendingStars: ReadonlyMap<number, boolean> = new Map()): UnreadCounts {
  const subs = new Map(
    cachedStatement<[], { channel_id: number; is_muted: number }>(db, 'SELECT channel_id, is_muted FROM subscriptions').all().map((s) => [s.channel_id, s.is_muted === 1]),
  );
  const policies = new Map(
    cachedStatement<[], { channel_id: number; topic_key: string; visibility_policy: number }>(db, 'SELECT channel_id, topic_key, visibility_policy FROM user_topics').all().map(
      (u) => [`${u.channel_id}\u0000${u.topic_key}`, u.visibility_policy],
    ),
  );
  let total = 0;
  let mentions = 0;
  let followed = 0;
  const channels = new Map<number, { channel_id: number; count: number; unmuted_count: number }>();
  const topics: UnreadCounts['topics'] = [];
  for (const t of unreadTopics(db, ex).sort((a, b) => a.channel_id - b.channel_id || (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : 0))) {
    const policy = policies.get(`${t.channel_id}\u0000${t.topic_key}`) ?? 0;
    const muted = isMutedTopic(subs.get(t.channel_id) ?? false, policy);
    const topicMentions = t.personal_mentions + (muted ? 0 : t.wildcard_mentions);
    topics.push({ channel_id: t.channel_id, topic: t.topic, count: t.count, mentions: topicMentions, muted });
    let c = channels.get(t.channel_id);
    if (!c) channels.set(t.channel_id, (c = { channel_id: t.channel_id, count: 0, unmuted_count: 0 }));
    c.count += t.count;
    if (!muted) c.unmuted_count += t.count;
    if (!subs.has(t.channel_id)) continue;
    if (!muted) total += t.count;
    if (policy === 3) followed += t.count;
    mentions += topicMentions;
  }
  const dms = unreadDms(db, ex)
    .sort((a, b) => (a.dm_key < b.dm_key ? -1 : a.dm_key > b.dm_key ? 1 : 0))
    .map((d) => ({ dm_key: d.dm_key, count: d.count, mentions: d.personal_mentions + d.wildcard_mentions }));
  for (const d of dms) {
    total += d.count;
    mentions += d.mentions;
  }
  return { total, mentions, followed, starred: starredCount(db, pendingStars), channels: [...channels.values()], topics, dms, complete: serverUnreadsKnown(db) };
}
