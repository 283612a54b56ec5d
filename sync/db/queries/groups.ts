/** User groups (named and system), as the server last described them. */
import type { UserGroup } from '../../api/index.js';
import type { LocalDb } from '../open.js';
import { cachedStatement } from './statements.js';

export function putUserGroup(db: LocalDb, g: UserGroup): void {
  cachedStatement(db, 'INSERT OR REPLACE INTO user_groups (id, json) VALUES (?, ?)').run(g.id, JSON.stringify(g));
}

export function deleteUserGroup(db: LocalDb, id: number): boolean {
  return cachedStatement(db, 'DELETE FROM user_groups WHERE id = ?').run(id).changes > 0;
}

// Our own serialisation of a group zod checked on the way in.
const parse = (json: string): UserGroup => JSON.parse(json) as UserGroup;

export function getUserGroup(db: LocalDb, id: number): UserGroup | undefined {
  const json = cachedStatement<[number], string>(db, 'SELECT json FROM user_groups WHERE id = ?').pluck().get(id);
  return json === undefined ? undefined : parse(json);
}

/** Every group, by id; deactivated ones only when asked. */
export function getUserGroups(db: LocalDb, opts: { includeDeactivated?: boolean } = {}): UserGroup[] {
  const all = cachedStatement<[], string>(db, 'SELECT json FROM user_groups ORDER BY id').pluck().all().map(parse);
  return opts.includeDeactivated ? all : all.filter((g) => !g.deactivated);
}

/** Rewrite a group through `edit`; false when it is not stored. */
export function editUserGroup(db: LocalDb, id: number, edit: (g: UserGroup) => UserGroup): boolean {
  const g = getUserGroup(db, id);
  if (!g) return false;
  putUserGroup(db, edit(g));
  return true;
}
