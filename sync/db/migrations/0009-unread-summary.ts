/**
 * 0009: unread counts and topic lists answered from summaries kept by triggers, instead of
 * scanning every unread message (100,000 in a large organisation) and every cached message.
 *
 *  - `unread_summary`: one row per channel topic (`channel_id`, `topic_key`, `dm_key` = '') and per
 *    DM conversation (`channel_id` = 0, `topic_key` = '', `dm_key`) with unread messages: their
 *    count, personal mentions, wildcard-only mentions, and for a topic the newest unread id and its
 *    spelling. "Unread" is db/queries/unreads.ts's union: a cached message (below the local-echo
 *    ids) by its own `read` bit, a message not cached by its `server_unreads` row. No row for a
 *    group with nothing unread.
 *  - `cached_topics`: each channel topic's newest cached message: its id, spelling and timestamp.
 *  - `messages_unread_by_topic`: a partial index that finds a topic's next newest unread message.
 *
 * Triggers on `messages` and `server_unreads` keep both exact in the transaction that changes the
 * rows (new, edited, moved, deleted, marked read or unread, mentions changed; a server row stops
 * counting when its message is cached, and counts again when the cached one goes). They fire on
 * INSERT, UPDATE and DELETE, not on the deletion an `INSERT OR REPLACE` makes (SQLite runs no delete
 * triggers there), so both tables are written with `ON CONFLICT DO UPDATE` instead.
 *
 * Both are rebuilt from the rows here (idempotent: a file whose version was inferred runs it again)
 * and are cache tables: a recovered database starts with neither messages nor server rows, so
 * empty summaries are exact.
 */
import type { Migration } from './types.js';

/** Local echoes (db/queries/messages.ts LOCAL_ECHO_MIN_ID) never count as unread. */
export const ECHO = 2 ** 52;

/** A row that may count, as SQL expressions (of NEW / OLD, or subqueries): every statement below is a lookup by key. */
export interface Row {
  readonly id: string;
  readonly channel_id: string;
  readonly topic_key: string;
  readonly dm_key: string;
  readonly flags: string;
  readonly topic: string;
}
export const columnsOf = (r: string): Row => ({ id: `${r}.id`, channel_id: `${r}.channel_id`, topic_key: `${r}.topic_key`, dm_key: `${r}.dm_key`, flags: `${r}.flags`, topic: `${r}.topic` });
const serverColumnsOf = (r: string): Row => ({ ...columnsOf(r), id: `${r}.message_id` });
/** The `server_unreads` row of message `id` (when the trigger's WHEN says there is one). */
const serverRowOf = (id: string): Row => {
  const col = (c: string) => `(SELECT ${c} FROM server_unreads WHERE message_id = ${id})`;
  return { id, channel_id: col('channel_id'), topic_key: col('topic_key'), dm_key: col('dm_key'), flags: col('flags'), topic: col('topic') };
};

const key = (r: Row) => ({
  channel_id: `coalesce(${r.channel_id}, 0)`,
  topic_key: `CASE WHEN ${r.channel_id} IS NULL THEN '' ELSE ${r.topic_key} END`,
  dm_key: `CASE WHEN ${r.channel_id} IS NULL THEN ${r.dm_key} ELSE '' END`,
});
const sameKey = (r: Row) => {
  const k = key(r);
  return `channel_id = ${k.channel_id} AND topic_key = ${k.topic_key} AND dm_key = ${k.dm_key}`;
};
const grouped = (r: Row) => `(${r.channel_id} IS NOT NULL OR ${r.dm_key} IS NOT NULL)`;
export const personal = (r: Row) => `((${r.flags} & 4) != 0)`;
export const wildcard = (r: Row) => `((${r.flags} & 4) = 0 AND (${r.flags} & 24) != 0)`;

/**
 * The newest unread message of topic (c, k) and its spelling (the cache's, or a server row's when
 * not cached). Only server rows newer than the newest cached unread can win: the walk over a busy
 * topic's server rows (mostly of cached messages) stops there.
 */
const newest = (c: string, k: string) => {
  const cached = `SELECT id, topic FROM messages INDEXED BY messages_unread_by_topic WHERE channel_id = ${c} AND topic_key = ${k} AND (flags & 1) = 0 AND id < ${ECHO} ORDER BY id DESC LIMIT 1`;
  return `SELECT id, topic FROM (
    SELECT * FROM (${cached})
    UNION ALL
    SELECT * FROM (SELECT u.message_id AS id, u.topic FROM server_unreads u WHERE u.channel_id = ${c} AND u.topic_key = ${k}
      AND u.message_id > coalesce((SELECT id FROM (${cached})), 0)
      AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = u.message_id) ORDER BY u.message_id DESC LIMIT 1)
  ) ORDER BY id DESC LIMIT 1`;
};

