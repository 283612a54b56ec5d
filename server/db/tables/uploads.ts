/** Uploaded files and which messages reference them (so edits can report detached uploads). */
export const ddl = `
CREATE TABLE attachments (
  id          INTEGER PRIMARY KEY,
  owner_id    INTEGER NOT NULL,
  name        TEXT NOT NULL,
  path_id     TEXT NOT NULL UNIQUE,
  size        INTEGER NOT NULL,
  create_time INTEGER NOT NULL,            -- UNIX milliseconds (spec: times 1000)
  mime_type   TEXT NOT NULL,
  data        BLOB NOT NULL
);
CREATE TABLE attachment_messages (
  attachment_id INTEGER NOT NULL,
  message_id    INTEGER NOT NULL,
  PRIMARY KEY (attachment_id, message_id)
) WITHOUT ROWID;
`;
