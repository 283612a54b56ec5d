/**
 * User groups: GET /user_groups, PATCH /user_groups/{id} (name, description, permission settings
 * as `{new, old?}` update values, reactivation), POST /user_groups/{id}/members (members and
 * subgroups, FL 311) and POST /user_groups/{id}/deactivate. Permission checks follow Zulip's
 * access_user_group_for_update: realm can_manage_all_groups, the group's can_manage_group, or
 * the specific setting (can_add_members_group, can_join_group, …).
 */
import { FORBIDDEN_SYSTEM_GROUPS, groupSettingEquals, OBJECT_FORM_ONLY } from '../../common/group-settings.js';
import * as z from 'zod';
import { emit } from '../events/emit.js';
import type { EventBody } from '../events/queues.js';
import { badRequest, JsonableError } from '../http/errors.js';
import { groupDeactivationObjections } from '../model/group-objections.js';
import { getGroup, userHasPermission, validateGroupSettingValue, type GroupRow } from '../model/groups.js';
import { getRealm } from '../model/realm.js';
import {
  apiGroupSettingValue,
  apiUserGroup,
  directMemberIds,
  directSubgroupIds,
  GROUP_PERMISSION_SETTINGS,
  groupPermission,
  listGroups,
  recursiveSubgroupIds,
  setGroupPermission,
  type GroupPermissionSetting,
} from '../model/user-groups.js';
import { activeUserIds, isGuest, requireActiveUsers, type UserRow } from '../model/users.js';
import type { ServerState } from '../state.js';
import { pathId, route, type ApiRouter, type Ctx } from './context.js';
import { groupSettingValueSchema } from './subscribe.js';

/** NamedUserGroup.MAX_NAME_LENGTH and INVALID_NAME_PREFIXES. */
const MAX_GROUP_NAME_LENGTH = 100;
const INVALID_NAME_PREFIXES = ['@', 'role:', 'user:', 'stream:', 'channel:'];

const updateValueSchema = z.object({ new: groupSettingValueSchema, old: groupSettingValueSchema.optional() }).strict();
const idsSchema = z.array(z.number().int());

const notForGuests = (u: UserRow) => {
  if (isGuest(u)) throw badRequest('Not allowed for guest users');
};

/** Events about a group; while it is deactivated only queues with include_deactivated_groups know it. */
function emitGroupEvent(srv: ServerState, g: GroupRow, body: EventBody): void {
  const deactivated = getGroup(srv, g.id)?.deactivated === 1;
  emit(srv, activeUserIds(srv), (q) => (deactivated && !q.options.capabilities.include_deactivated_groups ? null : body));
}

/** access_user_group_for_update: the group exists, is not a system group, and the user may act on it. */
export function accessGroupForUpdate(srv: ServerState, user: UserRow, groupId: number, permission: GroupPermissionSetting, allowDeactivated = true): GroupRow {
  const g = getGroup(srv, groupId);
  if (!g) throw badRequest('Invalid user group');
  if (!allowDeactivated && g.deactivated) throw badRequest('User group is deactivated.');
  if (g.is_system_group) throw badRequest('Insufficient permission');
  if (userHasPermission(srv, user.id, getRealm(srv).can_manage_all_groups)) return g;
  if (userHasPermission(srv, user.id, groupPermission(srv, g, 'can_manage_group'))) return g;
  if (permission !== 'can_manage_group' && userHasPermission(srv, user.id, groupPermission(srv, g, permission))) return g;
  throw badRequest('Insufficient permission');
}

function checkGroupName(srv: ServerState, name: string, selfId: number): string {
  if (name.trim() === '') throw badRequest("User group name can't be empty!");
  if ([...name].length > MAX_GROUP_NAME_LENGTH) throw badRequest(`User group name cannot exceed ${MAX_GROUP_NAME_LENGTH} characters.`);
  const prefix = INVALID_NAME_PREFIXES.find((p) => name.startsWith(p));
  if (prefix) throw badRequest(`User group name cannot start with '${prefix}'.`);
  const other = srv.db.prepare('SELECT id FROM user_groups WHERE name = ? AND id != ?').pluck().get(name, selfId);
  if (other !== undefined) throw badRequest(`User group '${name}' already exists.`);
  return name;
}

function getUserGroups({ srv, params, user }: Ctx) {
  const includeDeactivated = params.bool('include_deactivated_groups') ?? false;
  notForGuests(user);
  return { user_groups: listGroups(srv, { includeDeactivated }).map((g) => apiUserGroup(srv, g)) };
}

