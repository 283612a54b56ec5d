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
 *  - `cached_topics`: each channel topic's newest cached message id.
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
const ECHO = 2 ** 52;

/** The group key and contributions of a row `x` (id, channel_id, topic_key, dm_key, flags, topic). */
const KEY = `coalesce(x.channel_id, 0), CASE WHEN x.channel_id IS NULL THEN '' ELSE x.topic_key END, CASE WHEN x.channel_id IS NULL THEN x.dm_key ELSE '' END`;
const GROUPED = '(x.channel_id IS NOT NULL OR x.dm_key IS NOT NULL)';
const PERSONAL = '((x.flags & 4) != 0)';
const WILDCARD = '((x.flags & 4) = 0 AND (x.flags & 24) != 0)';

/** The newest unread message of topic `s` and its spelling (the cache's, or a server row's when not cached). */
const NEWEST = `SELECT id, topic FROM (
    SELECT * FROM (SELECT id, topic FROM messages WHERE channel_id = s.channel_id AND topic_key = s.topic_key AND (flags & 1) = 0 AND id < ${ECHO} ORDER BY id DESC LIMIT 1)
    UNION ALL
    SELECT * FROM (SELECT u.message_id AS id, u.topic FROM server_unreads u WHERE u.channel_id = s.channel_id AND u.topic_key = s.topic_key
      AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = u.message_id) ORDER BY u.message_id DESC LIMIT 1)
  ) ORDER BY id DESC LIMIT 1`;

/** Count `src`'s row (at most one) in its group. */
const add = (src: string) => `
  INSERT INTO unread_summary (channel_id, topic_key, dm_key, count, personal_mentions, wildcard_mentions, last_id, topic)
  SELECT ${KEY}, 1, ${PERSONAL}, ${WILDCARD}, CASE WHEN x.channel_id IS NULL THEN 0 ELSE x.id END, CASE WHEN x.channel_id IS NULL THEN '' ELSE x.topic END
    FROM (${src}) x WHERE ${GROUPED}
  ON CONFLICT DO UPDATE SET count = count + 1, personal_mentions = personal_mentions + excluded.personal_mentions,
    wildcard_mentions = wildcard_mentions + excluded.wildcard_mentions,
    topic = CASE WHEN excluded.last_id > last_id THEN excluded.topic ELSE topic END, last_id = max(last_id, excluded.last_id);`;

/** Stop counting `src`'s row (at most one): a group left empty goes; a topic's newest unread is found again when it was this one. */
const sub = (src: string) => `
  UPDATE unread_summary AS s SET count = s.count - 1, personal_mentions = s.personal_mentions - ${PERSONAL}, wildcard_mentions = s.wildcard_mentions - ${WILDCARD}
    FROM (${src}) x WHERE ${GROUPED} AND (s.channel_id, s.topic_key, s.dm_key) = (${KEY});
  DELETE FROM unread_summary WHERE count <= 0 AND (channel_id, topic_key, dm_key) IN (SELECT ${KEY} FROM (${src}) x);
  UPDATE unread_summary AS s SET (last_id, topic) = (${NEWEST})
    FROM (${src}) x WHERE x.channel_id IS NOT NULL AND s.channel_id = x.channel_id AND s.topic_key = x.topic_key AND s.dm_key = '' AND s.last_id = x.id;`;

/** A `messages` row (NEW or OLD) as a source, when it counts (cached, unread, not an echo). */
const cachedRow = (r: 'NEW' | 'OLD') =>
  `SELECT ${r}.id AS id, ${r}.channel_id AS channel_id, ${r}.topic_key AS topic_key, ${r}.dm_key AS dm_key, ${r}.flags AS flags, ${r}.topic AS topic WHERE (${r}.flags & 1) = 0 AND ${r}.id < ${ECHO}`;
/** The `server_unreads` row of message `id`, when there is one. */
const serverRowOf = (id: string) => `SELECT message_id AS id, channel_id, topic_key, dm_key, flags, topic FROM server_unreads WHERE message_id = ${id}`;
/** A `server_unreads` row (NEW or OLD) as a source, when it counts (its message not cached). */
const serverRow = (r: 'NEW' | 'OLD') =>
  `SELECT ${r}.message_id AS id, ${r}.channel_id AS channel_id, ${r}.topic_key AS topic_key, ${r}.dm_key AS dm_key, ${r}.flags AS flags, ${r}.topic AS topic
    WHERE NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = ${r}.message_id)`;

const topicAdd = `INSERT INTO cached_topics (channel_id, topic_key, max_id) SELECT NEW.channel_id, NEW.topic_key, NEW.id WHERE NEW.channel_id IS NOT NULL
    ON CONFLICT DO UPDATE SET max_id = max(max_id, excluded.max_id);`;
