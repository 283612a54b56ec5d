/** Users (active, deactivated and cross-realm bots): writes for snapshot and events, reads by id. */
import type { User } from '../../api/index.js';
import type { LocalDb } from '../open.js';
import { cachedStatement } from './statements.js';

export interface StoredUser {
  readonly user: User;
  readonly isActive: boolean;
}

export function putUser(db: LocalDb, user: User, isActive: boolean): void {
  cachedStatement(db, 'INSERT OR REPLACE INTO users (id, email, full_name, is_active, json) VALUES (?, ?, ?, ?, ?)').run(
    user.user_id,
    user.email,
    user.full_name,
    isActive ? 1 : 0,
    JSON.stringify(user),
  );
}

export function deleteUser(db: LocalDb, userId: number): boolean {
  return cachedStatement(db, 'DELETE FROM users WHERE id = ?').run(userId).changes > 0;
}

type Row = { json: string; is_active: number };
// Our own serialisation of a user zod checked on the way in.
const toStored = (r: Row): StoredUser => ({ user: JSON.parse(r.json) as User, isActive: r.is_active === 1 });

export function getUser(db: LocalDb, userId: number): StoredUser | undefined {
  const r = cachedStatement<[number], Row>(db, 'SELECT json, is_active FROM users WHERE id = ?').get(userId);
  return r && toStored(r);
}

/** Users by id (all users when `ids` is omitted), ordered by id. */
export function getUsers(db: LocalDb, ids?: readonly number[]): StoredUser[] {
  const rows =
    ids === undefined
      ? cachedStatement<[], Row>(db, 'SELECT json, is_active FROM users ORDER BY id').all()
      : cachedStatement<[string], Row>(db, 'SELECT json, is_active FROM users WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id').all(
          JSON.stringify(ids),
        );
  return rows.map(toStored);
}

export function getUserByEmail(db: LocalDb, email: string): StoredUser | undefined {
  const r = cachedStatement<[string], Row>(db, 'SELECT json, is_active FROM users WHERE email = ? COLLATE NOCASE').get(email);
  return r && toStored(r);
}
