/**
 * 0001: the first schema.
 *
 * Durable tables (survive a cache reset; migrate carefully): `account`, `event_queue`,
 * `engine_settings`. Cache tables (server data, refetchable; a schema change may drop them):
 * everything else. Messages keep the server's message object as JSON (`json`, exactly as fetched
 * with apply_markdown=true, client_gravatar=false, allow_empty_topic_name=true, without `flags`)
 * plus the columns narrows filter on; flags are a bitmask (see sync/db/flags.ts).
 */
import type { Migration } from './types.js';

export const migration: Migration = {
  version: 1,
  name: 'initial',
  up: `
    -- durable ------------------------------------------------------------------------------
    CREATE TABLE account (
      id               INTEGER PRIMARY KEY CHECK (id = 1),
      realm_url        TEXT NOT NULL,
      email            TEXT NOT NULL,
      user_id          INTEGER,
      feature_level    INTEGER,
      zulip_version    TEXT
    );
    CREATE TABLE event_queue (
      id               INTEGER PRIMARY KEY CHECK (id = 1),
      queue_id         TEXT NOT NULL,
      last_event_id    INTEGER NOT NULL,
      registered_at    INTEGER NOT NULL     -- UNIX ms
    );
    CREATE TABLE engine_settings (
      name   TEXT PRIMARY KEY,
      value  TEXT NOT NULL                  -- JSON
    );

    -- cache --------------------------------------------------------------------------------
    CREATE TABLE realm (
      name   TEXT PRIMARY KEY,              -- register field name, e.g. realm_message_content_edit_limit_seconds
      value  TEXT NOT NULL                  -- JSON
    );
    CREATE TABLE users (
      id         INTEGER PRIMARY KEY,
      email      TEXT NOT NULL,
      full_name  TEXT NOT NULL,
      is_active  INTEGER NOT NULL DEFAULT 1,
      json       TEXT NOT NULL
    );
    CREATE TABLE channels (
      id     INTEGER PRIMARY KEY,
      name   TEXT NOT NULL COLLATE NOCASE,
      json   TEXT NOT NULL                  -- BasicChannel
    );
    CREATE TABLE subscriptions (
      channel_id  INTEGER PRIMARY KEY,
      is_muted    INTEGER NOT NULL DEFAULT 0,
      json        TEXT NOT NULL             -- Subscription
    );
    CREATE TABLE messages (
      id              INTEGER PRIMARY KEY,
      type            TEXT NOT NULL,        -- 'stream' | 'private'
      channel_id      INTEGER,
      topic           TEXT NOT NULL DEFAULT '',
      dm_key          TEXT,                 -- sorted participant ids "1,5,9" (self included)
      sender_id       INTEGER NOT NULL,
      flags           INTEGER NOT NULL DEFAULT 0,
      has_link        INTEGER NOT NULL DEFAULT 0,
      has_image       INTEGER NOT NULL DEFAULT 0,
      has_attachment  INTEGER NOT NULL DEFAULT 0,
      has_reaction    INTEGER NOT NULL DEFAULT 0,
      json            TEXT NOT NULL
    );
    CREATE INDEX messages_by_topic ON messages(channel_id, topic COLLATE NOCASE, id);
    CREATE INDEX messages_by_channel ON messages(channel_id, id);
    CREATE INDEX messages_by_dm ON messages(dm_key, id) WHERE dm_key IS NOT NULL;
    CREATE INDEX messages_by_sender ON messages(sender_id, id);
    CREATE INDEX messages_starred ON messages(id) WHERE (flags & 2) != 0;
    CREATE INDEX messages_unread ON messages(id) WHERE (flags & 1) = 0;
    CREATE INDEX messages_mentioned ON messages(id) WHERE (flags & 28) != 0;
    CREATE VIRTUAL TABLE messages_fts USING fts5(topic, body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
    CREATE TABLE narrow_ranges (
      narrow_key  TEXT NOT NULL,            -- canonical JSON of the narrow's terms
      lo          INTEGER NOT NULL,         -- 0 = from the oldest message
      hi          INTEGER NOT NULL,         -- 9007199254740991 = through the newest (while the event stream is continuous)
      PRIMARY KEY (narrow_key, lo)
    ) WITHOUT ROWID;
    CREATE TABLE user_topics (
      channel_id         INTEGER NOT NULL,
      topic              TEXT NOT NULL COLLATE NOCASE,
      visibility_policy  INTEGER NOT NULL,
      last_updated       INTEGER NOT NULL,
      PRIMARY KEY (channel_id, topic)
    ) WITHOUT ROWID;
    CREATE TABLE saved_snippets (id INTEGER PRIMARY KEY, json TEXT NOT NULL);
    CREATE TABLE navigation_views (fragment TEXT PRIMARY KEY, position INTEGER NOT NULL, json TEXT NOT NULL);
    CREATE TABLE scheduled_messages (id INTEGER PRIMARY KEY, json TEXT NOT NULL);
    CREATE TABLE user_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE user_groups (id INTEGER PRIMARY KEY, json TEXT NOT NULL);
  `,
};