/** Count row `r` in its group. */
const add = (r: Row) => {
  const k = key(r);
  return `
  INSERT INTO unread_summary (channel_id, topic_key, dm_key, count, personal_mentions, wildcard_mentions, last_id, topic)
  SELECT ${k.channel_id}, ${k.topic_key}, ${k.dm_key}, 1, ${personal(r)}, ${wildcard(r)},
         CASE WHEN ${r.channel_id} IS NULL THEN 0 ELSE ${r.id} END, CASE WHEN ${r.channel_id} IS NULL THEN '' ELSE ${r.topic} END
   WHERE ${grouped(r)}
  ON CONFLICT DO UPDATE SET count = count + 1, personal_mentions = personal_mentions + excluded.personal_mentions,
    wildcard_mentions = wildcard_mentions + excluded.wildcard_mentions,
    topic = CASE WHEN excluded.last_id > last_id THEN excluded.topic ELSE topic END, last_id = max(last_id, excluded.last_id);`;
};

/** Stop counting row `r`: a group left empty goes; a topic's newest unread is found again when it was this one. */
const sub = (r: Row) => `
  UPDATE unread_summary SET count = count - 1, personal_mentions = personal_mentions - ${personal(r)}, wildcard_mentions = wildcard_mentions - ${wildcard(r)}
   WHERE ${sameKey(r)};
  DELETE FROM unread_summary WHERE ${sameKey(r)} AND count <= 0;
  UPDATE unread_summary SET (last_id, topic) = (${newest(r.channel_id, r.topic_key)})
   WHERE ${r.channel_id} IS NOT NULL AND ${sameKey(r)} AND last_id = ${r.id};`;

/** A `messages` row counts: cached, unread, not a local echo, in a topic or a conversation. */
const counted = (r: 'NEW' | 'OLD') => `((${r}.flags & 1) = 0 AND ${r}.id < ${ECHO} AND (${r}.channel_id IS NOT NULL OR ${r}.dm_key IS NOT NULL))`;
/** A `server_unreads` row counts: its message is not cached. */
const serverCounted = (r: 'NEW' | 'OLD') => `NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = ${r}.message_id)`;
const hasServerRow = (id: string) => `EXISTS (SELECT 1 FROM server_unreads WHERE message_id = ${id})`;

const topicAdd = `INSERT INTO cached_topics (channel_id, topic_key, max_id, topic, ts)
    SELECT NEW.channel_id, NEW.topic_key, NEW.id, NEW.topic, json_extract(NEW.json, '$.timestamp') WHERE NEW.channel_id IS NOT NULL
    ON CONFLICT DO UPDATE SET topic = CASE WHEN excluded.max_id >= max_id THEN excluded.topic ELSE topic END,
      ts = CASE WHEN excluded.max_id >= max_id THEN excluded.ts ELSE ts END, max_id = max(max_id, excluded.max_id);`;
const topicSub = `UPDATE cached_topics SET (max_id, topic, ts) = (SELECT id, topic, json_extract(json, '$.timestamp') FROM messages INDEXED BY messages_by_topic_key
      WHERE channel_id = OLD.channel_id AND topic_key = OLD.topic_key ORDER BY id DESC LIMIT 1)
    WHERE channel_id = OLD.channel_id AND topic_key = OLD.topic_key AND max_id = OLD.id;
  DELETE FROM cached_topics WHERE channel_id = OLD.channel_id AND topic_key = OLD.topic_key AND max_id IS NULL;`;

/** What counts of a message row changed (read, mention bits, where it is, its spelling). */
const COUNTED_CHANGE = `((OLD.flags & 29) != (NEW.flags & 29) OR OLD.channel_id IS NOT NEW.channel_id OR OLD.topic_key IS NOT NEW.topic_key
  OR OLD.dm_key IS NOT NEW.dm_key OR OLD.topic IS NOT NEW.topic)`;

const triggerSql = (name: string, on: string, when: string, body: string) => `
  DROP TRIGGER IF EXISTS ${name};
  CREATE TRIGGER ${name} AFTER ${on} WHEN ${when} BEGIN ${body} END;`;

/**
 * The tables, the index and the triggers. `live` (migration 0010), when given, is a condition every
 * trigger also needs: while it is false the summaries are not kept, and the writer rebuilds what it
 * touched (db/queries/summaries.ts).
 */
