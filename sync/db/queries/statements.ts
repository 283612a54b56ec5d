/**
 * Prepared statements cached per database: preparing costs more than running a small statement,
 * and the event handlers run the same few statements thousands of times a second.
 *
 * Rows are typed here, at the statement: `cachedStatement<[number], { id: number; json: string }>(db,
 * sql)` declares what the SQL binds and what one row holds (for a `.pluck()` statement, the one
 * column's value), the way better-sqlite3's own `db.prepare<Params, Row>(sql)` does. Callers never
 * cast a result with `as` (test/lint/row-casts.test.ts keeps it so).
 */
import type { Statement } from 'better-sqlite3';
import type { LocalDb } from '../open.js';

const caches = new WeakMap<LocalDb, Map<string, Statement<unknown[], unknown>>>();

export function cachedStatement<P extends unknown[] | object = unknown[], R = unknown>(db: LocalDb, sql: string): Statement<P, R> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const hit = cache.get(sql);
  // The one assertion: a cached statement is the one prepared for this SQL, so it carries the
  // row type declared with that SQL (better-sqlite3 cannot check a row type either).
  if (hit) return hit as Statement<P, R>;
  const made = db.prepare<P, R>(sql);
  cache.set(sql, made);
  return made;
}

/**
 * Insert `rows` (each its values in `columns`' order), `perStatement` rows a statement: on a table
 * with triggers each statement costs a setup (about a row's insert), paused triggers included.
 */
export function insertRows(db: LocalDb, verb: 'INSERT' | 'INSERT OR REPLACE', table: string, columns: readonly string[], rows: readonly (readonly unknown[])[], perStatement = 64): void {
  const sql = (n: number) => `${verb} INTO ${table} (${columns.join(', ')}) VALUES ${Array.from({ length: n }, () => `(${columns.map(() => '?').join(', ')})`).join(', ')}`;
  let i = 0;
  if (rows.length >= perStatement) {
    const many = cachedStatement(db, sql(perStatement));
    // One parameter array refilled per statement (slicing and flattening each chunk cost a third
    // as much as SQLite's own insert of 100,000 rows).
    const params = new Array<unknown>(perStatement * columns.length);
    for (; i + perStatement <= rows.length; i += perStatement) {
      let p = 0;
      for (let r = i; r < i + perStatement; r++) for (const v of rows[r]!) params[p++] = v;
      many.run(params);
    }
  }
  for (const r of rows.slice(i)) cachedStatement(db, sql(1)).run(r);
}