const topicSub = `UPDATE cached_topics SET max_id = (SELECT max(id) FROM messages WHERE channel_id = OLD.channel_id AND topic_key = OLD.topic_key)
    WHERE channel_id = OLD.channel_id AND topic_key = OLD.topic_key AND max_id = OLD.id;
  DELETE FROM cached_topics WHERE channel_id = OLD.channel_id AND topic_key = OLD.topic_key AND max_id IS NULL;`;

/** What counts of a message row changed (read, mention bits, where it is, its spelling). */
const COUNTED_CHANGE = `((OLD.flags & 29) != (NEW.flags & 29) OR OLD.channel_id IS NOT NEW.channel_id OR OLD.topic_key IS NOT NEW.topic_key
  OR OLD.dm_key IS NOT NEW.dm_key OR OLD.topic IS NOT NEW.topic) AND ((OLD.flags & 1) = 0 OR (NEW.flags & 1) = 0)`;

export const SUMMARY_SCHEMA = `
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
    max_id      INTEGER,
    PRIMARY KEY (channel_id, topic_key)
  ) WITHOUT ROWID;

  DROP TRIGGER IF EXISTS unread_summary_message_insert;
  CREATE TRIGGER unread_summary_message_insert AFTER INSERT ON messages BEGIN
    ${sub(serverRowOf('NEW.id'))}
    ${add(cachedRow('NEW'))}
    ${topicAdd}
  END;
  DROP TRIGGER IF EXISTS unread_summary_message_delete;
  CREATE TRIGGER unread_summary_message_delete AFTER DELETE ON messages BEGIN
    ${sub(cachedRow('OLD'))}
    ${add(serverRowOf('OLD.id'))}
    ${topicSub}
  END;
  DROP TRIGGER IF EXISTS unread_summary_message_update;
  CREATE TRIGGER unread_summary_message_update AFTER UPDATE OF flags, channel_id, topic_key, dm_key, topic ON messages WHEN ${COUNTED_CHANGE} BEGIN
    ${sub(cachedRow('OLD'))}
    ${add(cachedRow('NEW'))}
  END;
  DROP TRIGGER IF EXISTS cached_topics_message_move;
  CREATE TRIGGER cached_topics_message_move AFTER UPDATE OF channel_id, topic_key ON messages
    WHEN OLD.channel_id IS NOT NEW.channel_id OR OLD.topic_key IS NOT NEW.topic_key BEGIN
    ${topicSub}
    ${topicAdd}
  END;
  DROP TRIGGER IF EXISTS unread_summary_server_insert;
  CREATE TRIGGER unread_summary_server_insert AFTER INSERT ON server_unreads BEGIN
    ${add(serverRow('NEW'))}
  END;
  DROP TRIGGER IF EXISTS unread_summary_server_delete;
  CREATE TRIGGER unread_summary_server_delete AFTER DELETE ON server_unreads BEGIN
    ${sub(serverRow('OLD'))}
  END;
  DROP TRIGGER IF EXISTS unread_summary_server_update;
  CREATE TRIGGER unread_summary_server_update AFTER UPDATE ON server_unreads BEGIN
    ${sub(serverRow('OLD'))}
    ${add(serverRow('NEW'))}
  END;
`;

/** Both summaries computed from the rows (what the triggers keep them equal to). */
export const SUMMARY_REBUILD = `
  DELETE FROM cached_topics;
  INSERT INTO cached_topics (channel_id, topic_key, max_id)
    SELECT channel_id, topic_key, max(id) FROM messages WHERE channel_id IS NOT NULL GROUP BY channel_id, topic_key;
  DELETE FROM unread_summary;
  INSERT INTO unread_summary (channel_id, topic_key, dm_key, count, personal_mentions, wildcard_mentions, last_id, topic)
    SELECT ${KEY}, count(*), sum(${PERSONAL}), sum(${WILDCARD}), max(CASE WHEN x.channel_id IS NULL THEN 0 ELSE x.id END),
           CASE WHEN x.channel_id IS NULL THEN '' ELSE x.topic END
      FROM (
        SELECT id, channel_id, topic_key, dm_key, flags, topic FROM messages WHERE (flags & 1) = 0 AND id < ${ECHO}
        UNION ALL
        SELECT u.message_id, u.channel_id, u.topic_key, u.dm_key, u.flags, u.topic FROM server_unreads u WHERE NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = u.message_id)
      ) x
     WHERE ${GROUPED}
     GROUP BY 1, 2, 3;
`;

export const migration: Migration = {
  version: 9,
  name: 'unread-summary',
  up: (db) => {
    db.exec(SUMMARY_SCHEMA);
    db.exec(SUMMARY_REBUILD);
  },
};
