/**
 * Group membership and group-setting values. System groups are nested by role:
 *   role:owners ⊂ role:administrators ⊂ role:moderators ⊂ role:fullmembers ⊂ role:members
 *   ⊂ role:everyone ⊂ role:internet;  role:nobody is empty.
 * User-defined groups have direct members and subgroups (recursive, cycle-safe).
 */
import { badRequest } from '../http/errors.js';
import type { ServerState } from '../state.js';
import { getUser } from './users.js';

export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

/** Highest (numerically largest) role a member of each system group may have; -1 = nobody. */
export const SYSTEM_GROUP_MAX_ROLE: Readonly<Record<string, number>> = {
  'role:internet': 600,
  'role:everyone': 600,
  'role:members': 400,
  'role:fullmembers': 400,
  'role:moderators': 300,
  'role:administrators': 200,
  'role:owners': 100,
  'role:nobody': -1,
};
export const SYSTEM_GROUP_NAMES = Object.keys(SYSTEM_GROUP_MAX_ROLE);

export interface GroupRow {
  id: number;
  name: string;
  description: string;
  is_system_group: number;
  deactivated: number;
  creator_id: number | null;
  date_created: number | null;
  settings: string;
}

export function getGroup(srv: ServerState, id: number): GroupRow | undefined {
  return srv.db.prepare('SELECT * FROM user_groups WHERE id = ?').get(id) as GroupRow | undefined;
}

export function systemGroupId(srv: ServerState, name: string): number {
  const id = srv.db.prepare('SELECT id FROM user_groups WHERE name = ? AND is_system_group = 1').pluck().get(name) as number | undefined;
  if (id === undefined) throw new Error(`system group ${name} missing (realm not seeded?)`);
  return id;
}

export function isUserInGroup(srv: ServerState, userId: number, groupId: number, seen: Set<number> = new Set()): boolean {
  if (seen.has(groupId)) return false;
  seen.add(groupId);
  const g = getGroup(srv, groupId);
  if (!g) return false;
  if (g.is_system_group) {
    const maxRole = SYSTEM_GROUP_MAX_ROLE[g.name] ?? -1;
    const u = getUser(srv, userId);
    return !!u && u.is_active === 1 && u.role <= maxRole;
  }
  if (srv.db.prepare('SELECT 1 FROM group_members WHERE group_id = ? AND user_id = ?').get(groupId, userId)) return true;
  const subs = srv.db.prepare('SELECT subgroup_id FROM group_subgroups WHERE group_id = ?').pluck().all(groupId) as number[];
  return subs.some((s) => isUserInGroup(srv, userId, s, seen));
}

export function userHasPermission(srv: ServerState, userId: number, value: GroupSettingValue): boolean {
  if (typeof value === 'number') return isUserInGroup(srv, userId, value);
  if (value.direct_members.includes(userId)) return true;
  return value.direct_subgroups.some((g) => isUserInGroup(srv, userId, g));
}

/**
 * Checks a group-setting value sent by a client: every group must exist and not be deactivated,
 * every user must exist; `forbidden` system groups (by name) are rejected.
 */
export function validateGroupSettingValue(
  srv: ServerState,
  setting: string,
  value: GroupSettingValue,
  opts: { forbidden?: readonly string[]; objectOnly?: boolean } = {},
): void {
  if (opts.objectOnly && typeof value === 'number') {
    throw badRequest(`'${setting}' must be a group-setting object`);
  }
  const groupIds = typeof value === 'number' ? [value] : value.direct_subgroups;
  for (const id of groupIds) {
    const g = getGroup(srv, id);
    if (!g) throw badRequest('Invalid user group');
    if (g.deactivated) throw badRequest('User group is deactivated.');
    if (opts.forbidden?.includes(g.name)) throw badRequest(`'${setting}' setting cannot be set to '${g.name}' group.`);
  }
  if (typeof value !== 'number') {
    for (const uid of value.direct_members) {
      const u = getUser(srv, uid);
      if (!u || !u.is_active) throw badRequest(`Invalid user ID: ${uid}`);
    }
  }
}
