/**
 * The name → JSON value tables (`realm`, `engine_settings`): one row per name, the value stored as
 * JSON text.
 */
import type { LocalDb } from '../open.js';
import { cachedStatement } from './statements.js';

/** The tables of `(name TEXT PRIMARY KEY, value TEXT)` rows holding JSON. */
export type JsonValueTable = 'realm' | 'engine_settings';

export function getJsonValue(db: LocalDb, table: JsonValueTable, name: string): unknown {
  const v = cachedStatement<[string], string>(db, `SELECT value FROM ${table} WHERE name = ?`).pluck().get(name);
  return v === undefined ? undefined : JSON.parse(v);
}

export function setJsonValue(db: LocalDb, table: JsonValueTable, name: string, value: unknown): void {
  // JSON has no undefined; an absent value is "not told", so the row goes.
  if (value === undefined) cachedStatement(db, `DELETE FROM ${table} WHERE name = ?`).run(name);
  else cachedStatement(db, `INSERT OR REPLACE INTO ${table} (name, value) VALUES (?, ?)`).run(name, JSON.stringify(value));
}
