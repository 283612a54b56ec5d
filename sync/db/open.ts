/**
 * One database file per account: WAL, foreign keys off (cache rows arrive in any order), and the
 * migrations up to the newest, each in its own transaction with `user_version`. A database from a
 * newer app (user_version above ours) is refused rather than damaged.
 */
import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations/index.js';
import type { Migration } from './migrations/types.js';

export type LocalDb = Database.Database;

export class DatabaseFromTheFutureError extends Error {
  override readonly name = 'DatabaseFromTheFutureError';
  constructor(
    readonly found: number,
    readonly supported: number,
  ) {
    super(`the local database has schema version ${found}, newer than this app supports (${supported}); update the app`);
  }
}

export function schemaVersion(db: LocalDb): number {
  return Number(db.pragma('user_version', { simple: true }));
}

/** Apply every migration above the current version (or up to `target`). */
export function migrate(db: LocalDb, migrations: readonly Migration[] = MIGRATIONS, target?: number): void {
  const newest = migrations.at(-1)?.version ?? 0;
  const current = schemaVersion(db);
  if (current > newest) throw new DatabaseFromTheFutureError(current, newest);
  for (const m of migrations) {
    if (m.version <= current || (target !== undefined && m.version > target)) continue;
    db.transaction(() => {
      if (typeof m.up === 'string') db.exec(m.up);
      else m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
}

/**
 * Where the SQLite addon comes from: `ZULIP_SQLITE_NATIVE` names a build for another runtime (the
 * Electron build `npm start` keeps beside Node's, so development under Electron and `npm test`
 * under Node never rebuild over each other); unset, the package's own build.
 */
export function sqliteOptions(): Database.Options {
  const native = process.env['ZULIP_SQLITE_NATIVE'];
  return native ? { nativeBinding: native } : {};
}

/** Open (creating if needed) an account database; `:memory:` for tests. */
export function openLocalDb(path: string, opts: { migrations?: readonly Migration[] } = {}): LocalDb {
  const db = new Database(path, sqliteOptions());
  if (path !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = OFF');
  db.pragma('temp_store = MEMORY');
  try {
    migrate(db, opts.migrations);
  } catch (e) {
    db.close();
    throw e;
  }
  return db;
}
