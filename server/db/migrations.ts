/**
 * Upgrades of an existing server database (the sandbox keeps its file across app updates). A new
 * database gets the latest schema from `tables/` directly; an older one runs every step from its
 * `user_version` up, in one transaction. `MIGRATIONS[i]` upgrades version `i + 1` to `i + 2`, and a
 * step never changes once released: the DDL it adds is spelled out here, not imported from
 * `tables/`, which may move on.
 */
import type Database from 'better-sqlite3';

export type Migration = (db: Database.Database) => void;

export const MIGRATIONS: readonly Migration[] = [
  // 1 → 2: per-user alert words (GET/POST/DELETE /users/me/alert_words).
  (db) => {
    db.exec(`
      CREATE TABLE alert_words (
        id      INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL,
        word    TEXT NOT NULL
      );
      CREATE INDEX alert_words_by_user ON alert_words(user_id, id);
    `);
  },
];
