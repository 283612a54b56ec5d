/**
 * `update_user_group_subgroups`: add and remove direct subgroups of a group (POST
 * /user_groups/{id}/members with `add_subgroups` / `delete_subgroups`, FL 311; an older server
 * would ignore the lists and answer success, so the request refuses to go out there). A kind of
 * its own beside `update_user_group_members` (whose v1 args are users only): the same entity, so a
 * group's changes keep their order. Queued changes merge into their net effect, as for members.
 */
import { z } from 'zod';
import { updateUserGroupMembers } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { editUserGroup } from '../../db/queries/groups.js';
import type { ChangeCollector } from '../../db/changes.js';
import { OutboxIntentError } from '../kinds.js';
import { answer, queuedCommand } from '../commands.js';
import { mergesNet, oneCall, serverGroup, showsAddDelete, verifyByReading, withoutBase } from './shared.js';
import { enqueuedSchema } from '../../protocol/outbox.js';
import { groupKey, groupPlace } from './user-group-update.js';

const ids = z.array(z.number().int());
export const userGroupSubgroupsArgs = z
  .object({ user_group_id: z.number().int(), add: ids.default([]), delete: ids.default([]) })
  .refine((a) => a.add.length + a.delete.length > 0, 'nothing to change')
  .refine((a) => !a.add.includes(a.user_group_id), 'a group cannot be its own subgroup');
export type UserGroupSubgroupsArgs = z.output<typeof userGroupSubgroupsArgs>;

export const userGroupSubgroups = withoutBase({
  kind: 'update_user_group_subgroups',
  version: 1,
  argsSchema: userGroupSubgroupsArgs,
  describe(a, names) {
    const g = groupPlace(names, a.user_group_id);
    const groups = (ids: readonly number[]) => ids.map((x) => names.group(x) ?? `group ${x}`).join(', ');
    if (a.add.length > 0 && a.delete.length === 0) return { text: `Add the subgroup ${groups(a.add)} to ${g.label}`, link: g.link };
    if (a.delete.length > 0 && a.add.length === 0) return { text: `Remove the subgroup ${groups(a.delete)} from ${g.label}`, link: g.link };
    return { text: `Change the subgroups of ${g.label}`, link: g.link };
  },
  entityKey: (a) => groupKey(a.user_group_id),
  send: oneCall((conn, a) =>
    updateUserGroupMembers(conn, { userGroupId: a.user_group_id, ...(a.add.length > 0 ? { add_subgroups: a.add } : {}), ...(a.delete.length > 0 ? { delete_subgroups: a.delete } : {}) }),
  ),
  verify: verifyByReading((conn, a) => serverGroup(conn, a.user_group_id), (g, a) => showsAddDelete(g.direct_subgroup_ids, a)),
  coalesce: mergesNet('update_user_group_subgroups', userGroupSubgroupsArgs),
  local: { apply: (db, a, _b, c) => void applyOptimistic(db, a, c), areas: ['user_groups'], refetch: ['realm_user_groups'] },
});

export function applyOptimistic(db: LocalDb, args: UserGroupSubgroupsArgs, changes: ChangeCollector): void {
  const done = editUserGroup(db, args.user_group_id, (g) => {
    const gone = new Set(args.delete);
    const subs = g.direct_subgroup_ids.filter((s) => !gone.has(s));
    for (const s of args.add) if (!subs.includes(s)) subs.push(s);
    return { ...g, direct_subgroup_ids: subs.sort((x, y) => x - y) };
  });
  if (done) changes.touched('user_groups');
}

/** The contract's command: add or remove direct subgroups (POST /user_groups/{id}/members `add_subgroups` / `delete_subgroups`, FL 311). */
export const userGroupSubgroupsCommands = {
  updateUserGroupSubgroups: queuedCommand({
    request: z
      .object({ user_group_id: z.number().int().positive(), add: z.array(z.number().int().positive()).default([]), delete: z.array(z.number().int().positive()).default([]) })
      .refine((r) => r.add.length + r.delete.length > 0, 'nothing to change'),
    response: enqueuedSchema,
    intent(r, ctx) {
      if (r.add.includes(r.user_group_id)) throw new OutboxIntentError('a group cannot be its own subgroup');
      return answer(ctx.outbox.enqueue(userGroupSubgroups, { user_group_id: r.user_group_id, add: r.add, delete: r.delete }, null));
    },
  }),
};
