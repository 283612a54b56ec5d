/**
 * Accounts: Zulip's name, email and password rules, account creation (do_create_user) and name
 * changes, with their `realm_user` events. Used by PATCH /settings, POST /users and invitations.
 */
import { emit } from '../events/emit.js';
import { badRequest } from '../http/errors.js';
import type { ServerState } from '../state.js';
import type { ChannelRow } from './access.js';
import { bulkSubscribe } from './subscriptions.js';
import { activeUserIds, apiUser, insertUser, type Role, type UserRow } from './users.js';

/** Zulip's UserProfile.MAX_NAME_LENGTH / MIN_NAME_LENGTH / NAME_INVALID_CHARS. */
export const MAX_NAME_LENGTH = 100;
export const MIN_NAME_LENGTH = 2;
const NAME_INVALID_CHARS = ['*', '`', '\\', '>', '"', '@'];
/** Zulip's default PASSWORD_MIN_LENGTH. */
export const MIN_PASSWORD_LENGTH = 6;

export const EMAIL_RE = /^[^\s@,<>]+@[^\s@,<>]+\.[^\s@,<>]+$/;

/** Full-name rules of Zulip's check_full_name; returns the stripped name. */
export function checkFullName(raw: string): string {
  const name = raw.trim();
  if (name.length > MAX_NAME_LENGTH) throw badRequest('Name too long!');
  if (name.length < MIN_NAME_LENGTH) throw badRequest('Name too short!');
  if (NAME_INVALID_CHARS.some((c) => name.includes(c))) throw badRequest('Invalid characters in name!');
  return name;
}

export const isStrongPassword = (password: string) => [...password].length >= MIN_PASSWORD_LENGTH;

/** Stores a new full name and tells everyone (`realm_user` op `update`). */
export function changeFullName(srv: ServerState, user: UserRow, name: string): void {
  srv.db.prepare('UPDATE users SET full_name = ? WHERE id = ?').run(name, user.id);
  emit(srv, activeUserIds(srv), { type: 'realm_user', op: 'update', person: { user_id: user.id, full_name: name } });
}

export interface AccountSpec {
  email: string;
  full_name: string;
  password?: string | undefined;
  role: Role;
}

export function defaultChannels(srv: ServerState): ChannelRow[] {
  return srv.db.prepare('SELECT * FROM channels WHERE is_default = 1 AND is_archived = 0 ORDER BY id').all() as ChannelRow[];
}

/**
 * Creates an account: the user row, `realm_user` op `add` to everyone, then subscriptions to
 * `channels` (callers pass the default channels and whatever else applies).
 */
export function createAccount(srv: ServerState, spec: AccountSpec, channels: readonly ChannelRow[]): UserRow {
  const u = insertUser(srv, { email: spec.email, full_name: spec.full_name, role: spec.role, password: spec.password });
  emit(srv, activeUserIds(srv), (q) => ({ type: 'realm_user', op: 'add', person: apiUser(srv, u, { clientGravatar: q.options.clientGravatar, includeIsActive: true }) }));
  const unique = channels.filter((c, i) => channels.findIndex((d) => d.id === c.id) === i);
  if (unique.length > 0) bulkSubscribe(srv, [u], unique);
  return u;
}
