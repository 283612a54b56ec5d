/**
 * `user_group_update`: rename a group or change its description. Permission settings take the
 * `{new, old}` form whose `old` must match the server at send time, so they are not queued here.
 * Queued updates of one group merge, the last value per field winning.
 */
import { z } from 'zod';
import { getUserGroups, updateUserGroup } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { editUserGroup } from '../../db/queries/groups.js';
import type { ChangeCollector } from '../../db/changes.js';
import type { OutboxKind } from '../kinds.js';

export const userGroupUpdateArgs = z
  .object({ user_group_id: z.number().int(), name: z.string().min(1).optional(), description: z.string().optional() })
  .refine((a) => a.name !== undefined || a.description !== undefined, 'nothing to change');
export type UserGroupUpdateArgs = z.output<typeof userGroupUpdateArgs>;

export const groupKey = (id: number) => `user_group:${id}`;

export const userGroupUpdate: OutboxKind<UserGroupUpdateArgs, null> = {
  kind: 'user_group_update',
  version: 1,
  argsSchema: userGroupUpdateArgs,
  baseSchema: z.null(),
  entityKey: (a) => groupKey(a.user_group_id),
  async send(conn, a) {
    await updateUserGroup(conn, { userGroupId: a.user_group_id, name: a.name, description: a.description });
  },
  async verify(conn, a) {
    const g = (await getUserGroups(conn, { include_deactivated_groups: true })).user_groups.find((x) => x.id === a.user_group_id);
    if (!g) return 'not_applied';
    return (a.name === undefined || g.name === a.name) && (a.description === undefined || g.description === a.description) ? 'applied' : 'not_applied';
  },
  coalesce(prev, next) {
    const p = prev.kind === 'user_group_update' ? userGroupUpdateArgs.safeParse(prev.args) : undefined;
    if (!p?.success) return { action: 'append' };
    return { action: 'merge', args: { ...p.data, name: next.args.name ?? p.data.name, description: next.args.description ?? p.data.description }, base: null };
  },
  local: { apply: (db, a, _b, c) => void applyOptimistic(db, a, c), areas: ['user_groups'], refetch: ['realm_user_groups'] },
};

export function applyOptimistic(db: LocalDb, args: UserGroupUpdateArgs, changes: ChangeCollector): void {
  const done = editUserGroup(db, args.user_group_id, (g) => ({ ...g, name: args.name ?? g.name, description: args.description ?? g.description }));
  if (done) changes.touched('user_groups');
}
