/** Users: lookup, password hashing (scrypt), API keys, and the API's user object. */
import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { seconds } from '../clock.js';
import { badRequest } from '../http/errors.js';
import { avatarUrlOf, hasUploadedAvatar } from './media.js';
import type { ServerState } from '../state.js';

export const ROLE = { owner: 100, administrator: 200, moderator: 300, member: 400, guest: 600 } as const;
export const ROLES = [100, 200, 300, 400, 600] as const;
export type Role = (typeof ROLES)[number];

export interface UserRow {
  id: number;
  email: string;
  delivery_email: string;
  full_name: string;
  role: Role;
  is_active: number;
  is_bot: number;
  bot_type: number | null;
  bot_owner_id: number | null;
  api_key: string;
  password_hash: string | null;
  date_joined: number;
  timezone: string;
  avatar_version: number;
  can_create_users: number;
}

export const isAdmin = (u: Pick<UserRow, 'role'>) => u.role <= ROLE.administrator;
export const isModeratorOrAbove = (u: Pick<UserRow, 'role'>) => u.role <= ROLE.moderator;
export const isGuest = (u: Pick<UserRow, 'role'>) => u.role === ROLE.guest;

export function getUser(srv: ServerState, id: number): UserRow | undefined {
  return srv.db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
}

export function getUserByEmail(srv: ServerState, email: string): UserRow | undefined {
  return srv.db.prepare('SELECT * FROM users WHERE delivery_email = ? OR email = ?').get(email, email) as UserRow | undefined;
}

export function activeUserIds(srv: ServerState): number[] {
  return srv.db.prepare('SELECT id FROM users WHERE is_active = 1 ORDER BY id').pluck().all() as number[];
}

/** Resolve user ids that must exist and be active (400 "Invalid user ID" otherwise). */
export function requireActiveUsers(srv: ServerState, ids: readonly number[]): UserRow[] {
  return ids.map((id) => {
    const u = getUser(srv, id);
    if (!u || !u.is_active) throw badRequest(`Invalid user ID: ${id}`);
    return u;
  });
}

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 };

export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export function verifyPassword(password: string, stored: string | null): boolean {
  if (!stored) return false;
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const got = scryptSync(password, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return got.length === expected.length && timingSafeEqual(got, expected);
}

export function newApiKey(): string {
  // Zulip keys are 32 alphanumeric characters.
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(32);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}

export interface NewUser {
  email: string;
  full_name: string;
  role: Role;
  password?: string | undefined;
  api_key?: string;
  is_bot?: boolean;
  can_create_users?: boolean;
  timezone?: string;
}

export function insertUser(srv: ServerState, u: NewUser): UserRow {
  const info = srv.db
    .prepare(
      `INSERT INTO users (email, delivery_email, full_name, role, is_bot, api_key, password_hash, date_joined, timezone, can_create_users)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      u.email,
      u.email,
      u.full_name,
      u.role,
      u.is_bot ? 1 : 0,
      u.api_key ?? newApiKey(),
      u.password === undefined ? null : hashPassword(u.password),
      seconds(srv.clock),
      u.timezone ?? '',
      u.can_create_users ? 1 : 0,
    );
  return getUser(srv, Number(info.lastInsertRowid))!;
}

/**
 * The user object of GET /users, GET /users/me, register's realm_users and realm_user events, as
 * Zulip's format_user_row shapes it: `bot_type` and `bot_owner_id` only for bots (its /users/me
 * schema forbids them for humans), `profile_data` only for humans.
 */
export function apiUser(srv: ServerState, u: UserRow, opts: { clientGravatar: boolean; includeIsActive: boolean }) {
  const isBot = u.is_bot === 1;
  return {
    user_id: u.id,
    email: u.email,
    delivery_email: u.delivery_email,
    full_name: u.full_name,
    date_joined: new Date(u.date_joined * 1000).toISOString(),
    ...(opts.includeIsActive ? { is_active: u.is_active === 1 } : {}),
    is_owner: u.role === ROLE.owner,
    is_admin: u.role <= ROLE.administrator,
    is_guest: u.role === ROLE.guest,
    is_bot: isBot,
    ...(isBot ? { bot_type: u.bot_type, bot_owner_id: u.bot_owner_id } : {}),
    role: u.role,
    timezone: u.timezone,
    // client_gravatar: null only for a Gravatar user (the client computes the URL), as in Zulip.
    avatar_url: opts.clientGravatar && !hasUploadedAvatar(srv, u.id) ? null : avatarUrl(srv, u),
    avatar_version: u.avatar_version,
    ...(isBot ? {} : { profile_data: {} }),
  };
}

export function avatarUrl(srv: ServerState, u: Pick<UserRow, 'id' | 'avatar_version'>): string {
  return avatarUrlOf(srv, u);
}
