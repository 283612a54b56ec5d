/**
 * `update_user_group`: rename a group or change its description. Permission settings take the
 * `{new, old}` form whose `old` must match the server at send time, so they are not queued here.
 * Queued updates of one group merge, the last value per field winning.
 */
import * as z from 'zod';
import { updateUserGroup } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { editUserGroup } from '../../db/queries/groups.js';
import type { ChangeCollector } from '../../db/changes.js';
import { OutboxIntentError } from '../kinds.js';
import { queuedCommand } from '../commands.js';
import { groupKind } from './shared.js';
import { GROUP_PERMISSIONS, userGroupPermissions } from './user-group-permissions.js';

export const userGroupUpdateArgs = z.lazy(() => z
  .object({ user_group_id: z.number().int(), name: z.string().min(1).optional(), description: z.string().optional() })
  .refine((a) => a.name !== undefined || a.description !== undefined, 'nothing to change'));
export type UserGroupUpdateArgs = z.output<typeof userGroupUpdateArgs>;

export const userGroupUpdate = groupKind({
  kind: 'update_user_group',
  version: 1,
  argsSchema: userGroupUpdateArgs,
  says(a, g) {
    // The list shows the new name already (the change is applied locally): no "rename X to X".
    if (a.name !== undefined) return `Rename ${g.name !== undefined && g.name !== a.name ? g.label : 'a user group'} to “${a.name}”${a.description !== undefined ? ' and change its description' : ''}`;
    return `Change the description of ${g.label}`;
  },
  send: (conn, a) => updateUserGroup(conn, { userGroupId: a.user_group_id, name: a.name, description: a.description }),
  shows: (g, a) => (a.name === undefined || g.name === a.name) && (a.description === undefined || g.description === a.description),
  coalesce(prev, next) {
    const p = prev.kind === 'update_user_group' ? userGroupUpdateArgs.safeParse(prev.args) : undefined;
    if (!p?.success) return { action: 'append' };
    return { action: 'merge', args: { ...p.data, name: next.args.name ?? p.data.name, description: next.args.description ?? p.data.description }, base: null };
  },
  apply: applyOptimistic,
});

export function applyOptimistic(db: LocalDb, args: UserGroupUpdateArgs, changes: ChangeCollector): void {
  const done = editUserGroup(db, args.user_group_id, (g) => ({ ...g, name: args.name ?? g.name, description: args.description ?? g.description }));
  if (done) changes.touched('user_groups');
}

const groupPermissionRequest = z.lazy(() => z.object({
  new: z.union([z.number().int(), z.object({ direct_members: z.array(z.number().int()), direct_subgroups: z.array(z.number().int()) })]),
  old: z.union([z.number().int(), z.object({ direct_members: z.array(z.number().int()), direct_subgroups: z.array(z.number().int()) })]).optional(),
}));

/**
 * The contract's command: name, description and permission settings (`{new, old}`: `old` is what
 * the user saw). It feeds two kinds: this one and `update_user_group_permissions` (two rows when both
 * the basics and permissions change, in that order).
 */
export const userGroupUpdateCommands = {
  updateUserGroup: queuedCommand({
    request: z.lazy(() => z.object({
      user_group_id: z.number().int().positive(),
      name: z.string().min(1).optional(),
      description: z.string().optional(),
      permissions: z.record(z.string(), groupPermissionRequest).optional(),
    })),
    response: z.lazy(() => z.object({ outbox_ids: z.array(z.number().int()) })),
    intent(r, ctx) {
      const ids: number[] = [];
      if (r.name !== undefined || r.description !== undefined) {
        ids.push(ctx.outbox.enqueue(userGroupUpdate, { user_group_id: r.user_group_id, name: r.name, description: r.description }, null).id);
      }
      if (r.permissions !== undefined && Object.keys(r.permissions).length > 0) {
        const known = new Set<string>(GROUP_PERMISSIONS);
        const unknown = Object.keys(r.permissions).filter((k) => !known.has(k));
        if (unknown.length > 0) throw new OutboxIntentError(`unknown group permissions: ${unknown.join(', ')}`);
        const args = userGroupPermissions.argsSchema.safeParse({ user_group_id: r.user_group_id, settings: r.permissions });
        if (!args.success) throw new OutboxIntentError(`${userGroupPermissions.kind}: ${z.prettifyError(args.error)}`);
        ids.push(ctx.outbox.enqueue(userGroupPermissions, args.data, null).id);
      }
      if (ids.length === 0) throw new OutboxIntentError('nothing to change');
      return { outbox_ids: ids };
    },
  }),
};
