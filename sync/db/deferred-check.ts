/**
 * The integrity check out of the way of the first answers (docs/sync-design.md "Damaged data").
 *
 *   markCleanClose(file)      -> the engine closed the database cleanly: `NAME.clean` beside it,
 *                                holding the file's (and its log's) size and modification time
 *   takeCleanMark(file)       -> at open: whether the last run ended cleanly and the file is as it
 *                                left it; the mark is removed (durably) so a crash leaves none
 *   backgroundCheck(file)     -> the same `quick_check` as at open, on its own read-only
 *                                connection in a worker thread; resolves to the problem in words,
 *                                or undefined when the file is sound
 *
 * After an unclean end (a crash, a kill, a power cut: no mark) the check runs before the file is
 * used, as always; after a clean one the file is opened at once and checked in the background.
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { sqliteOptions } from './open.js';

/** `quick_check`'s rows: undefined for its single "ok", else the problems joined. */
export function problemsOf(rows: unknown): string | undefined {
  const problems = Array.isArray(rows) ? rows.map((r) => (r && typeof r === 'object' ? String(Object.values(r)[0]) : String(r))) : [];
  return problems.length === 1 && problems[0] === 'ok' ? undefined : problems.join('; ');
}

/** The clean-close mark beside the database file. */
export const cleanMarkOf = (file: string) => `${file}.clean`;

/** The file and its log as the clean close left them: sizes and modification times (an empty log is none: a reader may leave one). */
function stampOf(file: string): string {
  const stamp = (f: string) => {
    const st = existsSync(f) ? statSync(f) : undefined;
    return st && st.size > 0 ? [st.size, Math.round(st.mtimeMs)] : null;
  };
  return JSON.stringify([stamp(file), stamp(`${file}-wal`)]);
}

/** Write the clean-close mark; a failure (a full disk) only means a full check at the next open. */
export function markCleanClose(file: string): void {
  try {
    writeFileSync(cleanMarkOf(file), stampOf(file), { mode: 0o600 });
  } catch {
    // The next open checks before use.
  }
}

/**
 * Whether the last run closed the file cleanly and nothing wrote to it since (its size and
 * modification time as the close left them); the mark is removed first, so this run must close
 * cleanly to leave one again.
 */
export function takeCleanMark(file: string): boolean {
  const mark = cleanMarkOf(file);
  if (!existsSync(mark)) return false;
  let unchanged = false;
  try {
    unchanged = readFileSync(mark, 'utf8') === stampOf(file);
  } catch {
    // An unreadable mark is no mark.
  }
  rmSync(mark, { force: true });
  try {
    // The removal must outlive a power cut, or a damaged file could skip the check at the next open.
    const fd = openSync(path.dirname(file), 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Not every platform syncs a directory (Windows); the background check still runs.
  }
  return unchanged;
}

/** Drop the mark (a recovered file is a fresh one; it must not inherit the damaged one's). */
export function dropCleanMark(file: string): void {
  rmSync(cleanMarkOf(file), { force: true });
}

/** Plain JS run in the worker: better-sqlite3 is loaded from the path the engine resolved, with the engine's native build. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
let db;
try {
  db = new Database(workerData.file, { ...workerData.options, readonly: true, fileMustExist: true });
  parentPort.postMessage({ rows: db.pragma('quick_check(' + workerData.limit + ')', { simple: false }) });
} catch (e) {
  parentPort.postMessage({ error: { code: e && e.code, message: String(e && e.message) } });
} finally {
  try { db && db.close(); } catch {}
}
`;

export interface BackgroundCheck {
  /** The problem in words, undefined when sound or cancelled; rejects on errors that are not damage. */
  readonly result: Promise<string | undefined>;
  /** Stop the check (the database is closing); resolves when the worker's connection is gone. */
  cancel(): Promise<void>;
}

export function backgroundCheck(file: string, limit: number): BackgroundCheck {
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, module, limit, options: sqliteOptions() } });
  worker.unref();
  let cancelled = false;
  const result = new Promise<string | undefined>((resolve, reject) => {
    worker.once('message', (m: { rows?: unknown; error?: { code?: string; message: string } }) => {
      if (m.error) {
        const code = m.error.code ?? '';
        if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') resolve(`SqliteError: ${m.error.message}`);
        else reject(Object.assign(new Error(m.error.message), { code }));
      } else resolve(problemsOf(m.rows));
    });
    worker.once('error', reject);
    worker.once('exit', () => resolve(undefined));
  }).then((r) => (cancelled ? undefined : r));
  return {
    result,
    cancel: async () => {
      cancelled = true;
      await worker.terminate();
    },
  };
}
