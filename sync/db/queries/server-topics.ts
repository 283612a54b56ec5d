/**
 * A channel's topic list as the server gave it (`GET /users/me/{stream_id}/topics`), kept so the
 * complete list answers offline. The cache adds what arrived since (new messages are cached), so
 * the stored list only goes wrong when topics lose messages: moves and deletions, or events missed
 * while the queue was lost. Those bump the channel's `version`; the list is current while
 * `fetched_version = version`, and a fetch that started before a bump stores its answer as stale.
 */
import { topicKey } from '../../api/index.js';
import type { LocalDb } from '../open.js';
import { cachedStatement } from './statements.js';

export interface TopicListState {
  /** The server's list was stored at least once. */
  readonly fetched: boolean;
  /** ... and nothing since may have made it wrong. */
  readonly current: boolean;
  /** UNIX ms of the last stored answer. */
  readonly fetched_at: number | null;
  /** Pass to `storeServerTopics` with the answer of a fetch started now. */
  readonly version: number;
}

export function topicListState(db: LocalDb, channelId: number): TopicListState {
  const r = cachedStatement<[number], { version: number; fetched_version: number | null; fetched_at: number | null }>(db, 'SELECT version, fetched_version, fetched_at FROM server_topic_lists WHERE channel_id = ?').get(channelId);
  if (!r) return { fetched: false, current: false, fetched_at: null, version: 0 };
  return { fetched: r.fetched_version !== null, current: r.fetched_version === r.version, fetched_at: r.fetched_at, version: r.version };
}

/** Store a fetched list (replacing the channel's stored one), as of `version` (read before the request). */
export function storeServerTopics(db: LocalDb, channelId: number, topics: ReadonlyArray<{ name: string; max_id: number }>, version: number, now: number): void {
  db.transaction(() => {
    cachedStatement(db, 'DELETE FROM server_topics WHERE channel_id = ?').run(channelId);
    const ins = cachedStatement(db, 'INSERT INTO server_topics (channel_id, topic_key, topic, max_id) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET topic = excluded.topic, max_id = excluded.max_id WHERE excluded.max_id > max_id');
    for (const t of topics) ins.run(channelId, topicKey(t.name), t.name, t.max_id);
    cachedStatement(
      db,
      `INSERT INTO server_topic_lists (channel_id, version, fetched_version, fetched_at) VALUES (@c, @v, @v, @now)
       ON CONFLICT (channel_id) DO UPDATE SET fetched_version = @v, fetched_at = @now`,
    ).run({ c: channelId, v: version, now });
  })();
}

/** Something may have removed topics of these channels (or added ones the cache does not hold). */
export function invalidateServerTopics(db: LocalDb, channelIds: Iterable<number>): void {
  const bump = cachedStatement(db, 'INSERT INTO server_topic_lists (channel_id, version) VALUES (?, 1) ON CONFLICT (channel_id) DO UPDATE SET version = version + 1');
  for (const id of new Set(channelIds)) bump.run(id);
}

/** Events were missed (a lost queue): every stored list may be wrong. */
export function invalidateAllServerTopics(db: LocalDb): void {
  cachedStatement(db, 'UPDATE server_topic_lists SET version = version + 1').run();
}

/** Channels whose stored list names one of `ids` as its newest message (a deletion may empty that topic). */
export function channelsListingMaxIds(db: LocalDb, ids: readonly number[]): number[] {
  if (ids.length === 0) return [];
  return cachedStatement<[string], number>(db, 'SELECT DISTINCT channel_id FROM server_topics WHERE max_id IN (SELECT value FROM json_each(?))').pluck().all(JSON.stringify(ids));
}
