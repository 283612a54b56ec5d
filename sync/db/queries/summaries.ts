/**
 * Bulk writes with the summaries' triggers paused (migration 0010): the write runs while
 * `summary_paused` has a row, then the summary rows of every group it touched are computed again
 * from the rows, as 0009's rebuild computes them, in the same transaction. A history batch or
 * register's unread set then costs one statement per group instead of trigger work per row (and a
 * busy topic's batch no longer walks its server rows once per message to find its newest unread).
 */
import { columnsOf, ECHO, personal, wildcard } from '../migrations/0009-unread-summary.js';
import type { LocalDb } from '../open.js';
import { cachedStatement } from './statements.js';

/** A channel topic (`dm_key` '') or a DM conversation (`channel_id` 0, `topic_key` ''), as `unread_summary` keys them. */
export interface SummaryGroup {
  readonly channel_id: number;
  readonly topic_key: string;
  readonly dm_key: string;
}

/** Where a row (a message's or a server row's columns) is counted, if anywhere. */
export function groupOf(r: { channel_id: number | null; topic_key: string | null; dm_key: string | null }): SummaryGroup | undefined {
  if (r.channel_id !== null) return { channel_id: r.channel_id, topic_key: r.topic_key ?? '', dm_key: '' };
  return r.dm_key === null ? undefined : { channel_id: 0, topic_key: '', dm_key: r.dm_key };
}

/**
 * Run `write` with the summaries' triggers paused (a row of its own in `summary_paused`, so pauses
 * nest), then `rebuild` what it touched, in one transaction: a failed write rolls the pause back
 * with everything else.
 */
export function withSummariesPaused<T>(db: LocalDb, write: () => T, rebuild: () => void): T {
  return db.transaction(() => {
    const id = cachedStatement<[], number>(db, 'INSERT INTO summary_paused DEFAULT VALUES RETURNING id').pluck().get();
    const out = write();
    cachedStatement(db, 'DELETE FROM summary_paused WHERE id = ?').run(id);
    rebuild();
    return out;
  })();
}

const x = columnsOf('x');
const SUMS = `count(*), sum(${personal(x)}), sum(${wildcard(x)})`;
const NOT_CACHED = 'NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = u.message_id)';

/** A topic's unread summary from its rows: cached unread (not echoes) and server rows of messages not cached. */
const TOPIC_UNREAD = `
  INSERT INTO unread_summary (channel_id, topic_key, dm_key, count, personal_mentions, wildcard_mentions, last_id, topic)
  SELECT @c, @k, '', ${SUMS}, max(x.id), x.topic FROM (
    SELECT id, flags, topic FROM messages INDEXED BY messages_unread_by_topic WHERE channel_id = @c AND topic_key = @k AND (flags & 1) = 0 AND id < ${ECHO}
    UNION ALL
    SELECT u.message_id, u.flags, u.topic FROM server_unreads u WHERE u.channel_id = @c AND u.topic_key = @k AND ${NOT_CACHED}
  ) x HAVING count(*) > 0`;
const DM_UNREAD = `
  INSERT INTO unread_summary (channel_id, topic_key, dm_key, count, personal_mentions, wildcard_mentions, last_id, topic)
  SELECT 0, '', @d, ${SUMS}, 0, '' FROM (
    SELECT flags FROM messages INDEXED BY messages_by_dm WHERE dm_key = @d AND channel_id IS NULL AND (flags & 1) = 0 AND id < ${ECHO}
    UNION ALL
    SELECT u.flags FROM server_unreads u INDEXED BY server_unreads_by_dm WHERE u.dm_key = @d AND u.channel_id IS NULL AND ${NOT_CACHED}
  ) x HAVING count(*) > 0`;
const TOPIC_CACHED = `
  INSERT INTO cached_topics (channel_id, topic_key, max_id, topic, ts)
  SELECT channel_id, topic_key, id, topic, json_extract(json, '$.timestamp') FROM messages INDEXED BY messages_by_topic_key
   WHERE channel_id = @c AND topic_key = @k ORDER BY id DESC LIMIT 1`;