export const summarySchema = (live?: string): string => {
  const trigger = (name: string, on: string, when: string, body: string) => triggerSql(name, on, live === undefined ? when : `${live} AND (${when})`, body);
  return `
  CREATE TABLE IF NOT EXISTS unread_summary (
    channel_id         INTEGER NOT NULL,     -- 0 for a DM conversation
    topic_key          TEXT NOT NULL,        -- '' for a DM conversation
    dm_key             TEXT NOT NULL,        -- '' for a channel topic
    count              INTEGER NOT NULL,
    personal_mentions  INTEGER NOT NULL,     -- unread with the personal mention bit
    wildcard_mentions  INTEGER NOT NULL,     -- unread mentioned only by a wildcard
    last_id            INTEGER,              -- a topic's newest unread message (0 for a DM conversation)
    topic              TEXT,                 -- its spelling
    PRIMARY KEY (channel_id, topic_key, dm_key)
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS cached_topics (
    channel_id  INTEGER NOT NULL,
    topic_key   TEXT NOT NULL,
    max_id      INTEGER,                     -- the topic's newest cached message
    topic       TEXT,                        -- its spelling
    ts          INTEGER,                     -- its timestamp (UNIX seconds)
    PRIMARY KEY (channel_id, topic_key)
  ) WITHOUT ROWID;
  -- A topic's newest unread, found again when the newest is read: without it, a walk over the
  -- topic's read messages, a table row each.
  CREATE INDEX IF NOT EXISTS messages_unread_by_topic ON messages(channel_id, topic_key, id, topic) WHERE (flags & 1) = 0;
  ${trigger('unread_summary_message_insert_server', 'INSERT ON messages', hasServerRow('NEW.id'), sub(serverRowOf('NEW.id')))}
  ${trigger('unread_summary_message_insert', 'INSERT ON messages', counted('NEW'), add(columnsOf('NEW')))}
  ${trigger('unread_summary_message_delete', 'DELETE ON messages', counted('OLD'), sub(columnsOf('OLD')))}
  ${trigger('unread_summary_message_delete_server', 'DELETE ON messages', hasServerRow('OLD.id'), add(serverRowOf('OLD.id')))}
  ${trigger('unread_summary_message_update_old', 'UPDATE OF flags, channel_id, topic_key, dm_key, topic ON messages', `${COUNTED_CHANGE} AND ${counted('OLD')}`, sub(columnsOf('OLD')))}
  ${trigger('unread_summary_message_update_new', 'UPDATE OF flags, channel_id, topic_key, dm_key, topic ON messages', `${COUNTED_CHANGE} AND ${counted('NEW')}`, add(columnsOf('NEW')))}
  ${trigger('unread_summary_server_insert', 'INSERT ON server_unreads', serverCounted('NEW'), add(serverColumnsOf('NEW')))}
  ${trigger('unread_summary_server_delete', 'DELETE ON server_unreads', serverCounted('OLD'), sub(serverColumnsOf('OLD')))}
  ${trigger('unread_summary_server_update', 'UPDATE ON server_unreads', serverCounted('NEW'), sub(serverColumnsOf('OLD')) + add(serverColumnsOf('NEW')))}
  ${trigger('cached_topics_message_insert', 'INSERT ON messages', 'NEW.channel_id IS NOT NULL', topicAdd)}
  ${trigger('cached_topics_message_delete', 'DELETE ON messages', 'OLD.channel_id IS NOT NULL', topicSub)}
  ${trigger(
    'cached_topics_message_update',
    'UPDATE OF channel_id, topic_key, topic, json ON messages',
    `OLD.channel_id IS NOT NEW.channel_id OR OLD.topic_key IS NOT NEW.topic_key OR OLD.topic IS NOT NEW.topic
      OR json_extract(OLD.json, '$.timestamp') IS NOT json_extract(NEW.json, '$.timestamp')`,
    topicSub + topicAdd,
  )}
`;
};

export const SUMMARY_SCHEMA = summarySchema();

/** Both summaries computed from the rows (what the triggers keep them equal to). */
const TOPICS_REBUILD = `
  DELETE FROM cached_topics;
  INSERT INTO cached_topics (channel_id, topic_key, max_id, topic, ts)
    SELECT channel_id, topic_key, max(id), topic, json_extract(json, '$.timestamp') FROM messages WHERE channel_id IS NOT NULL GROUP BY channel_id, topic_key;`;
/** `unread_summary` alone computed from the rows. */
export const UNREAD_REBUILD = `
  DELETE FROM unread_summary;
  INSERT INTO unread_summary (channel_id, topic_key, dm_key, count, personal_mentions, wildcard_mentions, last_id, topic)
    SELECT ${Object.values(key(columnsOf('x'))).join(', ')}, count(*), sum(${personal(columnsOf('x'))}), sum(${wildcard(columnsOf('x'))}),
           max(CASE WHEN x.channel_id IS NULL THEN 0 ELSE x.id END), CASE WHEN x.channel_id IS NULL THEN '' ELSE x.topic END
      FROM (
        SELECT id, channel_id, topic_key, dm_key, flags, topic FROM messages WHERE (flags & 1) = 0 AND id < ${ECHO}
        UNION ALL
        SELECT u.message_id, u.channel_id, u.topic_key, u.dm_key, u.flags, u.topic FROM server_unreads u WHERE NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = u.message_id)
      ) x
     WHERE ${grouped(columnsOf('x'))}
     GROUP BY 1, 2, 3;
`;
export const SUMMARY_REBUILD = TOPICS_REBUILD + UNREAD_REBUILD;

export const migration: Migration = {
  version: 9,
  name: 'unread-summary',
  up: (db) => {
    db.exec(SUMMARY_SCHEMA);
    db.exec(SUMMARY_REBUILD);
  },
};
