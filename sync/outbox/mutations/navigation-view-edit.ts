/** `edit_navigation_view`: pin/unpin or rename a view. Queued edits merge, the last value per field winning. */
import * as z from 'zod';
import { editNavigationView } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { getNavigationView, putNavigationView } from '../../db/queries/personal.js';
import type { ChangeCollector } from '../../db/changes.js';
import { queues } from '../commands.js';
import { NAVIGATION_VIEW, objectKind } from './shared.js';
import { navigationViewAddArgs } from './navigation-view-add.js';

export const navigationViewEditArgs = z.lazy(() => z.object({
  fragment: z.string().min(1),
  is_pinned: z.boolean().optional(),
  name: z.string().min(1).optional(),
}));
export type NavigationViewEditArgs = z.output<typeof navigationViewEditArgs>;

export const navigationViewEdit = objectKind(NAVIGATION_VIEW, {
  kind: 'edit_navigation_view',
  version: 1,
  argsSchema: navigationViewEditArgs,
  describe(a) {
    const changes = [a.is_pinned === true ? 'pin it' : a.is_pinned === false ? 'unpin it' : null, a.name !== undefined ? `rename it “${a.name}”` : null].filter((x) => x !== null);
    return { text: `Change the view #${a.fragment}${changes.length > 0 ? `: ${changes.join(', ')}` : ''}`, link: null };
  },
  send: editNavigationView,
  shows: (v, a) => (a.is_pinned === undefined || v.is_pinned === a.is_pinned) && (a.name === undefined || v.name === a.name),
  coalesce(prev, next) {
    const n = next.args;
    const parsed = prev.kind === 'add_navigation_view' ? navigationViewAddArgs.safeParse(prev.args) : prev.kind === 'edit_navigation_view' ? navigationViewEditArgs.safeParse(prev.args) : undefined;
    if (!parsed?.success) return { action: 'append' };
    const p = parsed.data;
    return { action: 'merge', args: { ...p, is_pinned: n.is_pinned ?? p.is_pinned, name: n.name ?? p.name }, base: null };
  },
  apply: applyOptimistic,
});

export function applyOptimistic(db: LocalDb, args: NavigationViewEditArgs, changes: ChangeCollector): void {
  const v = getNavigationView(db, args.fragment);
  if (!v) return;
  putNavigationView(db, { ...v, is_pinned: args.is_pinned ?? v.is_pinned, name: args.name ?? v.name });
  changes.touched('navigation_views');
}

export const navigationViewEditCommands = {
  editNavigationView: queues(navigationViewEdit, z.lazy(() => z.object({ fragment: z.string().min(1), is_pinned: z.boolean().optional(), name: z.string().min(1).optional() })), (r) => r),
};
