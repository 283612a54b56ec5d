/**
 * Group-setting values (spec "Group-setting value") and the rules on them that the reference
 * server enforces and the groups screen checks before queueing: which system groups a user
 * group's permission may never name, which permissions take only the object form, when two values
 * are the same permission, and which groups a group reaches through its subgroups.
 */

/** Who holds a permission: a group id, or direct members and subgroups. */
export type GroupSettingValue = number | { readonly direct_members: readonly number[]; readonly direct_subgroups: readonly number[] };

/** The six permission settings of a user group. */
export type GroupPermission = 'can_add_members_group' | 'can_join_group' | 'can_leave_group' | 'can_manage_group' | 'can_mention_group' | 'can_remove_members_group';

/** System groups a setting may never name (spec: can_manage_group, can_mention_group; Zulip refuses `role:internet` for every group setting). */
export const FORBIDDEN_SYSTEM_GROUPS: Readonly<Record<GroupPermission, readonly string[]>> = {
  can_add_members_group: ['role:internet'],
  can_join_group: ['role:internet'],
  can_leave_group: ['role:internet'],
  can_manage_group: ['role:internet', 'role:everyone'],
  can_mention_group: ['role:internet', 'role:owners'],
  can_remove_members_group: ['role:internet'],
};

/** Settings the server takes only in the object form (`{direct_members, direct_subgroups}`). */
export const OBJECT_FORM_ONLY: ReadonlySet<GroupPermission> = new Set(['can_mention_group']);

/** A value with no direct members and exactly one subgroup means that group (Zulip's parse_group_setting_value). */
export function normalizeGroupSetting<V extends GroupSettingValue>(v: V): V | number {
  if (typeof v !== 'number' && v.direct_members.length === 0 && v.direct_subgroups.length === 1) return v.direct_subgroups[0]!;
  return v;
}

/** Equal as permissions: order and repeats do not matter, nor a lone subgroup against its id. */
export function groupSettingEquals(a: GroupSettingValue, b: GroupSettingValue): boolean {
  const x = normalizeGroupSetting(a);
  const y = normalizeGroupSetting(b);
  if (typeof x === 'number' || typeof y === 'number') return x === y;
  const norm = (xs: readonly number[]) => [...new Set(xs)].sort((p, q) => p - q).join(',');
  return norm(x.direct_members) === norm(y.direct_members) && norm(x.direct_subgroups) === norm(y.direct_subgroups);
}

/** Every group id reachable from `groupId` through subgroups, itself included (cycle-safe). */
export function reachableGroups(groupId: number, subgroupsOf: (id: number) => readonly number[]): Set<number> {
  const seen = new Set<number>();
  const stack = [groupId];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...subgroupsOf(id));
  }
  return seen;
}
