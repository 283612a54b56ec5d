/** Scheduled messages and invitations. */
export const ddl = `
CREATE TABLE scheduled_messages (
  id                           INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused (Zulip's ids come from a sequence: a lost DELETE verified later must not hit a newer one)
  sender_id                    INTEGER NOT NULL,
  type                         TEXT NOT NULL CHECK (type IN ('stream', 'private')),
  recipient                    TEXT NOT NULL,   -- JSON: channel id, or sorted user ids
  topic                        TEXT NOT NULL DEFAULT '',
  content                      TEXT NOT NULL,
  rendered_content             TEXT NOT NULL,
  scheduled_delivery_timestamp INTEGER NOT NULL,
  read_by_sender               INTEGER,
  failed                       INTEGER NOT NULL DEFAULT 0,
  failure_message              TEXT,
  delivered_message_id         INTEGER          -- set once delivered; delivered rows are not listed
);
CREATE INDEX scheduled_messages_by_sender ON scheduled_messages(sender_id, scheduled_delivery_timestamp);
CREATE INDEX scheduled_messages_due ON scheduled_messages(scheduled_delivery_timestamp) WHERE delivered_message_id IS NULL AND failed = 0;
CREATE TABLE invites (
  id                                   INTEGER PRIMARY KEY,
  inviter_id                           INTEGER NOT NULL,
  email                                TEXT NOT NULL COLLATE NOCASE,
  invite_as                            INTEGER NOT NULL,
  stream_ids                           TEXT NOT NULL,  -- JSON
  group_ids                            TEXT NOT NULL,  -- JSON
  include_realm_default_subscriptions  INTEGER NOT NULL,
  notify_referrer_on_join              INTEGER NOT NULL,
  welcome_message_custom_text          TEXT,
  created_at                           INTEGER NOT NULL,
  expires_at                           INTEGER,         -- NULL = never
  accepted_user_id                     INTEGER          -- set when the invitation was used
);
`;
