/**
 * `update_user_group_members`: add and remove users of a group. The server refuses to add a member or
 * remove a non-member, so queued changes merge into their net effect: adding then removing the
 * same user (or the reverse) is no change at all, and a merge that nets to nothing cancels the row.
 */
import { z } from 'zod';
import { updateUserGroupMembers } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { editUserGroup } from '../../db/queries/groups.js';
import type { ChangeCollector } from '../../db/changes.js';
import { answer, peopleIn, queuedCommand } from '../commands.js';
import { mergesNet, oneCall, serverGroup, showsAddDelete, verifyByReading, withoutBase } from './shared.js';
import { enqueuedSchema } from '../../protocol/outbox.js';
import { groupKey, groupPlace } from './user-group-update.js';

const ids = z.array(z.number().int());
export const userGroupMembersArgs = z
  .object({ user_group_id: z.number().int(), add: ids.default([]), delete: ids.default([]) })
  .refine((a) => a.add.length + a.delete.length > 0, 'nothing to change');
export type UserGroupMembersArgs = z.output<typeof userGroupMembersArgs>;

export const userGroupMembers = withoutBase({
  kind: 'update_user_group_members',
  version: 1,
  argsSchema: userGroupMembersArgs,
  describe(a, names) {
    const g = groupPlace(names, a.user_group_id);
    const parts = [...(a.add.length > 0 ? [`add ${peopleIn(a.add, names)} to`] : []), ...(a.delete.length > 0 ? [`remove ${peopleIn(a.delete, names)} from`] : [])];
    const text = parts.length === 2 ? `Add ${peopleIn(a.add, names)} to and remove ${peopleIn(a.delete, names)} from ${g.label}` : `${parts[0] ?? 'change the members of'} ${g.label}`;
    return { text: text.charAt(0).toUpperCase() + text.slice(1), link: g.link };
  },
  entityKey: (a) => groupKey(a.user_group_id),
  send: oneCall((conn, a) => updateUserGroupMembers(conn, { userGroupId: a.user_group_id, add: a.add.length > 0 ? a.add : undefined, delete: a.delete.length > 0 ? a.delete : undefined })),
  verify: verifyByReading((conn, a) => serverGroup(conn, a.user_group_id), (g, a) => showsAddDelete(g.members, a)),
  coalesce: mergesNet('update_user_group_members', userGroupMembersArgs),
  local: { apply: (db, a, _b, c) => void applyOptimistic(db, a, c), areas: ['user_groups'], refetch: ['realm_user_groups'] },
});

export function applyOptimistic(db: LocalDb, args: UserGroupMembersArgs, changes: ChangeCollector): void {
  const done = editUserGroup(db, args.user_group_id, (g) => {
    const gone = new Set(args.delete);
    const members = g.members.filter((u) => !gone.has(u));
    for (const u of args.add) if (!members.includes(u)) members.push(u);
    return { ...g, members };
  });
  if (done) changes.touched('user_groups');
}

export const userGroupMembersCommands = {
  updateUserGroupMembers: queuedCommand({
    request: z.object({ user_group_id: z.number().int().positive(), add: z.array(z.number().int().positive()).default([]), delete: z.array(z.number().int().positive()).default([]) }),
    response: enqueuedSchema,
    intent: (r, ctx) => answer(ctx.outbox.enqueue(userGroupMembers, { user_group_id: r.user_group_id, add: r.add, delete: r.delete }, null)),
  }),
};
