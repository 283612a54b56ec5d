/**
 * Opens the server's database: in memory, or a file (WAL). A new file gets the schema; an existing
 * one is upgraded from its schema version by `migrations.ts` (the sandbox keeps its data across
 * restarts and app updates); one from a newer server is refused.
 */
import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations.js';
import { allTables, SCHEMA_VERSION } from './tables/index.js';

export type Db = Database.Database;

/** `ZULIP_SQLITE_NATIVE`: the addon built for the runtime we run in (see sync/db/open.ts; the sandbox runs inside Electron too). */
function sqliteOptions(): Database.Options {
  const native = process.env['ZULIP_SQLITE_NATIVE'];
  return native ? { nativeBinding: native } : {};
}

export function openDb(path: string | undefined): Db {
  const db = new Database(path ?? ':memory:', sqliteOptions());
  if (path) db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = OFF');
  const version = Number(db.pragma('user_version', { simple: true }));
  if (version === 0) {
    db.transaction(() => {
      for (const ddl of allTables) db.exec(ddl);
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
    })();
  } else if (version > SCHEMA_VERSION || version + MIGRATIONS.length < SCHEMA_VERSION) {
    db.close();
    throw new Error(`database ${path} has schema version ${version}; this server needs ${SCHEMA_VERSION} (delete the file to start over)`);
  } else if (version < SCHEMA_VERSION) {
    db.transaction(() => {
      for (let v = version; v < SCHEMA_VERSION; v++) MIGRATIONS[v - 1]!(db);
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
    })();
  }
  return db;
}

/** True when the database has no realm yet (fresh file or memory). */
export function isEmpty(db: Db): boolean {
  return db.prepare('SELECT COUNT(*) AS n FROM users').pluck().get() === 0;
}