/** Compute the unread summaries of `groups` (and `cached_topics` of the topics among `topics`) again from the rows. */
export function rebuildSummaryGroups(db: LocalDb, groups: Iterable<SummaryGroup>, topics: Iterable<SummaryGroup> = []): void {
  const del = cachedStatement(db, 'DELETE FROM unread_summary WHERE channel_id = ? AND topic_key = ? AND dm_key = ?');
  for (const g of uniqueGroups(groups)) {
    del.run(g.channel_id, g.topic_key, g.dm_key);
    if (g.channel_id !== 0) cachedStatement(db, TOPIC_UNREAD).run({ c: g.channel_id, k: g.topic_key });
    else cachedStatement(db, DM_UNREAD).run({ d: g.dm_key });
  }
  for (const g of uniqueGroups(topics)) {
    if (g.channel_id === 0) continue;
    cachedStatement(db, 'DELETE FROM cached_topics WHERE channel_id = ? AND topic_key = ?').run(g.channel_id, g.topic_key);
    cachedStatement(db, TOPIC_CACHED).run({ c: g.channel_id, k: g.topic_key });
  }
}

/**
 * Every unread summary again (after the server's whole unread set was replaced): what 0009's
 * rebuild computes, in four groupings that each read an index in its order (no sort of 100,000
 * rows): the server rows of messages not cached per topic and per conversation, then the cached
 * unread messages merged in.
 */
const SERVER_GROUPS = (topic: boolean) => `
  INSERT INTO unread_summary (channel_id, topic_key, dm_key, count, personal_mentions, wildcard_mentions, last_id, topic)
  SELECT ${topic ? "channel_id, topic_key, ''" : "0, '', dm_key"}, ${SUMS}, ${topic ? 'max(message_id), topic' : "0, ''"}
    FROM server_unreads x INDEXED BY ${topic ? 'server_unreads_by_topic' : 'server_unreads_by_dm'}
   WHERE ${topic ? 'channel_id IS NOT NULL' : 'channel_id IS NULL AND dm_key IS NOT NULL'} AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = x.message_id)
   GROUP BY ${topic ? 'channel_id, topic_key' : 'dm_key'};`;
const CACHED_GROUPS = (topic: boolean) => `
  INSERT INTO unread_summary (channel_id, topic_key, dm_key, count, personal_mentions, wildcard_mentions, last_id, topic)
  SELECT ${topic ? "channel_id, topic_key, ''" : "0, '', dm_key"}, ${SUMS}, ${topic ? 'max(id), topic' : "0, ''"}
    FROM messages x INDEXED BY ${topic ? 'messages_unread_by_topic' : 'messages_by_dm'}
   WHERE ${topic ? 'channel_id IS NOT NULL' : 'channel_id IS NULL AND dm_key IS NOT NULL'} AND (flags & 1) = 0 AND id < ${ECHO}
   GROUP BY ${topic ? 'channel_id, topic_key' : 'dm_key'}
  ON CONFLICT DO UPDATE SET count = count + excluded.count, personal_mentions = personal_mentions + excluded.personal_mentions,
    wildcard_mentions = wildcard_mentions + excluded.wildcard_mentions,
    topic = CASE WHEN excluded.last_id > last_id THEN excluded.topic ELSE topic END, last_id = max(last_id, excluded.last_id);`;
const UNREAD_REBUILD_BY_INDEX = `DELETE FROM unread_summary; ${SERVER_GROUPS(true)} ${SERVER_GROUPS(false)} ${CACHED_GROUPS(true)} ${CACHED_GROUPS(false)}`;

export function rebuildUnreadSummary(db: LocalDb): void {
  db.exec(UNREAD_REBUILD_BY_INDEX);
}

function uniqueGroups(groups: Iterable<SummaryGroup>): SummaryGroup[] {
  const seen = new Map<string, SummaryGroup>();
  for (const g of groups) seen.set(`${g.channel_id}\u0000${g.topic_key}\u0000${g.dm_key}`, g);
  return [...seen.values()];
}
