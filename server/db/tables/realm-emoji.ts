/** The realm's custom emoji (POST /realm/emoji/{name}), their images stored inline. */
export const ddl = `
CREATE TABLE realm_emoji (
  id          INTEGER PRIMARY KEY,
  name        TEXT NOT NULL UNIQUE,
  author_id   INTEGER,
  file_name   TEXT NOT NULL,
  mime_type   TEXT NOT NULL,
  data        BLOB NOT NULL,
  deactivated INTEGER NOT NULL DEFAULT 0
);
`;
