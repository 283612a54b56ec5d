/**
 * `update_user_group_members`: add and remove users of a group. The server refuses to add a member or
 * remove a non-member, so queued changes merge into their net effect: adding then removing the
 * same user (or the reverse) is no change at all, and a merge that nets to nothing cancels the row.
 */
import * as z from 'zod';
import { updateUserGroupMembers } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { editUserGroup } from '../../db/queries/groups.js';
import type { ChangeCollector } from '../../db/changes.js';
import { peopleIn, queues } from '../commands.js';
import { groupKind, mergesNet, showsAddDelete, withAddDelete } from './shared.js';

const ids = z.array(z.number().int());
export const userGroupMembersArgs = z.lazy(() => z
  .object({ user_group_id: z.number().int(), add: ids.default([]), delete: ids.default([]) })
  .refine((a) => a.add.length + a.delete.length > 0, 'nothing to change'));
export type UserGroupMembersArgs = z.output<typeof userGroupMembersArgs>;

export const userGroupMembers = groupKind({
  kind: 'update_user_group_members',
  version: 1,
  argsSchema: userGroupMembersArgs,
  says(a, g, names) {
    const parts = [...(a.add.length > 0 ? [`add ${peopleIn(a.add, names)} to`] : []), ...(a.delete.length > 0 ? [`remove ${peopleIn(a.delete, names)} from`] : [])];
    const text = parts.length === 2 ? `Add ${peopleIn(a.add, names)} to and remove ${peopleIn(a.delete, names)} from ${g.label}` : `${parts[0] ?? 'change the members of'} ${g.label}`;
    return text.charAt(0).toUpperCase() + text.slice(1);
  },
  send: (conn, a) => updateUserGroupMembers(conn, { userGroupId: a.user_group_id, add: a.add.length > 0 ? a.add : undefined, delete: a.delete.length > 0 ? a.delete : undefined }),
  shows: (g, a) => showsAddDelete(g.members, a),
  coalesce: mergesNet('update_user_group_members', userGroupMembersArgs),
  apply: applyOptimistic,
});

export function applyOptimistic(db: LocalDb, args: UserGroupMembersArgs, changes: ChangeCollector): void {
  if (editUserGroup(db, args.user_group_id, (g) => ({ ...g, members: withAddDelete(g.members, args) }))) changes.touched('user_groups');
}

export const userGroupMembersCommands = {
  updateUserGroupMembers: queues(userGroupMembers, z.lazy(() => z.object({ user_group_id: z.number().int().positive(), add: z.array(z.number().int().positive()).default([]), delete: z.array(z.number().int().positive()).default([]) })), (r) => ({ user_group_id: r.user_group_id, add: r.add, delete: r.delete })),
};
