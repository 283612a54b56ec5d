/**
 * Pure: the rules of user groups as the server applies them (spec "PATCH /user_groups/{id}",
 * "POST /user_groups/{id}/members"; the reference server's access_user_group_for_update), for the
 * groups screen to offer only what the user may do and to say why the rest is disabled:
 *
 *   - guests change nothing; system groups are nobody's to change;
 *   - managing (name, description, permissions, removing subgroups, deactivating, reactivating)
 *     needs the realm's `can_manage_all_groups` or the group's `can_manage_group`;
 *   - adding members or subgroups: managing, or `can_add_members_group`; removing members:
 *     managing, or `can_remove_members_group`; joining / leaving oneself also `can_join_group` /
 *     `can_leave_group`;
 *   - a permission setting never names `role:internet`; `can_manage_group` not `role:everyone`,
 *     `can_mention_group` not `role:owners` (and only in the object form); a deactivated group
 *     cannot be used in a permission until reactivated.
 *
 * Membership is recursive through subgroups; system groups carry their members by role (the
 * server's `members`), so every check reads the groups alone.
 */
import { FORBIDDEN_SYSTEM_GROUPS, groupSettingEquals, OBJECT_FORM_ONLY, reachableGroups } from '../../../common/group-settings.js';
import type { GroupSettingValueView as Value, UserGroupPermission, UserGroupView as Group } from '../../../sync/protocol/commands.js';

export type { Value, Group };

/** Zulip web's names for the system groups. */
export const SYSTEM_GROUP_LABELS: Readonly<Record<string, string>> = {
  'role:internet': 'Everyone on the internet',
  'role:everyone': 'Everyone including guests',
  'role:members': 'Everyone except guests',
  'role:fullmembers': 'Full members',
  'role:moderators': 'Moderators',
  'role:administrators': 'Administrators',
  'role:owners': 'Owners',
  'role:nobody': 'Nobody',
};

/** The order Zulip web offers them in, widest first. */
export const SYSTEM_GROUP_ORDER = ['role:internet', 'role:everyone', 'role:members', 'role:fullmembers', 'role:moderators', 'role:administrators', 'role:owners', 'role:nobody'];

/** What each setting is, in words (Zulip web's labels). */
export const PERMISSION_LABELS: Readonly<Record<UserGroupPermission, string>> = {
  can_manage_group: 'Who can administer this group',
  can_mention_group: 'Who can mention this group',
  can_add_members_group: 'Who can add members to this group',
  can_remove_members_group: 'Who can remove members from this group',
  can_join_group: 'Who can join this group',
  can_leave_group: 'Who can leave this group',
};

export const GUEST_ROLE = 600;

export type GroupsById = ReadonlyMap<number, Group>;

export const byId = (groups: readonly Group[]): GroupsById => new Map(groups.map((g) => [g.id, g]));

/** Is the user in the group, directly or through its subgroups (cycle-safe)? */
export function isMember(groups: GroupsById, userId: number, groupId: number, seen: Set<number> = new Set()): boolean {
  if (seen.has(groupId)) return false;
  seen.add(groupId);
  const g = groups.get(groupId);
  if (!g) return false;
  if (g.members.includes(userId)) return true;
  return g.direct_subgroup_ids.some((s) => isMember(groups, userId, s, seen));
}

/** Does the value cover the user? (null, a setting the server did not tell: nobody.) */
export function holds(groups: GroupsById, userId: number | null, value: Value | null): boolean {
  if (userId === null || value === null) return false;
  if (typeof value === 'number') return isMember(groups, userId, value);
  return value.direct_members.includes(userId) || value.direct_subgroups.some((s) => isMember(groups, userId, s));
}

/** Every group id reachable from `groupId` through subgroups, itself included. */
export const reachable = (groups: GroupsById, groupId: number): Set<number> => reachableGroups(groupId, (id) => groups.get(id)?.direct_subgroup_ids ?? []);

export interface Self {
  readonly userId: number | null;
  readonly role: number | null;
}

/** Yes, or no with the reason in words. */
export type Allowed = { readonly ok: true } | { readonly ok: false; readonly why: string };
const yes: Allowed = { ok: true };

export interface Abilities {
  /** Name, description, permissions, removing subgroups, deactivating and reactivating. */
  readonly manage: Allowed;
  readonly addMembers: Allowed;
  readonly removeMembers: Allowed;
  readonly join: Allowed;
  readonly leave: Allowed;
  readonly addSubgroups: Allowed;
  readonly removeSubgroups: Allowed;
}

