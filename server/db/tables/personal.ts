/**
 * Per-user objects: topic preferences, alert words, muted users, saved snippets, navigation views, push devices.
 *
 * Topic names compare by `topic_key` (common/topic-key.ts, Zulip's `topic_name__iexact`), so a user
 * has at most one policy per (channel, topic) whatever the case; `topic` keeps the spelling last set. Navigation views keep their insertion order (the
 * `id`), which is the order GET /navigation_views and register list them in.
 */
export const ddl = `
CREATE TABLE user_topics (
  user_id           INTEGER NOT NULL,
  channel_id        INTEGER NOT NULL,
  topic             TEXT NOT NULL,
  topic_key         TEXT NOT NULL,
  visibility_policy INTEGER NOT NULL CHECK (visibility_policy IN (1, 2, 3)),  -- 0 (inherit) = no row
  last_updated      INTEGER NOT NULL,
  PRIMARY KEY (user_id, channel_id, topic_key)
) WITHOUT ROWID;
CREATE TABLE alert_words (
  id      INTEGER PRIMARY KEY,                 -- insertion order, the order the API lists them in
  user_id INTEGER NOT NULL,
  word    TEXT NOT NULL                        -- as the user typed it; compared case-insensitively
);
CREATE INDEX alert_words_by_user ON alert_words(user_id, id);
CREATE TABLE saved_snippets (
  id           INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused (real Zulip never reuses ids; a lost DELETE verified later must not hit a newer snippet)
  user_id      INTEGER NOT NULL,
  title        TEXT NOT NULL,
  content      TEXT NOT NULL,
  date_created INTEGER NOT NULL
);
CREATE INDEX saved_snippets_by_user ON saved_snippets(user_id, id);
CREATE TABLE muted_users (
  user_id       INTEGER NOT NULL,
  muted_user_id INTEGER NOT NULL,
  date_muted    INTEGER NOT NULL,               -- UNIX seconds
  PRIMARY KEY (user_id, muted_user_id)
) WITHOUT ROWID;
CREATE INDEX muted_users_by_muted ON muted_users(muted_user_id);
CREATE TABLE navigation_views (
  id        INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id   INTEGER NOT NULL,
  fragment  TEXT NOT NULL,
  is_pinned INTEGER NOT NULL,
  name      TEXT,                          -- NULL for built-in views
  UNIQUE (user_id, fragment)
);
CREATE TABLE push_devices (
  id       INTEGER PRIMARY KEY,            -- the push account id
  user_id  INTEGER NOT NULL,
  kind     TEXT NOT NULL CHECK (kind IN ('apns', 'e2ee')),
  token    TEXT NOT NULL,
  appid    TEXT,
  -- E2EE registrations (POST /mobile_push/register): the client's push account id, its keys, and
  -- the registration status ('active', 'pending' or 'failed').
  push_account_id    INTEGER,
  token_kind         TEXT,
  push_public_key    TEXT,
  bouncer_public_key TEXT,
  status             TEXT,
  UNIQUE (user_id, kind, token)
);
`;
