/**
 * Damaged data (docs/sync-design.md "Damaged data"): a database file that SQLite cannot read
 * whole (a truncated file, a broken header, a page of garbage) is a state the app handles, not an
 * error it answers with.
 *
 *   openCheckedDb(file)  -> open with a bounded integrity check (`PRAGMA quick_check(N)`), and
 *                           on damage recover: the irreplaceable tables are salvaged into a fresh
 *                           database, the damaged file is kept aside, the cache starts empty
 *   recoverDatabase(file) -> the same recovery for a file found damaged while open (an event
 *                           batch or a narrow read hit SQLITE_CORRUPT)
 *   isDamageError(e)     -> SQLITE_CORRUPT* / SQLITE_NOTADB anywhere in an error's cause chain
 *
 * What is salvaged is the durable part (docs/architecture.md rule 8): the account row, the outbox
 * and its temporary ids, drafts, the raw-text cache and the engine settings that are not about
 * the cache. Rows are read in rowid order and, past an unreadable page, one rowid at a time, so
 * every row SQLite can still read is kept and only the unreadable ones are lost. The fresh
 * database is created at the damaged one's schema version, the rows copied in, and then migrated
 * like any older database, so rows of an older app are upgraded by the same migrations.
 *
 * A broken header (SQLITE_NOTADB: SQLite does not recognise the file at all) is read through a
 * copy with a standard header written over the first 100 bytes; the pages behind it are intact.
 */
import Database from 'better-sqlite3';
import { closeSync, copyFileSync, existsSync, openSync, readSync, renameSync, rmSync, statSync, truncateSync, writeSync } from 'node:fs';
import { MIGRATIONS } from './migrations/index.js';
import { DatabaseFromTheFutureError, migrate, openLocalDb, schemaVersion, sqliteOptions, type LocalDb } from './open.js';
import type { EngineLogger } from '../base/seams.js';
import { dropCleanMark, problemsOf, takeCleanMark } from './deferred-check.js';

/** At most this many problems are listed by the open-time check (it stops at the first few). */
export const QUICK_CHECK_LIMIT = 5;

/** The durable tables, in the order they are copied (docs/architecture.md rule 8). */
export const SALVAGED_TABLES = ['account', 'engine_settings', 'outbox', 'outbox_temp_ids', 'drafts', 'message_raw'] as const;

/**
 * Engine settings that describe the cache (its gaps, pending fetches, a backfill under way): the
 * cache starts empty, so they are not copied. The names are literal: they are persisted.
 */
const CACHE_SETTINGS = new Set(['narrow.stream_gap', 'sync.pending_backfill', 'sync.pending_fetch', 'sync.pending_rows', 'unreads.old_unreads_missing']);

/** What a recovery kept and lost, for the log and for the words the person is shown. */
export interface SalvageReport {
  /** Why the file was found damaged (SQLite's words). */
  readonly reason: string;
  /** Where the damaged file was moved (its -wal and -shm beside it, when there were any). */
  readonly keptAside: string;
  /** The damaged file's schema version (0: nothing could be read). */
  readonly fromVersion: number;
  /** Rows copied per table. */
  readonly salvaged: Readonly<Record<string, number>>;
  /**
   * Per table: rowids probed past an unreadable page that could not be read, and rows the fresh
   * table refused. An upper bound of the rows lost: a probe cannot tell an unreadable row from a
   * rowid that never held one.
   */
  readonly lost: Readonly<Record<string, number>>;
  /** Outbox rows not yet on the server (not done, not discarded) that were kept. */
  readonly queuedKept: number;
  readonly draftsKept: number;
}

/** SQLite's own words for a damaged file, anywhere in `e`'s cause chain. */
export function isDamageError(e: unknown): boolean {
  for (let x: unknown = e, depth = 0; x !== undefined && x !== null && depth < 8; depth++) {
    if (x instanceof Error) {
      const code = 'code' in x && typeof x.code === 'string' ? x.code : '';
      if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') return true;
      x = x.cause;
    } else return false;
  }
  return false;
}

