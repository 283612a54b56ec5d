/**
 * One database file per account: WAL, foreign keys off (cache rows arrive in any order), and the
 * migrations up to the newest, each in its own transaction with `user_version`. A database from a
 * newer app (user_version above ours) is refused rather than damaged. The files are the user's
 * alone: 0600 for the database (SQLite gives its -wal and -shm the database file's mode), 0700 for
 * the directories holding them, also when an older app left them readable to others.
 */
import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
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

const PRIVATE_DIR_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;
/** Modes mean little on Windows (the profile's ACLs protect the data there). */
const hasModes = process.platform !== 'win32';

/**
 * Creates `dir` (and missing parents) as 0700; an existing one open to others is narrowed to 0700,
 * unless it is a shared directory (sticky bit, as /tmp), which is never the app's own.
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (!hasModes) return;
  const mode = statSync(dir).mode;
  if ((mode & 0o077) !== 0 && (mode & 0o1000) === 0) chmodSync(dir, PRIVATE_DIR_MODE);
}

/** The database file created 0600 before SQLite opens it (its -wal and -shm follow), existing ones narrowed. */
function ensurePrivateFiles(path: string): void {
  if (!hasModes) return;
  if (!existsSync(path)) closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) narrowPrivateFile(file);
}

/** An existing file of the app's left open to others (by an older app, or a copy) narrowed to 0600. */
export function narrowPrivateFile(file: string): void {
  if (hasModes && existsSync(file) && (statSync(file).mode & 0o077) !== 0) chmodSync(file, PRIVATE_FILE_MODE);
}

/**
 * Open (creating if needed) an account database; `:memory:` for tests. `target` stops the
 * migrations at that version (recovery fills a fresh file at a damaged one's version, then
 * migrates the rest).
 */
export function openLocalDb(path: string, opts: { migrations?: readonly Migration[]; target?: number } = {}): LocalDb {
  if (path !== ':memory:') ensurePrivateFiles(path);
  const db = new Database(path, sqliteOptions());
  if (path !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = OFF');
  db.pragma('temp_store = MEMORY');
  // 32 MiB of page cache (SQLite's default is 2 MiB): a large organisation's first sign-in writes
  // 100,000 unread rows and their indexes, and its database reaches hundreds of MB; with 2 MiB
  // those writes went through the OS for pages just evicted (bench/large-org.bench.ts). Used only
  // as pages are read, so an idle account holds little of it.
  db.pragma('cache_size = -32768');
  try {
    migrate(db, opts.migrations, opts.target);
  } catch (e) {
    db.close();
    throw e;
  }
  return db;
}
