/** Per-user objects: topic preferences, saved snippets, navigation views, push devices. */
export const ddl = `
CREATE TABLE user_topics (
  user_id           INTEGER NOT NULL,
  channel_id        INTEGER NOT NULL,
  topic             TEXT NOT NULL COLLATE NOCASE,
  visibility_policy INTEGER NOT NULL,
  last_updated      INTEGER NOT NULL,
  PRIMARY KEY (user_id, channel_id, topic)
) WITHOUT ROWID;
CREATE TABLE saved_snippets (
  id           INTEGER PRIMARY KEY,
  user_id      INTEGER NOT NULL,
  title        TEXT NOT NULL,
  content      TEXT NOT NULL,
  date_created INTEGER NOT NULL
);
CREATE TABLE navigation_views (
  user_id   INTEGER NOT NULL,
  fragment  TEXT NOT NULL,
  is_pinned INTEGER NOT NULL,
  name      TEXT,
  PRIMARY KEY (user_id, fragment)
) WITHOUT ROWID;
CREATE TABLE push_devices (
  id       INTEGER PRIMARY KEY,            -- the push account id
  user_id  INTEGER NOT NULL,
  kind     TEXT NOT NULL CHECK (kind IN ('apns', 'e2ee')),
  token    TEXT NOT NULL,
  appid    TEXT,
  UNIQUE (user_id, kind, token)
);
`;
