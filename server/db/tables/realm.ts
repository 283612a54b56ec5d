/** The realm (one organization per server) and its settings, stored as JSON values by name. */
export const ddl = `
CREATE TABLE realm_settings (
  name  TEXT PRIMARY KEY,
  value TEXT NOT NULL                 -- JSON
);
`;
