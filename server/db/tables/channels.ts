/** Channels (legacy "streams"), subscriptions, and recipients (a channel, or a DM conversation). */
export const ddl = `
CREATE TABLE recipients (
  id         INTEGER PRIMARY KEY,
  type       TEXT NOT NULL CHECK (type IN ('channel', 'dm')),
  channel_id INTEGER UNIQUE,
  dm_key     TEXT UNIQUE                   -- sorted user ids "1,5,9" for a DM conversation
);
CREATE TABLE channels (
  id                            INTEGER PRIMARY KEY,
  name                          TEXT NOT NULL UNIQUE COLLATE NOCASE,
  description                   TEXT NOT NULL DEFAULT '',
  rendered_description          TEXT NOT NULL DEFAULT '',
  invite_only                   INTEGER NOT NULL DEFAULT 0,
  is_web_public                 INTEGER NOT NULL DEFAULT 0,
  history_public_to_subscribers INTEGER NOT NULL DEFAULT 1,
  message_retention_days        INTEGER,   -- NULL = realm default, -1 = unlimited
  topics_policy                 TEXT NOT NULL DEFAULT 'inherit',
  is_default                    INTEGER NOT NULL DEFAULT 0,
  is_archived                   INTEGER NOT NULL DEFAULT 0,
  date_created                  INTEGER NOT NULL,
  creator_id                    INTEGER,
  first_message_id              INTEGER,
  recipient_id                  INTEGER NOT NULL,
  permissions                   TEXT NOT NULL DEFAULT '{}'  -- JSON: can_*_group -> group-setting value
);
CREATE TABLE subscriptions (
  user_id     INTEGER NOT NULL REFERENCES users(id),
  channel_id  INTEGER NOT NULL REFERENCES channels(id),
  active      INTEGER NOT NULL DEFAULT 1,
  color       TEXT NOT NULL DEFAULT '#76ce90',
  is_muted    INTEGER NOT NULL DEFAULT 0,
  pin_to_top  INTEGER NOT NULL DEFAULT 0,
  properties  TEXT NOT NULL DEFAULT '{}',  -- JSON: notification overrides (null = inherit)
  PRIMARY KEY (user_id, channel_id)
) WITHOUT ROWID;
CREATE INDEX subscriptions_by_channel ON subscriptions(channel_id, active);
`;
