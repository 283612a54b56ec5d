/**
 * Prepared statements cached per database: preparing costs more than running a small statement,
 * and the event handlers run the same few statements thousands of times a second.
 */
import type { Statement } from 'better-sqlite3';
import type { LocalDb } from '../open.js';

const caches = new WeakMap<LocalDb, Map<string, Statement>>();

export function cachedStatement(db: LocalDb, sql: string): Statement {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  let stmt = cache.get(sql);
  if (!stmt) cache.set(sql, (stmt = db.prepare(sql)));
  return stmt;
}
