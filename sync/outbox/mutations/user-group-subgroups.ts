/**
 * `update_user_group_subgroups`: add and remove direct subgroups of a group (POST
 * /user_groups/{id}/members with `add_subgroups` / `delete_subgroups`, FL 311; an older server
 * would ignore the lists and answer success, so the request refuses to go out there). A kind of
 * its own beside `update_user_group_members` (whose v1 args are users only): the same entity, so a
 * group's changes keep their order. Queued changes merge into their net effect, as for members.
 */
import * as z from 'zod';
import { updateUserGroupMembers } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { editUserGroup } from '../../db/queries/groups.js';
import type { ChangeCollector } from '../../db/changes.js';
import { OutboxIntentError } from '../kinds.js';
import { answer, queuedCommand } from '../commands.js';
import { groupKind, mergesNet, showsAddDelete, withAddDelete } from './shared.js';
import { enqueuedSchema } from '../../protocol/outbox.js';

const ids = z.array(z.number().int());
export const userGroupSubgroupsArgs = z.lazy(() => z
  .object({ user_group_id: z.number().int(), add: ids.default([]), delete: ids.default([]) })
  .refine((a) => a.add.length + a.delete.length > 0, 'nothing to change')
  .refine((a) => !a.add.includes(a.user_group_id), 'a group cannot be its own subgroup'));
export type UserGroupSubgroupsArgs = z.output<typeof userGroupSubgroupsArgs>;

export const userGroupSubgroups = groupKind({
  kind: 'update_user_group_subgroups',
  version: 1,
  argsSchema: userGroupSubgroupsArgs,
  says(a, g, names) {
    const groups = (ids: readonly number[]) => ids.map((x) => names.group(x) ?? `group ${x}`).join(', ');
    if (a.add.length > 0 && a.delete.length === 0) return `Add the subgroup ${groups(a.add)} to ${g.label}`;
    if (a.delete.length > 0 && a.add.length === 0) return `Remove the subgroup ${groups(a.delete)} from ${g.label}`;
    return `Change the subgroups of ${g.label}`;
  },
  send: (conn, a) =>
    updateUserGroupMembers(conn, { userGroupId: a.user_group_id, ...(a.add.length > 0 ? { add_subgroups: a.add } : {}), ...(a.delete.length > 0 ? { delete_subgroups: a.delete } : {}) }),
  shows: (g, a) => showsAddDelete(g.direct_subgroup_ids, a),
  coalesce: mergesNet('update_user_group_subgroups', userGroupSubgroupsArgs),
  apply: applyOptimistic,
});

export function applyOptimistic(db: LocalDb, args: UserGroupSubgroupsArgs, changes: ChangeCollector): void {
  const done = editUserGroup(db, args.user_group_id, (g) => ({ ...g, direct_subgroup_ids: withAddDelete(g.direct_subgroup_ids, args).sort((x, y) => x - y) }));
  if (done) changes.touched('user_groups');
}

/** The contract's command: add or remove direct subgroups (POST /user_groups/{id}/members `add_subgroups` / `delete_subgroups`, FL 311). */
export const userGroupSubgroupsCommands = {
  updateUserGroupSubgroups: queuedCommand({
    request: z.lazy(() => z
      .object({ user_group_id: z.number().int().positive(), add: z.array(z.number().int().positive()).default([]), delete: z.array(z.number().int().positive()).default([]) })
      .refine((r) => r.add.length + r.delete.length > 0, 'nothing to change')),
    response: enqueuedSchema,
    intent(r, ctx) {
      if (r.add.includes(r.user_group_id)) throw new OutboxIntentError('a group cannot be its own subgroup');
      return answer(ctx.outbox.enqueue(userGroupSubgroups, { user_group_id: r.user_group_id, add: r.add, delete: r.delete }, null));
    },
  }),
};
