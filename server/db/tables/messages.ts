/**
 * Messages, per-user flags (a bitmask, see model/flags.ts), reactions, submessages and the
 * full-text index. Content is the raw Markdown; rendered_content the sanitized HTML.
 */
export const ddl = `
CREATE TABLE messages (
  id                   INTEGER PRIMARY KEY AUTOINCREMENT,  -- ids are never reused, as in Zulip
  type                 TEXT NOT NULL CHECK (type IN ('stream', 'private')),
  channel_id           INTEGER,
  topic                TEXT NOT NULL DEFAULT '',
  recipient_id         INTEGER NOT NULL,
  sender_id            INTEGER NOT NULL,
  content              TEXT NOT NULL,
  rendered_content     TEXT NOT NULL,
  date_sent            INTEGER NOT NULL,      -- UNIX seconds
  client               TEXT NOT NULL DEFAULT 'API',
  is_me_message        INTEGER NOT NULL DEFAULT 0,
  has_link             INTEGER NOT NULL DEFAULT 0,
  has_image            INTEGER NOT NULL DEFAULT 0,
  has_attachment       INTEGER NOT NULL DEFAULT 0,
  last_edit_timestamp  INTEGER,
  last_moved_timestamp INTEGER,
  edit_history         TEXT,                  -- JSON array, most recent first; NULL if never edited
  topic_key            TEXT NOT NULL DEFAULT ''  -- topicKey(topic): how topics compare (common/topic-key.ts)
);
CREATE INDEX messages_by_topic ON messages(channel_id, topic_key, id);
CREATE INDEX messages_by_recipient ON messages(recipient_id, id);
CREATE INDEX messages_by_sender ON messages(sender_id, id);
CREATE INDEX messages_by_channel ON messages(channel_id, id);
CREATE TABLE user_messages (
  user_id    INTEGER NOT NULL,
  message_id INTEGER NOT NULL,
  flags      INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, message_id)
) WITHOUT ROWID;
CREATE INDEX user_messages_by_message ON user_messages(message_id);
CREATE TABLE reactions (
  id            INTEGER PRIMARY KEY,         -- insertion order (reactions are listed oldest first)
  message_id    INTEGER NOT NULL,
  user_id       INTEGER NOT NULL,
  emoji_name    TEXT NOT NULL,
  emoji_code    TEXT NOT NULL,
  reaction_type TEXT NOT NULL,
  UNIQUE (message_id, user_id, reaction_type, emoji_code)
);
CREATE TABLE submessages (
  id         INTEGER PRIMARY KEY,
  message_id INTEGER NOT NULL,
  sender_id  INTEGER NOT NULL,
  msg_type   TEXT NOT NULL,
  content    TEXT NOT NULL
);
CREATE INDEX submessages_by_message ON submessages(message_id);
-- Contentless full-text index (rowid = message id); contentless_delete lets edits and deletions
-- remove rows by id (see model/search.ts).
CREATE VIRTUAL TABLE messages_fts USING fts5(topic, body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
`;
