/** `remove_navigation_view`: remove a custom view. Behind a still-queued add of it, both vanish unsent. */
import * as z from 'zod';
import { deleteNavigationView } from '../../api/index.js';
import { queues } from '../commands.js';
import { annulsQueued, forgetsLocal, NAVIGATION_VIEW, objectKind } from './shared.js';

export const navigationViewDeleteArgs = z.object({ fragment: z.string().min(1) });

export const navigationViewDelete = objectKind(NAVIGATION_VIEW, {
  kind: 'remove_navigation_view',
  version: 1,
  argsSchema: navigationViewDeleteArgs,
  describe: (a) => ({ text: `Remove the view #${a.fragment}`, link: null }),
  send: deleteNavigationView,
  shows: 'gone',
  coalesce: annulsQueued('add_navigation_view'),
  apply: forgetsLocal(NAVIGATION_VIEW),
});

export const navigationViewDeleteCommands = {
  removeNavigationView: queues(navigationViewDelete, z.object({ fragment: z.string().min(1) }), (r) => r),
};
