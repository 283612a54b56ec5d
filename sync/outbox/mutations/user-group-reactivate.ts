/**
 * `update_user_group_reactivate`: bring a deactivated group back (PATCH /user_groups/{id} with
 * `deactivated: false`, FL 386; `true` does nothing there). Queued, unlike deactivation (an
 * online-only operation, see `deactivateUserGroup` in the contract): reactivating depends only on
 * the group and the user's right to manage it, never on the rest of the realm, so it can wait for
 * the connection. Shown at once; a second reactivation while one is queued merges into it.
 */
import * as z from 'zod';
import { updateUserGroup } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { editUserGroup } from '../../db/queries/groups.js';
import type { ChangeCollector } from '../../db/changes.js';
import { queues } from '../commands.js';
import { groupKind, newestWins } from './shared.js';

export const userGroupReactivateArgs = z.object({ user_group_id: z.number().int() });
export type UserGroupReactivateArgs = z.output<typeof userGroupReactivateArgs>;

export const userGroupReactivate = groupKind({
  kind: 'update_user_group_reactivate',
  version: 1,
  argsSchema: userGroupReactivateArgs,
  says: (_a, g) => `Reactivate ${g.label}`,
  send: (conn, a) => updateUserGroup(conn, { userGroupId: a.user_group_id, deactivated: false }),
  shows: (g) => !g.deactivated,
  coalesce: newestWins('update_user_group_reactivate'),
  apply: applyOptimistic,
});

export function applyOptimistic(db: LocalDb, args: UserGroupReactivateArgs, changes: ChangeCollector): void {
  if (editUserGroup(db, args.user_group_id, (g) => ({ ...g, deactivated: false }))) changes.touched('user_groups');
}

/**
 * The contract's command: reactivate a deactivated group (PATCH `deactivated: false`, FL 386).
 * Queued: it depends on nothing but the group itself and the user's right to manage it.
 */
export const userGroupReactivateCommands = {
  updateUserGroupReactivate: queues(userGroupReactivate, z.lazy(() => z.object({ user_group_id: z.number().int().positive() })), (r) => ({ user_group_id: r.user_group_id })),
};
