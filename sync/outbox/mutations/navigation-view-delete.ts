/** `remove_navigation_view`: remove a custom view. Behind a still-queued add of it, both vanish unsent. */
import { z } from 'zod';
import { deleteNavigationView } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { deleteNavigationView as deleteLocal } from '../../db/queries/personal.js';
import type { ChangeCollector } from '../../db/changes.js';
import { answer, queuedCommand } from '../commands.js';
import { annulsQueued, oneCall, verifyGone, withoutBase } from './shared.js';
import { enqueuedSchema } from '../../protocol/outbox.js';
import { serverView, viewKey } from './navigation-view-add.js';

export const navigationViewDeleteArgs = z.object({ fragment: z.string().min(1) });
export type NavigationViewDeleteArgs = z.output<typeof navigationViewDeleteArgs>;

export const navigationViewDelete = withoutBase({
  kind: 'remove_navigation_view',
  version: 1,
  argsSchema: navigationViewDeleteArgs,
  describe: (a) => ({ text: `Remove the view #${a.fragment}`, link: null }),
  entityKey: (a) => viewKey(a.fragment),
  send: oneCall(deleteNavigationView),
  verify: verifyGone((conn, a) => serverView(conn, a.fragment)),
  coalesce: annulsQueued('add_navigation_view'),
  local: { apply: (db, a, _b, c) => void applyOptimistic(db, a, c), areas: ['navigation_views'], refetch: ['navigation_views'] },
});

export function applyOptimistic(db: LocalDb, args: NavigationViewDeleteArgs, changes: ChangeCollector): void {
  deleteLocal(db, args.fragment);
  changes.touched('navigation_views');
}

export const navigationViewDeleteCommands = {
  removeNavigationView: queuedCommand({
    request: z.object({ fragment: z.string().min(1) }),
    response: enqueuedSchema,
    intent: (r, ctx) => answer(ctx.outbox.enqueue(navigationViewDelete, r, null)),
  }),
};