function updateUserGroup(ctx: Ctx) {
  const { srv, params, user } = ctx;
  notForGuests(user);
  const groupId = pathId(ctx, 'user_group_id');
  const name = params.str('name');
  const description = params.str('description');
  const deactivated = params.bool('deactivated');
  const updates = new Map<GroupPermissionSetting, z.output<typeof updateValueSchema>>();
  for (const s of GROUP_PERMISSION_SETTINGS) {
    const v = params.json(s, updateValueSchema);
    if (v !== undefined) updates.set(s, v);
  }
  if (name === undefined && description === undefined && deactivated === undefined && updates.size === 0) throw badRequest('No new data supplied');
  const g = accessGroupForUpdate(srv, user, groupId, 'can_manage_group');

  if (name !== undefined && name !== g.name) {
    srv.db.prepare('UPDATE user_groups SET name = ? WHERE id = ?').run(checkGroupName(srv, name, g.id), g.id);
    emitGroupEvent(srv, g, { type: 'user_group', op: 'update', group_id: g.id, data: { name } });
  }
  if (description !== undefined && description !== g.description) {
    srv.db.prepare('UPDATE user_groups SET description = ? WHERE id = ?').run(description, g.id);
    emitGroupEvent(srv, g, { type: 'user_group', op: 'update', group_id: g.id, data: { description } });
  }
  // `deactivated: true` does nothing here: deactivation has its own endpoint.
  if (deactivated === false && g.deactivated) reactivate(srv, g);

  for (const [setting, v] of updates) {
    const current = apiGroupSettingValue(srv, groupPermission(srv, g, setting));
    if (v.old !== undefined && !groupSettingEquals(v.old, current)) {
      throw new JsonableError('EXPECTATION_MISMATCH', "'old' value does not match the expected value.", 400, { field_name: 'old' });
    }
    if (groupSettingEquals(v.new, current)) continue;
    validateGroupSettingValue(srv, setting, v.new, { forbidden: FORBIDDEN_SYSTEM_GROUPS[setting], objectOnly: OBJECT_FORM_ONLY.has(setting) });
    setGroupPermission(srv, g.id, setting, v.new);
    emitGroupEvent(srv, g, { type: 'user_group', op: 'update', group_id: g.id, data: { [setting]: apiGroupSettingValue(srv, v.new) } });
  }
  return {};
}

function reactivate(srv: ServerState, g: GroupRow): void {
  srv.db.prepare('UPDATE user_groups SET deactivated = 0 WHERE id = ?').run(g.id);
  const group = apiUserGroup(srv, getGroup(srv, g.id)!);
  emit(srv, activeUserIds(srv), (q) =>
    q.options.capabilities.include_deactivated_groups
      ? { type: 'user_group', op: 'update', group_id: g.id, data: { deactivated: false } }
      : { type: 'user_group', op: 'add', group },
  );
}

function deactivateUserGroup(ctx: Ctx) {
  const { srv, user } = ctx;
  notForGuests(user);
  const g = accessGroupForUpdate(srv, user, pathId(ctx, 'user_group_id'), 'can_manage_group', false);
  const objections = groupDeactivationObjections(srv, g.id);
  if (objections.length > 0) throw new JsonableError('CANNOT_DEACTIVATE_GROUP_IN_USE', 'Cannot deactivate user group in use.', 400, { objections });
  srv.db.prepare('UPDATE user_groups SET deactivated = 1 WHERE id = ?').run(g.id);
  emit(srv, activeUserIds(srv), (q) =>
    q.options.capabilities.include_deactivated_groups
      ? { type: 'user_group', op: 'update', group_id: g.id, data: { deactivated: true } }
      : { type: 'user_group', op: 'remove', group_id: g.id },
  );
  return {};
}

function updateMembers(ctx: Ctx) {
  const { srv, params, user } = ctx;
  notForGuests(user);
  const groupId = pathId(ctx, 'user_group_id');
  const add = params.json('add', idsSchema) ?? [];
  const del = params.json('delete', idsSchema) ?? [];
  const addSub = params.json('add_subgroups', idsSchema) ?? [];
  const delSub = params.json('delete_subgroups', idsSchema) ?? [];
  if (add.length + del.length + addSub.length + delSub.length === 0) {
    throw badRequest('Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".');
  }
  if (add.length > 0) addMembers(srv, user, groupId, add);
  if (del.length > 0) removeMembers(srv, user, groupId, del);
  if (addSub.length > 0) addSubgroups(srv, user, groupId, addSub);
  if (delSub.length > 0) removeSubgroups(srv, user, groupId, delSub);
  return {};
}