function describe(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/**
 * The bounded check: SQLite's `quick_check` walks every page's structure (not the indexes' agreement
 * with their tables) and stops after `QUICK_CHECK_LIMIT` problems. Undefined when the file is sound;
 * the problem in words when it is damaged. Errors that are not damage (a locked or missing file,
 * a full disk) are thrown as they are.
 */
export function checkDatabaseFile(file: string): string | undefined {
  let db: LocalDb | undefined;
  try {
    db = new Database(file, { ...sqliteOptions(), fileMustExist: true });
    return problemsOf(db.pragma(`quick_check(${QUICK_CHECK_LIMIT})`, { simple: false }));
  } catch (e) {
    if (isDamageError(e)) return describe(e);
    throw e;
  } finally {
    try {
      db?.close();
    } catch {
      // A damaged file may refuse even its close's checkpoint; the handle is released either way.
    }
  }
}

export interface RecoveryOptions {
  readonly now: () => number;
  readonly logger: EngineLogger;
}

/**
 * Open an account database, checking it first. A sound file opens as `openLocalDb` opens it; a
 * damaged one (found by the check, or by an error while opening and migrating) is recovered and
 * the fresh database returned with the report. A file the engine closed cleanly last time
 * (`markCleanClose`) is opened without the check, and `checkLater` asks the caller to run it in
 * the background (`backgroundCheck`); after an unclean end it runs here, before any use.
 */
export function openCheckedDb(file: string, opts: RecoveryOptions): { db: LocalDb; recovered?: SalvageReport; checkLater?: boolean } {
  if (file !== ':memory:') finishInterruptedRecovery(file);
  if (file === ':memory:' || !existsSync(file) || statSync(file).size === 0) return { db: openLocalDb(file) };
  const checkLater = takeCleanMark(file);
  let problem = checkLater ? undefined : checkDatabaseFile(file);
  if (problem === undefined) {
    try {
      return { db: openLocalDb(file), checkLater };
    } catch (e) {
      if (!isDamageError(e)) throw e;
      problem = describe(e);
    }
  }
  const recovered = recoverDatabase(file, problem, opts);
  return { db: openLocalDb(file), recovered };
}

/**
 * Build a fresh database holding every readable durable row of the damaged `file`, then move the
 * damaged one aside (`NAME.damaged-<time>`, with its -wal and -shm) and the fresh one into its
 * place, and log what happened. The fresh file is built beside it (`NAME.rebuilding`) and takes
 * the name only when complete, so a crash at any point leaves either the damaged file where it
 * was (recovered again at the next open) or the complete fresh one (`openCheckedDb` finishes the
 * rename). The fresh file is closed again: the caller opens it as usual.
 */
export function recoverDatabase(file: string, reason: string, opts: RecoveryOptions): SalvageReport {
  const stamp = new Date(opts.now()).toISOString().replace(/[:.]/g, '-');
  const aside = `${file}.damaged-${stamp}`;
  const building = `${file}.rebuilding`;
  removeFiles(building);
  let report: SalvageReport;
  const source = readableSource(file);
  try {
    // A newer app's file is refused, damaged or not: this app cannot know what to keep.
    if (source.version > newestVersion()) throw new DatabaseFromTheFutureError(source.version, newestVersion());
    const fresh = openLocalDb(building, { target: source.version });
    try {
      const salvaged: Record<string, number> = {};
      const lost: Record<string, number> = {};
      if (source.db) {
        for (const table of SALVAGED_TABLES) {
          const r = copyTable(source.db, fresh, table);
          if (r.copied > 0) salvaged[table] = r.copied;
          if (r.lost > 0) lost[table] = r.lost;
        }
      }
      migrate(fresh);
      // Until its first sync the fresh copy is a new account's: without the own user id, readers
      // (narrows, the poller) wait for the register instead of reading an empty cache as the truth.
      fresh.prepare('UPDATE account SET user_id = NULL').run();
      const queuedKept = fresh.prepare<[], number>("SELECT count(*) FROM outbox WHERE state NOT IN ('done', 'discarded')").pluck().get() ?? 0;
      const draftsKept = fresh.prepare<[], number>('SELECT count(*) FROM drafts').pluck().get() ?? 0;
      report = { reason, keptAside: aside, fromVersion: source.version, salvaged, lost, queuedKept, draftsKept };
    } finally {
      fresh.close();
    }
  } catch (e) {
    removeFiles(building);
    throw e;
  } finally {
    source.close();
  }
  for (const s of ['', '-wal', '-shm']) if (existsSync(`${file}${s}`)) renameSync(`${file}${s}`, `${aside}${s}`);
  removeFiles(building, ['-wal', '-shm']);
  renameSync(building, file);
  dropCleanMark(file);
  opts.logger.error('the account database was damaged: its readable changes and drafts were copied into a fresh one, the cache is fetched again', { ...report });
  return report;
}

/** A recovery interrupted after its fresh file was complete but before it took the name: finish it; an incomplete one is dropped. */
function finishInterruptedRecovery(file: string): void {
  const building = `${file}.rebuilding`;
  if (!existsSync(building)) return;
  if (existsSync(file)) removeFiles(building);
  else renameSync(building, file);
}

function removeFiles(base: string, suffixes: readonly string[] = ['', '-wal', '-shm']): void {
  for (const s of suffixes) rmSync(`${base}${s}`, { force: true });
}

const newestVersion = () => MIGRATIONS.at(-1)?.version ?? 0;

interface Source {
  /** Undefined: not even the schema could be read. */
  readonly db: LocalDb | undefined;
  readonly version: number;
  close(): void;
}

/**
 * Open the damaged file for reading, where it is. When SQLite refuses the file itself, a copy is
 * read instead: a truncated file padded back to the length its header states (SQLite refuses a
 * schema naming pages past the end, even when the tables wanted lie before it; the padding reads
 * as damaged pages, found only by whoever reads them), or a file whose header is not recognised
 * given a standard header.
 */
function readableSource(file: string): Source {
  const opened = tryOpen(file);
  if (opened) return opened;
  const reading = `${file}.reading`;
  const hasWal = existsSync(`${file}-wal`);
  const cleanup = () => {
    for (const s of ['', '-wal', '-shm']) rmSync(`${reading}${s}`, { force: true });
  };
  const copy = () => {
    cleanup();
    copyFileSync(file, reading);
    if (hasWal) copyFileSync(`${file}-wal`, `${reading}-wal`);
  };
  const attempt = (): Source | undefined => {
    const s = tryOpen(reading);
    if (s?.db) return { ...s, close: () => (s.close(), cleanup()) };
    s?.close();
    return undefined;
  };
  const header = readHeader(file);
  if (header.magic) {
    copy();
    const stated = header.pages * header.pageSize;
    if (header.pageSize > 0 && stated > statSync(reading).size) truncateSync(reading, stated);
    const padded = attempt();
    if (padded) return padded;
  }
  for (const pageSize of pageSizeCandidates(header.pageSize)) {
    copy();
    writeHeader(reading, pageSize, hasWal);
    const repaired = attempt();
    if (repaired) return repaired;
  }
  cleanup();
  return { db: undefined, version: 0, close: () => undefined };
}

/** The file opened with its schema readable, and its version (stated, or read off its tables); undefined when SQLite cannot read its schema. */
function tryOpen(path: string): Source | undefined {
  let db: LocalDb | undefined;
  try {
    db = new Database(path, { ...sqliteOptions(), fileMustExist: true });
    const tables = new Set(db.prepare<[], string>("SELECT name FROM sqlite_schema WHERE type IN ('table', 'index')").pluck().all());
    const stated = schemaVersion(db);
    const version = stated > 0 && (stated > newestVersion() || tables.has('account')) ? stated : inferVersion(db, tables);
    const open = db;
    return { db: open, version, close: () => closeQuietly(open) };
  } catch (e) {
    if (db) closeQuietly(db);
    if (isDamageError(e)) return undefined;
    throw e;
  }
}

/**
 * The schema version a file's tables show, for a header that lost `user_version`. 6, 7 and 8 look
 * alike; 6 is chosen: 0007 only renames kinds it knows and 0008 only adds what is missing, so
 * running them again is harmless.
 */
function inferVersion(db: LocalDb, tables: ReadonlySet<string>): number {
  if (!tables.has('account')) return 0;
  if (tables.has('server_unreads')) return 6;
  const outboxColumns = tables.has('outbox') ? db.prepare<[], string>("SELECT name FROM pragma_table_info('outbox')").pluck().all() : [];
  if (outboxColumns.includes('is_head')) return 5;
  if (tables.has('drafts')) return 4;
  if (tables.has('outbox_queued_order')) return 3;
  if (tables.has('outbox')) return 2;
  return 1;
}

function closeQuietly(db: LocalDb): void {
  try {
    db.close();
  } catch {
    // Closing a damaged file may fail its checkpoint; nothing more to release.
  }
}

const MAGIC = 'SQLite format 3\0';

/** What the first 100 bytes say: whether SQLite would recognise them, the page size and page count they state. */
function readHeader(file: string): { magic: boolean; pageSize: number; pages: number } {
  const head = Buffer.alloc(100);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
  const raw = head.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  const valid = pageSize >= 512 && pageSize <= 65536 && (pageSize & (pageSize - 1)) === 0;
  return { magic: head.toString('latin1', 0, 16) === MAGIC, pageSize: valid ? pageSize : 0, pages: head.readUInt32BE(28) };
}

/** Page sizes to try for a broken header: the header's own when it states one, then the app's default first. */
function pageSizeCandidates(stated: number): number[] {
  const all = [4096, 1024, 2048, 8192, 16384, 32768, 65536, 512];
  return all.includes(stated) ? [stated, ...all.filter((s) => s !== stated)] : all;
}

/** A standard 100-byte database header for `pageSize` (field layout: SQLite's file format, section 1.3). */
function writeHeader(file: string, pageSize: number, wal: boolean): void {
  const size = statSync(file).size;
  const h = Buffer.alloc(100);
  h.write(MAGIC, 0, 'latin1');
  h.writeUInt16BE(pageSize === 65536 ? 1 : pageSize, 16);
  h[18] = wal ? 2 : 1; // write version
  h[19] = wal ? 2 : 1; // read version
  h[20] = 0; // reserved bytes per page
  h[21] = 64;
  h[22] = 32;
  h[23] = 32;
  h.writeUInt32BE(1, 24); // change counter
  h.writeUInt32BE(Math.floor(size / pageSize), 28); // pages, valid since it matches "version valid for"
  h.writeUInt32BE(1, 40); // schema cookie
  h.writeUInt32BE(4, 44); // schema format
  h.writeUInt32BE(1, 56); // UTF-8
  h.writeUInt32BE(1, 92); // version valid for
  h.writeUInt32BE(3_046_000, 96);
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, h, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
}

/**
 * Copy every readable row of `table` (the columns both schemas have) from `src` into `dst`, in
 * rowid order: a range scan while it reads, and past an unreadable page one rowid at a time up
 * to the table's highest rowid (or a bounded stretch when even that cannot be read).
 */
function copyTable(src: LocalDb, dst: LocalDb, table: string): { copied: number; lost: number } {
  let srcColumns: string[];
  try {
    srcColumns = src.prepare<[], string>(`SELECT name FROM pragma_table_info('${table}')`).pluck().all();
  } catch {
    return { copied: 0, lost: 0 };
  }
  const dstColumns = new Set(dst.prepare<[], string>(`SELECT name FROM pragma_table_info('${table}')`).pluck().all());
  const columns = srcColumns.filter((c) => dstColumns.has(c));
  if (columns.length === 0) return { copied: 0, lost: 0 };
  const list = columns.map((c) => `"${c}"`).join(', ');
  const insert = dst.prepare(`INSERT OR IGNORE INTO "${table}" (${list}) VALUES (${columns.map(() => '?').join(', ')})`);
  const after = src.prepare<[number], Record<string, unknown>>(`SELECT rowid AS "__rowid", ${list} FROM "${table}" WHERE rowid > ? ORDER BY rowid LIMIT 1`);
  const at = src.prepare<[number], Record<string, unknown>>(`SELECT rowid AS "__rowid", ${list} FROM "${table}" WHERE rowid = ?`);
  let highest: number | undefined;
  try {
    highest = src.prepare<[], number | null>(`SELECT max(rowid) FROM "${table}"`).pluck().get() ?? undefined;
  } catch {
    highest = undefined;
  }
  let copied = 0;
  let lost = 0;
  const keep = (row: Record<string, unknown>): void => {
    if (table === 'engine_settings' && CACHE_SETTINGS.has(String(row['name']))) return;
    try {
      if (insert.run(...columns.map((c) => row[c])).changes > 0) copied++;
      else lost++;
    } catch {
      lost++; // refused by the fresh table (a value a damaged page garbled past its CHECK)
    }
  };
  dst.transaction(() => {
    let last = Number.MIN_SAFE_INTEGER;
    for (;;) {
      let row: Record<string, unknown> | undefined;
      try {
        row = after.get(last);
      } catch {
        // An unreadable page: probe the rowids after it one by one.
        const stop = highest !== undefined && highest > last ? highest : Math.max(last, 0) + 10_000;
        let resumed = false;
        for (let id = Math.max(last, 0) + 1; id <= stop; id++) {
          try {
            const r = at.get(id);
            if (r) {
              keep(r);
              last = id;
              resumed = true;
              break;
            }
          } catch {
            lost++;
          }
        }
        if (!resumed) break;
        continue;
      }
      if (!row) break;
      last = Number(row['__rowid']);
      keep(row);
    }
  })();
  return { copied, lost };
}
