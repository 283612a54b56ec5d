/**
 * Disk faults on demand: chosen runs of a database's statements throw the `SqliteError` SQLite
 * gives when the disk is full (`SQLITE_FULL`) or the device fails a write (`SQLITE_IOERR_WRITE`),
 * before the statement does anything, the way a refused write leaves the database as it was.
 *
 * It wraps `db.prepare` on one connection, so every statement prepared after it (every query of
 * `sync/db/queries/` goes through `cachedStatement`, which prepares on first use) can be refused;
 * install it right after opening the database. Only writes (`run`) are refused: reads still work
 * on a full disk. `decide` is asked for every run and answers the code to throw, or undefined.
 */
import Database from 'better-sqlite3';
import type { LocalDb } from '../../sync/db/open.js';

export type DiskFaultCode = 'SQLITE_FULL' | 'SQLITE_IOERR_WRITE';

export interface DiskFaults {
  /** Runs refused so far, per code. */
  readonly injected: Record<DiskFaultCode, number>;
  /** Stop refusing (statements already wrapped keep asking `decide`, which is bypassed). */
  off(): void;
}

export function refusedWrite(code: DiskFaultCode): Error {
  return new Database.SqliteError(code === 'SQLITE_FULL' ? 'database or disk is full' : 'disk I/O error', code);
}

export function injectDiskFaults(db: LocalDb, decide: (sql: string) => DiskFaultCode | undefined): DiskFaults {
  const injected: Record<DiskFaultCode, number> = { SQLITE_FULL: 0, SQLITE_IOERR_WRITE: 0 };
  let on = true;
  const prepare = db.prepare.bind(db);
  const wrapped = (sql: string) => {
    const stmt = prepare(sql);
    if (stmt.reader) return stmt;
    return new Proxy(stmt, {
      get(target, prop) {
        const v: unknown = Reflect.get(target, prop, target);
        if (prop === 'run') {
          return (...args: unknown[]) => {
            const code = on ? decide(sql) : undefined;
            if (code !== undefined) {
              injected[code]++;
              throw refusedWrite(code);
            }
            return target.run(...args);
          };
        }
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
  };
  Object.defineProperty(db, 'prepare', { value: wrapped, configurable: true, writable: true });
  return {
    injected,
    off: () => {
      on = false;
    },
  };
}
