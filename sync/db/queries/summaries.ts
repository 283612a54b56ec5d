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

/**
 * The unread summaries of the groups `where` picks (all of one kind when it is empty), computed
 * from the rows as 0009's rebuild computes them, in two statements per kind that each read an index
 * in its order (no sort of 100,000 rows): the server rows of messages not cached, then the cached
 * unread messages (not echoes) merged in.
 */
const unreadGroups = (topic: boolean, where: string) => {
  const pick = `${topic ? 'channel_id IS NOT NULL' : 'channel_id IS NULL AND dm_key IS NOT NULL'}${where === '' ? '' : ` AND ${where}`}`;
  const select = `INSERT INTO unread_summary (channel_id, topic_key, dm_key, count, personal_mentions, wildcard_mentions, last_id, topic)
    SELECT ${topic ? "channel_id, topic_key, ''" : "0, '', dm_key"}, ${SUMS}`;
  const group = `GROUP BY ${topic ? 'channel_id, topic_key' : 'dm_key'}`;
  return `
    ${select}, ${topic ? 'max(message_id), topic' : "0, ''"} FROM server_unreads x INDEXED BY ${topic ? 'server_unreads_by_topic' : 'server_unreads_by_dm'}
     WHERE ${pick} AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = x.message_id) ${group};
    ${select}, ${topic ? 'max(id), topic' : "0, ''"} FROM messages x INDEXED BY ${topic ? 'messages_unread_by_topic' : 'messages_by_dm'}
     WHERE ${pick} AND (flags & 1) = 0 AND id < ${ECHO} ${group}
    ON CONFLICT DO UPDATE SET count = count + excluded.count, personal_mentions = personal_mentions + excluded.personal_mentions,
      wildcard_mentions = wildcard_mentions + excluded.wildcard_mentions,
      topic = CASE WHEN excluded.last_id > last_id THEN excluded.topic ELSE topic END, last_id = max(last_id, excluded.last_id);`;
};
/** Each statement of `unreadGroups`, one by one (a prepared statement is one statement). */
const statementsOf = (sql: string) => sql.split(';').map((q) => q.trim()).filter((q) => q !== '');
/**
 * The groups of `rebuildSummaryGroups`, a JSON array of `[channel_id, topic_key, dm_key]` bound as
 * `@groups` (unread summaries) or `@topics` (cached topics): each statement below handles every
 * group at once, an index seek per group (a history batch touches hundreds of topics; five
 * statements per group cost two thirds of storing the batch).
 */
const groupsOf = (param: string, columns: string, where = '') => `(SELECT ${columns} FROM json_each(${param})${where})`;
const GROUPS_UNREAD = [
  `DELETE FROM unread_summary WHERE (channel_id, topic_key, dm_key) IN ${groupsOf('@groups', 'value ->> 0, value ->> 1, value ->> 2')}`,
  ...statementsOf(unreadGroups(true, `(channel_id, topic_key) IN ${groupsOf('@groups', 'value ->> 0, value ->> 1', ' WHERE value ->> 0 != 0')}`)),
  ...statementsOf(unreadGroups(false, `dm_key IN ${groupsOf('@groups', 'value ->> 2', ' WHERE value ->> 0 = 0')}`)),
];
const TOPICS_CACHED = [
  `DELETE FROM cached_topics WHERE (channel_id, topic_key) IN ${groupsOf('@topics', 'value ->> 0, value ->> 1')}`,
  `INSERT INTO cached_topics (channel_id, topic_key, max_id, topic, ts)
   SELECT m.channel_id, m.topic_key, m.id, m.topic, json_extract(m.json, '$.timestamp') FROM json_each(@topics) t
     JOIN messages m ON m.id = (SELECT id FROM messages INDEXED BY messages_by_topic_key
      WHERE channel_id = t.value ->> 0 AND topic_key = t.value ->> 1 ORDER BY id DESC LIMIT 1)`,
];

/** Compute the unread summaries of `groups` (and `cached_topics` of the topics among `topics`) again from the rows. */
export function rebuildSummaryGroups(db: LocalDb, groups: Iterable<SummaryGroup>, topics: Iterable<SummaryGroup> = []): void {
  const json = (gs: readonly SummaryGroup[]) => JSON.stringify(gs.map((g) => [g.channel_id, g.topic_key, g.dm_key]));
  const unread = uniqueGroups(groups);
  const cached = uniqueGroups(topics).filter((g) => g.channel_id !== 0);
  if (unread.length > 0) runAll(db, GROUPS_UNREAD, { groups: json(unread) });
  if (cached.length > 0) runAll(db, TOPICS_CACHED, { topics: json(cached) });
}

const runAll = (db: LocalDb, statements: readonly string[], params: Record<string, string>) => {
  for (const q of statements) cachedStatement(db, q).run(params);
};

const UNREAD_REBUILD_BY_INDEX = `DELETE FROM unread_summary; ${unreadGroups(true, '')} ${unreadGroups(false, '')}`;

/** Every unread summary again (after the server's whole unread set was replaced). */
export function rebuildUnreadSummary(db: LocalDb): void {
  db.exec(UNREAD_REBUILD_BY_INDEX);
}

function uniqueGroups(groups: Iterable<SummaryGroup>): SummaryGroup[] {
  const seen = new Map<string, SummaryGroup>();
  for (const g of groups) seen.set(`${g.channel_id}\u0000${g.topic_key}\u0000${g.dm_key}`, g);
  return [...seen.values()];
}
