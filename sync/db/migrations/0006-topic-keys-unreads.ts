/**
 * 0006: topics compare as the server compares them, and what the server says about messages the
 * cache may not hold.
 *
 *  - `messages.topic_key`, `user_topics.topic_key`: the topic's comparison key (common/topic-key.ts
 *    `topicKey`, Zulip's per-character SQL UPPER(), which SQLite's NOCASE only does for ASCII:
 *    `Äpfel` and `äpfel` were two topics locally and one on the server). Every topic match uses
 *    the key; `messages_by_topic_key` replaces the NOCASE index for topic narrows and topic lists,
 *    and `user_topics` is keyed by it (a preference set as `äpfel` applies to `Äpfel`).
 *  - `server_unreads`: register's `unread_msgs` kept current by events, so unread counts include
 *    unread messages older than the cached history (one row per unread message id).
 *  - `server_starred`: register's `starred_messages`, the same way, for the starred count.
 *  - `recent_dms`: register's `recent_private_conversations` (DM conversations not in the cache).
 *  - `server_topics` + `server_topic_lists`: a channel's complete topic list from
 *    `GET /users/me/{stream_id}/topics`, so it answers offline; `version` counts the changes that
 *    may have made the stored list wrong (moves, deletions, a gap in the event stream), and the
 *    list is current while `fetched_version = version`.
 *
 * All cache tables: refetchable from the server. The keys are filled in from the rows already
 * stored, so nothing needs refetching after the upgrade.
 */
import { topicKey } from '../../../common/topic-key.js';
import type { Migration } from './types.js';

export const migration: Migration = {
  version: 6,
  name: 'topic-keys-unreads',
  up: (db) => {
    db.exec(`
      ALTER TABLE messages ADD COLUMN topic_key TEXT NOT NULL DEFAULT '';
      DROP INDEX messages_by_topic;
      CREATE INDEX messages_by_topic_key ON messages(channel_id, topic_key, id);

      CREATE TABLE user_topics_keyed (
        channel_id         INTEGER NOT NULL,
        topic_key          TEXT NOT NULL,
        topic              TEXT NOT NULL,       -- as the server spelled it last
        visibility_policy  INTEGER NOT NULL,
        last_updated       INTEGER NOT NULL,
        PRIMARY KEY (channel_id, topic_key)
      ) WITHOUT ROWID;

      CREATE TABLE server_unreads (
        message_id  INTEGER PRIMARY KEY,
        channel_id  INTEGER,                    -- NULL for direct messages
        topic       TEXT NOT NULL DEFAULT '',
        topic_key   TEXT NOT NULL DEFAULT '',
        dm_key      TEXT,                       -- like messages.dm_key: sorted participant ids, self included
        flags       INTEGER NOT NULL DEFAULT 0  -- mention bits (sync/db/flags.ts)
      );
      CREATE INDEX server_unreads_by_topic ON server_unreads(channel_id, topic_key);
      CREATE TABLE server_starred (message_id INTEGER PRIMARY KEY);
      CREATE TABLE recent_dms (dm_key TEXT PRIMARY KEY, max_message_id INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TABLE server_topics (
        channel_id  INTEGER NOT NULL,
        topic_key   TEXT NOT NULL,
        topic       TEXT NOT NULL,
        max_id      INTEGER NOT NULL,
        PRIMARY KEY (channel_id, topic_key)
      ) WITHOUT ROWID;
      CREATE TABLE server_topic_lists (
        channel_id       INTEGER PRIMARY KEY,
        version          INTEGER NOT NULL DEFAULT 0,
        fetched_version  INTEGER,
        fetched_at       INTEGER                -- UNIX ms
      );
    `);
    const setKey = db.prepare('UPDATE messages SET topic_key = ? WHERE id = ?');
    for (const r of db.prepare<[], { id: number; topic: string }>("SELECT id, topic FROM messages WHERE topic != ''").all()) {
      setKey.run(topicKey(r.topic), r.id);
    }
    // Rows NOCASE kept apart may be one topic now: the newest preference wins, as on the server.
    const keep = db.prepare('INSERT OR REPLACE INTO user_topics_keyed (channel_id, topic_key, topic, visibility_policy, last_updated) VALUES (?, ?, ?, ?, ?)');
    const old = db.prepare<[], { channel_id: number; topic: string; visibility_policy: number; last_updated: number }>('SELECT channel_id, topic, visibility_policy, last_updated FROM user_topics ORDER BY last_updated').all();
    for (const r of old) keep.run(r.channel_id, topicKey(r.topic), r.topic, r.visibility_policy, r.last_updated);
    db.exec('DROP TABLE user_topics; ALTER TABLE user_topics_keyed RENAME TO user_topics;');
  },
};
