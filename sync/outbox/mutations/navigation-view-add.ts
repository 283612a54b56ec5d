/**
 * `add_navigation_view`: pin or configure a built-in view (no name) or add a custom one. Keyed by
 * fragment; a later edit folds into a still-queued add, a later delete cancels it.
 */
import { z } from 'zod';
import { addNavigationView, getNavigationViews, type ApiConnection, type NavigationView } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { putNavigationView } from '../../db/queries/personal.js';
import type { ChangeCollector } from '../../db/changes.js';
import { answer, queuedCommand } from '../commands.js';
import { oneCall, verifyByReading, withoutBase } from './shared.js';
import { enqueuedSchema } from '../../protocol/outbox.js';

export const navigationViewAddArgs = z.object({
  fragment: z.string().min(1),
  is_pinned: z.boolean(),
  name: z.string().min(1).nullable().optional(),
});
export type NavigationViewAddArgs = z.output<typeof navigationViewAddArgs>;

export const viewKey = (fragment: string) => `navigation_view:${fragment}`;

/** The server's view of `fragment`, or undefined. */
export async function serverView(conn: ApiConnection, fragment: string): Promise<NavigationView | undefined> {
  return (await getNavigationViews(conn)).navigation_views.find((v) => v.fragment === fragment);
}

export const navigationViewAdd = withoutBase({
  kind: 'add_navigation_view',
  version: 1,
  argsSchema: navigationViewAddArgs,
  describe(a) {
    // A built-in view (no name) is added only to pin or unpin it.
    if (typeof a.name === 'string') return { text: `Add the view “${a.name}”`, link: null };
    return { text: `${a.is_pinned === false ? 'Unpin' : 'Pin'} the view #${a.fragment}`, link: null };
  },
  entityKey: (a) => viewKey(a.fragment),
  send: oneCall(addNavigationView),
  verify: verifyByReading((conn, a) => serverView(conn, a.fragment), (v, a) => v.is_pinned === a.is_pinned && v.name === (a.name ?? null)),
  local: { apply: (db, a, _b, c) => void applyOptimistic(db, a, c), areas: ['navigation_views'], refetch: ['navigation_views'] },
});

export function applyOptimistic(db: LocalDb, args: NavigationViewAddArgs, changes: ChangeCollector): void {
  putNavigationView(db, { fragment: args.fragment, is_pinned: args.is_pinned, name: args.name ?? null });
  changes.touched('navigation_views');
}

export const navigationViewAddCommands = {
  addNavigationView: queuedCommand({
    request: z.object({ fragment: z.string().min(1), is_pinned: z.boolean(), name: z.string().min(1).nullable().optional() }),
    response: enqueuedSchema,
    intent: (r, ctx) => answer(ctx.outbox.enqueue(navigationViewAdd, r, null)),
  }),
};