/** Interface: a group-setting value in words ("Administrators", "King Hamlet, players"). */
export interface Namer {
  user(id: number): string | undefined;
}

export function valueInWords(value: Value | null, groups: GroupsById, names: Namer): string {
  if (value === null) return 'not known';
  const groupName = (id: number) => {
    const g = groups.get(id);
    if (!g) return `group ${id}`;
    return g.is_system_group ? (SYSTEM_GROUP_LABELS[g.name] ?? g.name) : g.name;
  };
  if (typeof value === 'number') return groupName(value);
  const parts = [...value.direct_subgroups.map(groupName), ...value.direct_members.map((u) => names.user(u) ?? `user ${u}`)];
  return parts.length === 0 ? 'Nobody' : parts.join(', ');
}

/** Who may manage the group, in words: its own setting plus the realm's managers of every group. */
export function whoManages(group: Group, manageAll: Value | null, groups: GroupsById, names: Namer): string {
  const own = valueInWords(group.can_manage_group, groups, names);
  const all = valueInWords(manageAll, groups, names);
  return manageAll === null || all === own ? own : `${own} (and ${all}, who manage every group)`;
}

const only = (who: string, rest: string) => (who === 'Nobody' ? `Nobody ${rest}` : `Only ${who} ${rest}`);

/** What the user may do to the group, as the server will judge it from what is known here. */
export function abilities(group: Group, self: Self, manageAll: Value | null, groups: GroupsById, names: Namer): Abilities {
  const no = (why: string): Allowed => ({ ok: false, why });
  if (self.role === GUEST_ROLE) {
    const g = no('Guests cannot change user groups.');
    return { manage: g, addMembers: g, removeMembers: g, join: g, leave: g, addSubgroups: g, removeSubgroups: g };
  }
  if (group.is_system_group) {
    const s = no('System groups follow the members’ roles; nobody can change them.');
    return { manage: s, addMembers: s, removeMembers: s, join: s, leave: s, addSubgroups: s, removeSubgroups: s };
  }
  const has = (v: Value | null) => holds(groups, self.userId, v);
  const managers = whoManages(group, manageAll, groups, names);
  const manages = has(manageAll) || has(group.can_manage_group);
  const manage = manages ? yes : no(`Only ${managers} can manage this group.`);
  // Who may besides the managers: "Only Moderators or those who manage it (…)", or just the managers.
  const orManagers = (v: Value | null, rest: string) => {
    const who = valueInWords(v, groups, names);
    return who === managers || who === valueInWords(group.can_manage_group, groups, names) || who === 'Nobody' ? `Only ${managers} ${rest}` : `Only ${who} or those who manage it (${managers}) ${rest}`;
  };
  const add = manages || has(group.can_add_members_group);
  const remove = manages || has(group.can_remove_members_group);
  return {
    manage,
    addMembers: add ? yes : no(orManagers(group.can_add_members_group, 'can add members to this group.')),
    removeMembers: remove ? yes : no(orManagers(group.can_remove_members_group, 'can remove members from this group.')),
    join: add || has(group.can_join_group) ? yes : no(only(valueInWords(group.can_join_group, groups, names), 'can join this group.')),
    leave: remove || has(group.can_leave_group) ? yes : no(only(valueInWords(group.can_leave_group, groups, names), 'can leave this group.')),
    addSubgroups: add ? yes : no(orManagers(group.can_add_members_group, 'can add subgroups to this group.')),
    removeSubgroups: manage,
  };
}

/** Groups that may become direct subgroups of `group`: named, active, not already in, no cycle. */
export function subgroupCandidates(group: Group, groups: GroupsById): Group[] {
  return [...groups.values()].filter(
    (g) => !g.is_system_group && !g.deactivated && g.id !== group.id && !group.direct_subgroup_ids.includes(g.id) && !reachable(groups, g.id).has(group.id),
  );
}

// ---- editing one group-setting value ----

/** The editor's state: one system group, or specific users and groups. */
export type SettingDraft = { readonly mode: 'system'; readonly group: number } | { readonly mode: 'custom'; readonly users: readonly number[]; readonly groups: readonly number[] };

