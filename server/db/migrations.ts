/**
 * Upgrades of an existing server database (the sandbox keeps its file across app updates). A new
 * database gets the latest schema from `tables/` directly; an older one runs every step from its
 * `user_version` up, in one transaction. `MIGRATIONS[i]` upgrades version `i + 1` to `i + 2`, and a
 * step never changes once released: the DDL it adds is spelled out here, not imported from
 * `tables/`, which may move on.
 */
import type Database from 'better-sqlite3';
import { topicKey } from '../../common/topic-key.js';

export type Migration = (db: Database.Database) => void;

export const MIGRATIONS: readonly Migration[] = [
  // 1 → 2: per-user alert words (GET/POST/DELETE /users/me/alert_words).
  (db) => {
    db.exec(`
      CREATE TABLE alert_words (
        id      INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL,
        word    TEXT NOT NULL
      );
      CREATE INDEX alert_words_by_user ON alert_words(user_id, id);
    `);
  },
  // 2 → 3: topics compare by topic_key (Unicode case folding, common/topic-key.ts) instead of SQLite's
  // ASCII-only NOCASE.
  (db) => {
    db.function('migration_topic_key', { deterministic: true }, (t: unknown) => topicKey(String(t)));
    db.exec(`
      ALTER TABLE messages ADD COLUMN topic_key TEXT NOT NULL DEFAULT '';
      UPDATE messages SET topic_key = migration_topic_key(topic);
      DROP INDEX messages_by_topic;
      CREATE INDEX messages_by_topic ON messages(channel_id, topic_key, id);
      CREATE TABLE user_topics_v3 (
        user_id           INTEGER NOT NULL,
        channel_id        INTEGER NOT NULL,
        topic             TEXT NOT NULL,
        topic_key         TEXT NOT NULL,
        visibility_policy INTEGER NOT NULL CHECK (visibility_policy IN (1, 2, 3)),
        last_updated      INTEGER NOT NULL,
        PRIMARY KEY (user_id, channel_id, topic_key)
      ) WITHOUT ROWID;
      INSERT OR REPLACE INTO user_topics_v3 (user_id, channel_id, topic, topic_key, visibility_policy, last_updated)
        SELECT user_id, channel_id, topic, migration_topic_key(topic), visibility_policy, last_updated FROM user_topics ORDER BY last_updated;
      DROP TABLE user_topics;
      ALTER TABLE user_topics_v3 RENAME TO user_topics;
    `);
  },
  // 3 → 4: scheduled message ids are never reused (AUTOINCREMENT), as Zulip's come from a sequence:
  // a client verifying a lost DELETE by looking the id up must not find (and delete) a newer one.
  (db) => {
    db.exec(`
      CREATE TABLE scheduled_messages_v4 (
        id                           INTEGER PRIMARY KEY AUTOINCREMENT,
        sender_id                    INTEGER NOT NULL,
        type                         TEXT NOT NULL CHECK (type IN ('stream', 'private')),
        recipient                    TEXT NOT NULL,
        topic                        TEXT NOT NULL DEFAULT '',
        content                      TEXT NOT NULL,
        rendered_content             TEXT NOT NULL,
        scheduled_delivery_timestamp INTEGER NOT NULL,
        read_by_sender               INTEGER,
        failed                       INTEGER NOT NULL DEFAULT 0,
        failure_message              TEXT,
        delivered_message_id         INTEGER
      );
      INSERT INTO scheduled_messages_v4 SELECT id, sender_id, type, recipient, topic, content, rendered_content, scheduled_delivery_timestamp, read_by_sender, failed, failure_message, delivered_message_id FROM scheduled_messages;
      DROP TABLE scheduled_messages;
      ALTER TABLE scheduled_messages_v4 RENAME TO scheduled_messages;
      CREATE INDEX scheduled_messages_by_sender ON scheduled_messages(sender_id, scheduled_delivery_timestamp);
      CREATE INDEX scheduled_messages_due ON scheduled_messages(scheduled_delivery_timestamp) WHERE delivered_message_id IS NULL AND failed = 0;
    `);
  },
  // 4 → 5: the realm's custom emoji (POST /realm/emoji/{emoji_name}).
  (db) => {
    db.exec(`
      CREATE TABLE realm_emoji (
        id          INTEGER PRIMARY KEY,
        name        TEXT NOT NULL UNIQUE,
        author_id   INTEGER,
        file_name   TEXT NOT NULL,
        mime_type   TEXT NOT NULL,
        data        BLOB NOT NULL,
        deactivated INTEGER NOT NULL DEFAULT 0
      );
    `);
  },
  // 5 → 6: muted users (POST/DELETE /users/me/muted_users/{id}).
  (db) => {
    db.exec(`
      CREATE TABLE muted_users (
        user_id       INTEGER NOT NULL,
        muted_user_id INTEGER NOT NULL,
        date_muted    INTEGER NOT NULL,
        PRIMARY KEY (user_id, muted_user_id)
      ) WITHOUT ROWID;
      CREATE INDEX muted_users_by_muted ON muted_users(muted_user_id);
    `);
  },
];
