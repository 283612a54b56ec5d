/**
 * `update_user_group_permissions`: change a group's permission settings (`can_*_group`), sent as the
 * API's `{new, old}` update values. `old` is what the user saw when they chose `new`: the server
 * compares it with what it holds (compare-and-swap), so an offline change never silently
 * overwrites somebody else's newer one. A mismatch (400 `EXPECTATION_MISMATCH`, `field_name`
 * `old`) fails the row; the user sees the setting as it is now and retries or discards.
 *
 * A kind of its own rather than a new shape of `update_user_group` v1: the store merges a
 * coalesced intent with the QUEUED row's kind, and v1's schema would silently drop these fields.
 * Same entity as the other group kinds, so a rename and a permission change keep their order.
 * Queued changes merge per setting: the last `new` wins, the FIRST `old` stays (what the user
 * actually saw before all of them, as for content edits).
 */
import * as z from 'zod';
import { groupSettingValue, updateUserGroup, type GroupSettingValue, type UpdateUserGroupArgs } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { editUserGroup } from '../../db/queries/groups.js';
import type { ChangeCollector } from '../../db/changes.js';
import { groupKind } from './shared.js';

export const GROUP_PERMISSIONS = ['can_add_members_group', 'can_join_group', 'can_leave_group', 'can_manage_group', 'can_mention_group', 'can_remove_members_group'] as const;
export type GroupPermission = (typeof GROUP_PERMISSIONS)[number];

const update = z.object({ new: groupSettingValue, old: groupSettingValue.optional() });
const settings = z.object({
  can_add_members_group: update.optional(),
  can_join_group: update.optional(),
  can_leave_group: update.optional(),
  can_manage_group: update.optional(),
  can_mention_group: update.optional(),
  can_remove_members_group: update.optional(),
} satisfies Record<GroupPermission, unknown>);

export const userGroupPermissionsArgs = z.lazy(() => z
  .object({ user_group_id: z.number().int(), settings: settings.strict() })
  .refine((a) => Object.values(a.settings).some((v) => v !== undefined), 'nothing to change'));
export type UserGroupPermissionsArgs = z.output<typeof userGroupPermissionsArgs>;

/** Equal as permissions: a lone subgroup without direct members is that group. */
export function sameSetting(a: GroupSettingValue | undefined, b: GroupSettingValue | undefined): boolean {
  const norm = (v: GroupSettingValue | undefined) => {
    if (v === undefined || typeof v === 'number') return v;
    if (v.direct_members.length === 0 && v.direct_subgroups.length === 1) return v.direct_subgroups[0];
    return `${[...v.direct_members].sort((x, y) => x - y).join(',')}|${[...v.direct_subgroups].sort((x, y) => x - y).join(',')}`;
  };
  return norm(a) === norm(b);
}

function wireArgs(a: UserGroupPermissionsArgs): UpdateUserGroupArgs {
  const out: UpdateUserGroupArgs = { userGroupId: a.user_group_id };
  for (const p of GROUP_PERMISSIONS) {
    const v = a.settings[p];
    if (v) out[p] = v.old === undefined ? { new: v.new } : { new: v.new, old: v.old };
  }
  return out;
}

export const userGroupPermissions = groupKind({
  kind: 'update_user_group_permissions',
  version: 1,
  argsSchema: userGroupPermissionsArgs,
  says(a, g) {
    // In the order Zulip web lists them.
    const settings = Object.entries(GROUP_SETTING_WORDS).filter(([k]) => Reflect.get(a.settings, k) !== undefined).map(([, words]) => words);
    return `Change who can ${settings.join(', ')} ${g.label}`;
  },
  send: (conn, a) => updateUserGroup(conn, wireArgs(a)),
  shows: (g, a) => GROUP_PERMISSIONS.every((p) => a.settings[p] === undefined || sameSetting(g[p], a.settings[p]?.new)),
  coalesce(prev, next) {
    const p = prev.kind === 'update_user_group_permissions' ? userGroupPermissionsArgs.safeParse(prev.args) : undefined;
    if (!p?.success) return { action: 'append' };
    const merged: UserGroupPermissionsArgs['settings'] = { ...p.data.settings };
    for (const name of GROUP_PERMISSIONS) {
      const n = next.args.settings[name];
      if (!n) continue;
      const first = p.data.settings[name];
      merged[name] = first ? { new: n.new, ...(first.old !== undefined ? { old: first.old } : {}) } : n;
    }
    return { action: 'merge', args: { user_group_id: p.data.user_group_id, settings: merged }, base: null };
  },
  apply: applyOptimistic,
});

export function applyOptimistic(db: LocalDb, args: UserGroupPermissionsArgs, changes: ChangeCollector): void {
  const done = editUserGroup(db, args.user_group_id, (g) => {
    const next = { ...g };
    for (const p of GROUP_PERMISSIONS) {
      const v = args.settings[p];
      if (v) next[p] = v.new;
    }
    return next;
  });
  if (done) changes.touched('user_groups');
}

/** Fed by `updateUserGroup` (user-group-update.ts), which may queue a basics row and this one. */
export const userGroupPermissionsCommands = {};

/** What a group permission setting governs, for "Change who can … <group>". */
const GROUP_SETTING_WORDS: Record<string, string> = {
  can_manage_group: 'administer',
  can_mention_group: 'mention',
  can_add_members_group: 'add members to',
  can_remove_members_group: 'remove members from',
  can_join_group: 'join',
  can_leave_group: 'leave',
};
