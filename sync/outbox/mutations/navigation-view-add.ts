/**
 * `add_navigation_view`: pin or configure a built-in view (no name) or add a custom one. Keyed by
 * fragment; a later edit folds into a still-queued add, a later delete cancels it.
 */
import * as z from 'zod';
import { addNavigationView } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { putNavigationView } from '../../db/queries/personal.js';
import type { ChangeCollector } from '../../db/changes.js';
import { queues } from '../commands.js';
import { NAVIGATION_VIEW, objectKind } from './shared.js';

export const navigationViewAddArgs = z.lazy(() => z.object({
  fragment: z.string().min(1),
  is_pinned: z.boolean(),
  name: z.string().min(1).nullable().optional(),
}));
export type NavigationViewAddArgs = z.output<typeof navigationViewAddArgs>;

export const navigationViewAdd = objectKind(NAVIGATION_VIEW, {
  kind: 'add_navigation_view',
  version: 1,
  argsSchema: navigationViewAddArgs,
  describe(a) {
    // A built-in view (no name) is added only to pin or unpin it.
    if (typeof a.name === 'string') return { text: `Add the view “${a.name}”`, link: null };
    return { text: `${a.is_pinned === false ? 'Unpin' : 'Pin'} the view #${a.fragment}`, link: null };
  },
  send: addNavigationView,
  shows: (v, a) => v.is_pinned === a.is_pinned && v.name === (a.name ?? null),
  apply: applyOptimistic,
});

export function applyOptimistic(db: LocalDb, args: NavigationViewAddArgs, changes: ChangeCollector): void {
  putNavigationView(db, { fragment: args.fragment, is_pinned: args.is_pinned, name: args.name ?? null });
  changes.touched('navigation_views');
}

export const navigationViewAddCommands = {
  addNavigationView: queues(navigationViewAdd, z.lazy(() => z.object({ fragment: z.string().min(1), is_pinned: z.boolean(), name: z.string().min(1).nullable().optional() })), (r) => r),
};