function addMembers(srv: ServerState, user: UserRow, groupId: number, ids: number[]): void {
  const self = ids.length === 1 && ids[0] === user.id;
  const g = self ? accessEither(srv, user, groupId, 'can_join_group', 'can_add_members_group') : accessGroupForUpdate(srv, user, groupId, 'can_add_members_group');
  const users = requireActiveUsers(srv, [...new Set(ids)]);
  const existing = new Set(directMemberIds(srv, g));
  for (const u of users) if (existing.has(u.id)) throw badRequest(`User ${u.id} is already a member of this group`);
  const insert = srv.db.prepare('INSERT INTO group_members (group_id, user_id) VALUES (?, ?)');
  for (const u of users) insert.run(g.id, u.id);
  emitGroupEvent(srv, g, { type: 'user_group', op: 'add_members', group_id: g.id, user_ids: users.map((u) => u.id) });
}

function removeMembers(srv: ServerState, user: UserRow, groupId: number, ids: number[]): void {
  const users = requireActiveUsers(srv, [...new Set(ids)]);
  const self = ids.length === 1 && ids[0] === user.id;
  const g = self ? accessEither(srv, user, groupId, 'can_leave_group', 'can_remove_members_group') : accessGroupForUpdate(srv, user, groupId, 'can_remove_members_group');
  const existing = new Set(directMemberIds(srv, g));
  for (const u of users) if (!existing.has(u.id)) throw badRequest(`There is no member '${u.id}' in this user group`);
  const del = srv.db.prepare('DELETE FROM group_members WHERE group_id = ? AND user_id = ?');
  for (const u of users) del.run(g.id, u.id);
  emitGroupEvent(srv, g, { type: 'user_group', op: 'remove_members', group_id: g.id, user_ids: users.map((u) => u.id) });
}

/** Joining or leaving yourself: the first permission, else the second (Zulip retries with it). */
function accessEither(srv: ServerState, user: UserRow, groupId: number, first: GroupPermissionSetting, second: GroupPermissionSetting): GroupRow {
  try {
    return accessGroupForUpdate(srv, user, groupId, first);
  } catch {
    return accessGroupForUpdate(srv, user, groupId, second);
  }
}

function requireSubgroups(srv: ServerState, ids: number[]): GroupRow[] {
  return [...new Set(ids)].map((id) => {
    const sub = getGroup(srv, id);
    if (!sub) throw badRequest(`Invalid user group ID: ${id}`);
    return sub;
  });
}

function addSubgroups(srv: ServerState, user: UserRow, groupId: number, ids: number[]): void {
  const subs = requireSubgroups(srv, ids);
  const g = accessGroupForUpdate(srv, user, groupId, 'can_add_members_group');
  for (const s of subs) if (s.deactivated) throw badRequest('User group is deactivated.');
  const existing = new Set(directSubgroupIds(srv, g));
  for (const s of subs) if (existing.has(s.id)) throw badRequest(`User group ${s.id} is already a subgroup of this group.`);
  // A cycle: the group is (recursively) inside one of the new subgroups, or is one of them.
  if (subs.some((s) => recursiveSubgroupIds(srv, s.id).has(g.id))) throw badRequest(`User group ${g.id} is already a subgroup of one of the passed subgroups.`);
  const insert = srv.db.prepare('INSERT INTO group_subgroups (group_id, subgroup_id) VALUES (?, ?)');
  for (const s of subs) insert.run(g.id, s.id);
  emitGroupEvent(srv, g, { type: 'user_group', op: 'add_subgroups', group_id: g.id, direct_subgroup_ids: subs.map((s) => s.id) });
}

function removeSubgroups(srv: ServerState, user: UserRow, groupId: number, ids: number[]): void {
  const subs = requireSubgroups(srv, ids);
  const g = accessGroupForUpdate(srv, user, groupId, 'can_manage_group');
  const existing = new Set(directSubgroupIds(srv, g));
  for (const s of subs) if (!existing.has(s.id)) throw badRequest(`User group ${s.id} is not a subgroup of this group.`);
  const del = srv.db.prepare('DELETE FROM group_subgroups WHERE group_id = ? AND subgroup_id = ?');
  for (const s of subs) del.run(g.id, s.id);
  emitGroupEvent(srv, g, { type: 'user_group', op: 'remove_subgroups', group_id: g.id, direct_subgroup_ids: subs.map((s) => s.id) });
}

export function registerUserGroupRoutes(r: ApiRouter): void {
  route(r, 'GET', '/user_groups', getUserGroups);
  route(r, 'PATCH', '/user_groups/:user_group_id', updateUserGroup);
  route(r, 'POST', '/user_groups/:user_group_id/members', updateMembers);
  route(r, 'POST', '/user_groups/:user_group_id/deactivate', deactivateUserGroup);
}
