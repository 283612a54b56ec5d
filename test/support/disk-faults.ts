/**
 * Disk faults on demand: chosen runs of a database's statements throw the `SqliteError` SQLite
 * gives when the disk is full (`SQLITE_FULL`) or the device fails a write (`SQLITE_IOERR_WRITE`),
 * before the statement does anything, the way a refused write leaves the database as it was.
 *
 * It wraps better-sqlite3's `Statement.prototype.run` for the statements of one connection (every
 * statement, also those prepared and cached before), until `off()`. Only `run` is refused: reads
 * still work on a full disk, and the engine's writes all go through `run`. `decide` is asked for
 * every run of that connection with the statement's SQL and answers the code to throw, or
 * undefined. One injection at a time per process.
 */
import Database, { type Statement } from 'better-sqlite3';
import type { LocalDb } from '../../sync/db/open.js';

export type DiskFaultCode = 'SQLITE_FULL' | 'SQLITE_IOERR_WRITE';

export interface DiskFaults {
  /** Runs refused so far, per code. */
  readonly injected: Record<DiskFaultCode, number>;
  /** Stop refusing and restore `run`. */
  off(): void;
}

export function refusedWrite(code: DiskFaultCode): Error {
  return new Database.SqliteError(code === 'SQLITE_FULL' ? 'database or disk is full' : 'disk I/O error', code);
}

export function injectDiskFaults(db: LocalDb, decide: (sql: string) => DiskFaultCode | undefined): DiskFaults {
  const injected: Record<DiskFaultCode, number> = { SQLITE_FULL: 0, SQLITE_IOERR_WRITE: 0 };
  const proto: { run: (this: Statement, ...args: unknown[]) => Database.RunResult } = Object.getPrototypeOf(db.prepare('SELECT 1'));
  const run = proto.run;
  let on = true;
  proto.run = function (this: Statement, ...args: unknown[]) {
    if (on && this.database === db) {
      const code = decide(this.source);
      if (code !== undefined) {
        injected[code]++;
        throw refusedWrite(code);
      }
    }
    return run.apply(this, args);
  };
  return {
    injected,
    off: () => {
      on = false;
      if (proto.run !== run) proto.run = run;
    },
  };
}
