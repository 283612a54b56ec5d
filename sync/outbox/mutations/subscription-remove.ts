/**
 * `unsubscribe`: unsubscribe the user from channels by name (`DELETE
 * /users/me/subscriptions`). Idempotent on the server (a channel we are not in comes back under
 * `not_removed`, not as an error), so verify only checks that none of the names is still among
 * the user's subscriptions, and a resend after an inconclusive read does no harm.
 *
 * The entity key is the one `subscribe` uses for the same names, so subscribing and
 * unsubscribing the same channels keep the order the user chose.
 */
import * as z from 'zod';
import { getSubscriptions, unsubscribe } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { channelIdByName, deleteSubscription } from '../../db/queries/channels.js';
import type { ChangeCollector } from '../../db/changes.js';
import { queues } from '../commands.js';
import { oneCall, withoutBase } from './shared.js';

export const subscriptionRemoveArgs = z.lazy(() => z.object({ subscriptions: z.array(z.string().min(1)).min(1) }));
export type SubscriptionRemoveArgs = z.output<typeof subscriptionRemoveArgs>;

/** The same key `subscribe` uses for the same names, so subscribe/unsubscribe stay ordered. */
export const subscriptionsKey = (names: readonly string[]) => `subscriptions:${names.map((n) => n.toLowerCase()).sort().join('\u0000')}`;

export const subscriptionRemove = withoutBase({
  kind: 'unsubscribe',
  version: 1,
  argsSchema: subscriptionRemoveArgs,
  describe(a) {
    const list = a.subscriptions;
    return { text: list.length > 0 ? `Unsubscribe from ${list.map((n) => `#${n}`).join(', ')}` : 'Unsubscribe from channels', link: list.length === 1 ? { to: 'channels' } : null };
  },
  entityKey: (a) => subscriptionsKey(a.subscriptions),
  send: oneCall((conn, a) => unsubscribe(conn, { subscriptions: a.subscriptions })),
  async verify(conn, a) {
    const { subscriptions } = await getSubscriptions(conn);
    const mine = new Set(subscriptions.map((s) => s.name.toLowerCase()));
    return a.subscriptions.some((n) => mine.has(n.toLowerCase())) ? 'not_applied' : 'applied';
  },
  // Never cancelled against a queued subscribe: if the user was subscribed already, that subscribe
  // was a no-op and the unsubscribe is the only real intent. A repeated unsubscribe adds nothing.
  coalesce: (prev) => (prev.kind === 'unsubscribe' ? { action: 'merge', args: prev.args, base: null } : { action: 'append' }),
  local: { apply: (db, a, _b, c) => void applyOptimistic(db, a, c), areas: ['subscriptions', 'channels'], refetch: ['subscription'] },
});

/** The subscriptions go at once; the channels stay known (they can be browsed and rejoined). */
export function applyOptimistic(db: LocalDb, args: SubscriptionRemoveArgs, changes: ChangeCollector): void {
  for (const name of args.subscriptions) {
    const id = channelIdByName(db, name);
    if (id !== undefined && deleteSubscription(db, id)) changes.touched('subscriptions');
  }
}

export const subscriptionRemoveCommands = {
  unsubscribe: queues(subscriptionRemove, z.lazy(() => z.object({ channels: z.array(z.string().min(1)).min(1) })), (r) => ({ subscriptions: r.channels })),
};
