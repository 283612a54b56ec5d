/** Users, their API keys and password hashes, and their personal settings. */
export const ddl = `
CREATE TABLE users (
  id              INTEGER PRIMARY KEY,
  email           TEXT NOT NULL UNIQUE COLLATE NOCASE,
  delivery_email  TEXT NOT NULL UNIQUE COLLATE NOCASE,
  full_name       TEXT NOT NULL,
  role            INTEGER NOT NULL,          -- 100 owner, 200 admin, 300 moderator, 400 member, 600 guest
  is_active       INTEGER NOT NULL DEFAULT 1,
  is_bot          INTEGER NOT NULL DEFAULT 0,
  bot_type        INTEGER,
  bot_owner_id    INTEGER,
  api_key         TEXT NOT NULL UNIQUE,
  password_hash   TEXT,                      -- scrypt$N$r$p$salt$hash, or NULL (no password login)
  date_joined     INTEGER NOT NULL,          -- UNIX seconds
  timezone        TEXT NOT NULL DEFAULT '',
  avatar_version  INTEGER NOT NULL DEFAULT 1,
  can_create_users INTEGER NOT NULL DEFAULT 0  -- server-granted permission for POST /users
);
CREATE TABLE user_settings (
  user_id INTEGER NOT NULL REFERENCES users(id),
  name    TEXT NOT NULL,
  value   TEXT NOT NULL,                     -- JSON
  PRIMARY KEY (user_id, name)
) WITHOUT ROWID;
`;
