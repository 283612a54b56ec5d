/**
 * Disk faults on demand: chosen runs of a database's statements throw the `SqliteError` SQLite
 * gives when the disk is full (`SQLITE_FULL`) or the device fails a write (`SQLITE_IOERR_WRITE`),
 * before the statement does anything, the way a refused write leaves the database as it was.
 *
 * It wraps better-sqlite3's `Statement.prototype.run` for the statements of one connection (every
 * statement, also those prepared and cached before), until `off()`. Only `run` is refused: reads
 * still work on a full disk, and the engine's writes all go through `run`. A transaction's
 * `COMMIT` may be refused too (then the transaction is rolled back, as SQLite does); `BEGIN`,
 * savepoints and rollbacks never are. `decide` is asked for
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

/** Statements that only steer a transaction (better-sqlite3's own): never refused themselves. */
const CONTROL = /^\s*(BEGIN|ROLLBACK|SAVEPOINT|RELEASE)\b/i;
const COMMIT = /^\s*(COMMIT|END)\b/i;

export function injectDiskFaults(db: LocalDb, decide: (sql: string) => DiskFaultCode | undefined): DiskFaults {
  const injected: Record<DiskFaultCode, number> = { SQLITE_FULL: 0, SQLITE_IOERR_WRITE: 0 };
  const proto: { run: (this: Statement, ...args: unknown[]) => Database.RunResult } = Object.getPrototypeOf(db.prepare('SELECT 1'));
  const run = proto.run;
  const rollback = db.prepare('ROLLBACK');
  let on = true;
  proto.run = function (this: Statement, ...args: unknown[]) {
    if (on && this.database === db && !CONTROL.test(this.source)) {
      const code = decide(this.source);
      if (code !== undefined) {
        injected[code]++;
        // A commit the disk refuses rolls the whole transaction back (SQLite does so for FULL and
        // IOERR), which is where WAL mode meets a full disk most often: at the commit's write.
        if (COMMIT.test(this.source) && db.inTransaction) run.apply(rollback, []);
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
