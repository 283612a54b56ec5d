/**
 * `update_user_group_reactivate`: bring a deactivated group back (PATCH /user_groups/{id} with
 * `deactivated: false`, FL 386; `true` does nothing there). Queued, unlike deactivation (an
 * online-only operation, see `deactivateUserGroup` in the contract): reactivating depends only on
 * the group and the user's right to manage it, never on the rest of the realm, so it can wait for
 * the connection. Shown at once; a second reactivation while one is queued merges into it.
 */
import { z } from 'zod';
import { updateUserGroup } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { editUserGroup } from '../../db/queries/groups.js';
import type { ChangeCollector } from '../../db/changes.js';
import { answer, queuedCommand } from '../commands.js';
import { newestWins, oneCall, serverGroup, verifyByReading, withoutBase } from './shared.js';
import { enqueuedSchema } from '../../protocol/outbox.js';
import { groupKey, groupPlace } from './user-group-update.js';

export const userGroupReactivateArgs = z.object({ user_group_id: z.number().int() });
export type UserGroupReactivateArgs = z.output<typeof userGroupReactivateArgs>;

export const userGroupReactivate = withoutBase({
  kind: 'update_user_group_reactivate',
  version: 1,
  argsSchema: userGroupReactivateArgs,
  describe(a, names) {
    const g = groupPlace(names, a.user_group_id);
    return { text: `Reactivate ${g.label}`, link: g.link };
  },
  entityKey: (a) => groupKey(a.user_group_id),
  send: oneCall((conn, a) => updateUserGroup(conn, { userGroupId: a.user_group_id, deactivated: false })),
  verify: verifyByReading((conn, a) => serverGroup(conn, a.user_group_id), (g) => !g.deactivated),
  coalesce: newestWins('update_user_group_reactivate'),
  local: { apply: (db, a, _b, c) => void applyOptimistic(db, a, c), areas: ['user_groups'], refetch: ['realm_user_groups'] },
});

export function applyOptimistic(db: LocalDb, args: UserGroupReactivateArgs, changes: ChangeCollector): void {
  if (editUserGroup(db, args.user_group_id, (g) => ({ ...g, deactivated: false }))) changes.touched('user_groups');
}

/**
 * The contract's command: reactivate a deactivated group (PATCH `deactivated: false`, FL 386).
 * Queued: it depends on nothing but the group itself and the user's right to manage it.
 */
export const userGroupReactivateCommands = {
  updateUserGroupReactivate: queuedCommand({
    request: z.object({ user_group_id: z.number().int().positive() }),
    response: enqueuedSchema,
    intent: (r, ctx) => answer(ctx.outbox.enqueue(userGroupReactivate, { user_group_id: r.user_group_id }, null)),
  }),
};