export type SettingAction =
  | { readonly type: 'system'; readonly group: number }
  | { readonly type: 'custom' }
  | { readonly type: 'add_user'; readonly id: number }
  | { readonly type: 'remove_user'; readonly id: number }
  | { readonly type: 'add_group'; readonly id: number }
  | { readonly type: 'remove_group'; readonly id: number };

const isSystem = (groups: GroupsById, id: number) => groups.get(id)?.is_system_group === true;

/** The draft a stored value starts from (a lone system subgroup is that system group, as the server reads it). */
export function draftOf(value: Value | null, groups: GroupsById): SettingDraft {
  if (value === null) return { mode: 'custom', users: [], groups: [] };
  if (typeof value === 'number') return isSystem(groups, value) ? { mode: 'system', group: value } : { mode: 'custom', users: [], groups: [value] };
  if (value.direct_members.length === 0 && value.direct_subgroups.length === 1 && isSystem(groups, value.direct_subgroups[0]!)) {
    return { mode: 'system', group: value.direct_subgroups[0]! };
  }
  return { mode: 'custom', users: [...value.direct_members], groups: [...value.direct_subgroups] };
}

export function editDraft(d: SettingDraft, a: SettingAction): SettingDraft {
  const custom = d.mode === 'custom' ? d : { mode: 'custom' as const, users: [], groups: [] };
  switch (a.type) {
    case 'system':
      return { mode: 'system', group: a.group };
    case 'custom':
      // Starting from a system group keeps it as the first entry (the same people, now editable).
      return d.mode === 'custom' ? d : { mode: 'custom', users: [], groups: [d.group] };
    case 'add_user':
      return custom.users.includes(a.id) ? custom : { ...custom, users: [...custom.users, a.id] };
    case 'remove_user':
      return { ...custom, users: custom.users.filter((u) => u !== a.id) };
    case 'add_group':
      return custom.groups.includes(a.id) ? custom : { ...custom, groups: [...custom.groups, a.id] };
    case 'remove_group':
      return { ...custom, groups: custom.groups.filter((g) => g !== a.id) };
  }
}

/** The value to send for `setting` (the object form where the server takes only that). */
export function valueOf(d: SettingDraft, setting: UserGroupPermission): Value {
  if (d.mode === 'system') return OBJECT_FORM_ONLY.has(setting) ? { direct_members: [], direct_subgroups: [d.group] } : d.group;
  const sorted = (xs: readonly number[]) => [...new Set(xs)].sort((x, y) => x - y);
  return { direct_members: sorted(d.users), direct_subgroups: sorted(d.groups) };
}

/** Equal as permissions (order, and a lone subgroup against its id, do not matter). */
export const sameValue = (a: Value | null, b: Value | null): boolean => (a === null || b === null ? a === b : groupSettingEquals(a, b));

/** Why `value` cannot be `setting` of a group (null: it can): the spec's rules, checked before queueing. */
export function settingProblem(setting: UserGroupPermission, value: Value, groups: GroupsById): string | null {
  const ids = typeof value === 'number' ? [value] : value.direct_subgroups;
  for (const id of ids) {
    const g = groups.get(id);
    if (!g) return `Group ${id} is not known here.`;
    if (g.deactivated) return `“${g.name}” is deactivated: reactivate it before using it in a permission.`;
    if (g.is_system_group && FORBIDDEN_SYSTEM_GROUPS[setting].includes(g.name)) {
      return `${PERMISSION_LABELS[setting]}: cannot be ${SYSTEM_GROUP_LABELS[g.name] ?? g.name}.`;
    }
  }
  if (OBJECT_FORM_ONLY.has(setting) && typeof value === 'number') return `${PERMISSION_LABELS[setting]}: the server takes only specific users and groups here.`;
  return null;
}

/** The system groups a setting's picker offers, each allowed or not (with why). */
export function systemChoices(setting: UserGroupPermission, groups: readonly Group[]): Array<{ group: Group; label: string; allowed: boolean }> {
  const system = groups.filter((g) => g.is_system_group);
  const rank = (g: Group) => {
    const i = SYSTEM_GROUP_ORDER.indexOf(g.name);
    return i < 0 ? SYSTEM_GROUP_ORDER.length : i;
  };
  return system
    .sort((a, b) => rank(a) - rank(b) || a.id - b.id)
    .map((g) => ({ group: g, label: SYSTEM_GROUP_LABELS[g.name] ?? g.name, allowed: !FORBIDDEN_SYSTEM_GROUPS[setting].includes(g.name) }));
}
