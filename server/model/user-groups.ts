/**
 * User groups as the API shows them (GET /user_groups, register's realm_user_groups, `user_group`
 * events), their direct members and subgroups, and their permission settings with Zulip's
 * defaults. System groups derive their direct members from roles and nest as
 * owners ⊂ administrators ⊂ moderators ⊂ fullmembers ⊂ members ⊂ everyone ⊂ internet. The rules on
 * values the client checks too (forbidden system groups, equality, reachability) are
 * common/group-settings.ts.
 */
import { reachableGroups, type GroupPermission } from '../../common/group-settings.js';
import type { ServerState } from '../state.js';
import { getGroup, systemGroupId, type GroupRow, type GroupSettingValue } from './groups.js';

export const GROUP_PERMISSION_SETTINGS = [
  'can_add_members_group',
  'can_join_group',
  'can_leave_group',
  'can_manage_group',
  'can_mention_group',
  'can_remove_members_group',
] as const satisfies readonly GroupPermission[];
export type GroupPermissionSetting = (typeof GROUP_PERMISSION_SETTINGS)[number];

/** Defaults of user-defined groups; `group_creator` means {direct_members: [creator]} (nobody without one). */
const USER_GROUP_DEFAULTS: Record<GroupPermissionSetting, string> = {
  can_add_members_group: 'group_creator',
  can_join_group: 'role:nobody',
  can_leave_group: 'role:everyone',
  can_manage_group: 'group_creator',
  can_mention_group: 'role:everyone',
  can_remove_members_group: 'group_creator',
};

/** System groups: nobody may change them; everyone may mention them. */
const SYSTEM_GROUP_SETTINGS: Record<GroupPermissionSetting, string> = {
  can_add_members_group: 'role:nobody',
  can_join_group: 'role:nobody',
  can_leave_group: 'role:nobody',
  can_manage_group: 'role:nobody',
  can_mention_group: 'role:everyone',
  can_remove_members_group: 'role:nobody',
};

/** Role range of each system group's direct members, and its one direct subgroup. */
const SYSTEM_GROUP_SHAPE: Readonly<Record<string, { roles: readonly number[]; subgroup: string | null }>> = {
  'role:owners': { roles: [100], subgroup: null },
  'role:administrators': { roles: [200], subgroup: 'role:owners' },
  'role:moderators': { roles: [300], subgroup: 'role:administrators' },
  'role:fullmembers': { roles: [400], subgroup: 'role:moderators' },
  'role:members': { roles: [400], subgroup: 'role:fullmembers' },
  'role:everyone': { roles: [600], subgroup: 'role:members' },
  'role:internet': { roles: [], subgroup: 'role:everyone' },
  'role:nobody': { roles: [], subgroup: null },
};

export function directMemberIds(srv: ServerState, g: GroupRow): number[] {
  if (g.is_system_group) {
    const roles = SYSTEM_GROUP_SHAPE[g.name]?.roles ?? [];
    if (roles.length === 0) return [];
    return srv.db
      .prepare(`SELECT id FROM users WHERE is_active = 1 AND role IN (${roles.map(() => '?').join(',')}) ORDER BY id`)
      .pluck()
      .all(...roles) as number[];
  }
  return srv.db
    .prepare('SELECT m.user_id FROM group_members m JOIN users u ON u.id = m.user_id WHERE m.group_id = ? AND u.is_active = 1 ORDER BY m.user_id')
    .pluck()
    .all(g.id) as number[];
}

export function directSubgroupIds(srv: ServerState, g: GroupRow): number[] {
  if (g.is_system_group) {
    const sub = SYSTEM_GROUP_SHAPE[g.name]?.subgroup;
    return sub ? [systemGroupId(srv, sub)] : [];
  }
  return srv.db.prepare('SELECT subgroup_id FROM group_subgroups WHERE group_id = ? ORDER BY subgroup_id').pluck().all(g.id) as number[];
}

/** Every group id reachable from `groupId` through subgroups (including itself). */
export function recursiveSubgroupIds(srv: ServerState, groupId: number): Set<number> {
  return reachableGroups(groupId, (id) => {
    const g = getGroup(srv, id);
    return g ? directSubgroupIds(srv, g) : [];
  });
}

function resolveDefault(srv: ServerState, name: string, creatorId: number | null): GroupSettingValue {
  if (name === 'group_creator') {
    return creatorId === null ? systemGroupId(srv, 'role:nobody') : { direct_members: [creatorId], direct_subgroups: [] };
  }
  return systemGroupId(srv, name);
}

/** The stored value of one of a group's permission settings, or Zulip's default. */
export function groupPermission(srv: ServerState, g: GroupRow, setting: GroupPermissionSetting): GroupSettingValue {
  if (g.is_system_group) return systemGroupId(srv, SYSTEM_GROUP_SETTINGS[setting]);
  const stored = (JSON.parse(g.settings) as Partial<Record<GroupPermissionSetting, GroupSettingValue>>)[setting];
  return stored ?? resolveDefault(srv, USER_GROUP_DEFAULTS[setting], g.creator_id);
}

export function setGroupPermission(srv: ServerState, groupId: number, setting: GroupPermissionSetting, value: GroupSettingValue): void {
  const g = getGroup(srv, groupId);
  if (!g) return;
  const settings = JSON.parse(g.settings) as Record<string, unknown>;
  settings[setting] = value;
  srv.db.prepare('UPDATE user_groups SET settings = ? WHERE id = ?').run(JSON.stringify(settings), groupId);
}

/** A group-setting value as the API shows it: deactivated users leave `direct_members` (FL 303). */
export function apiGroupSettingValue(srv: ServerState, v: GroupSettingValue): GroupSettingValue {
  if (typeof v === 'number') return v;
  const active = v.direct_members.filter((id) => srv.db.prepare('SELECT 1 FROM users WHERE id = ? AND is_active = 1').get(id));
  return { direct_members: [...active].sort((a, b) => a - b), direct_subgroups: [...v.direct_subgroups].sort((a, b) => a - b) };
}

/** The UserGroup object of GET /user_groups and register's realm_user_groups. */
export function apiUserGroup(srv: ServerState, g: GroupRow) {
  const permissions: Record<string, GroupSettingValue> = {};
  for (const s of GROUP_PERMISSION_SETTINGS) permissions[s] = apiGroupSettingValue(srv, groupPermission(srv, g, s));
  return {
    id: g.id,
    name: g.name,
    description: g.description,
    members: directMemberIds(srv, g),
    direct_subgroup_ids: directSubgroupIds(srv, g),
    is_system_group: g.is_system_group === 1,
    creator_id: g.creator_id,
    date_created: g.date_created,
    deactivated: g.deactivated === 1,
    ...(permissions as Record<GroupPermissionSetting, GroupSettingValue>),
  };
}

/** All groups, system groups first then by id (Zulip orders by id; system groups are created first). */
export function listGroups(srv: ServerState, opts: { includeDeactivated: boolean }): GroupRow[] {
  const sql = opts.includeDeactivated ? 'SELECT * FROM user_groups ORDER BY id' : 'SELECT * FROM user_groups WHERE deactivated = 0 ORDER BY id';
  return srv.db.prepare(sql).all() as GroupRow[];
}

/** Whether a value names the group, directly or as a subgroup of an anonymous value. */
export function settingUsesGroup(v: GroupSettingValue, groupId: number): boolean {
  return typeof v === 'number' ? v === groupId : v.direct_subgroups.includes(groupId);
}
