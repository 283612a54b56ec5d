/**
 * Prepared statements cached per database: the model's hot paths (sending, fetching, flags,
 * search, narrows) run thousands of the same statements, and preparing each again costs more than
 * running it.
 */
import type { Statement } from 'better-sqlite3';
import type { ServerState } from '../state.js';

const statements = new WeakMap<object, Map<string, Statement>>();

/**
 * A prepared statement, cached per database. Its mode sticks: use one SQL text either always with
 * `.pluck()` or never.
 */
export function sql(srv: ServerState, text: string): Statement {
  let cache = statements.get(srv.db);
  if (!cache) statements.set(srv.db, (cache = new Map()));
  let s = cache.get(text);
  if (!s) cache.set(text, (s = srv.db.prepare(text)));
  return s;
}
