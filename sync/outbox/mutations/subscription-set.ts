/**
 * `subscribe`: subscribe the user to channels by name (missing ones are created, as
 * `POST /users/me/subscriptions` does). Subscribing is idempotent, so verify only has to check
 * that every named channel is now among the user's subscriptions.
 */
import * as z from 'zod';
import { getSubscriptions, subscribe } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { channelIdByName, getChannel, putSubscription } from '../../db/queries/channels.js';
import type { ChangeCollector } from '../../db/changes.js';
import { queues } from '../commands.js';
import { oneCall, withoutBase } from './shared.js';
import { subscriptionsKey } from './subscription-remove.js';

const DEFAULT_COLOR = '#c2c2c2';

export const subscriptionSetArgs = z.lazy(() => z.object({
  subscriptions: z.array(z.object({ name: z.string().min(1), description: z.string().optional() })).min(1),
}));
export type SubscriptionSetArgs = z.output<typeof subscriptionSetArgs>;

export const subscriptionSet = withoutBase({
  kind: 'subscribe',
  version: 1,
  argsSchema: subscriptionSetArgs,
  describe(a) {
    const list = a.subscriptions.map((s) => s.name);
    return { text: list.length > 0 ? `Subscribe to ${list.map((n) => `#${n}`).join(', ')}` : 'Subscribe to channels', link: list.length === 1 ? { to: 'channels' } : null };
  },
  entityKey: (a) => subscriptionsKey(a.subscriptions.map((s) => s.name)),
  send: oneCall((conn, a) => subscribe(conn, { subscriptions: a.subscriptions })),
  async verify(conn, a) {
    const { subscriptions } = await getSubscriptions(conn);
    const mine = new Set(subscriptions.map((s) => s.name.toLowerCase()));
    return a.subscriptions.every((s) => mine.has(s.name.toLowerCase())) ? 'applied' : 'not_applied';
  },
  local: { apply: (db, a, _b, c) => void applyOptimistic(db, a, c), areas: ['subscriptions', 'channels'], refetch: ['subscription'] },
});

/**
 * Channels the cache already knows become subscribed at once; a channel this request creates
 * has no id yet and appears when the server's event arrives.
 */
export function applyOptimistic(db: LocalDb, args: SubscriptionSetArgs, changes: ChangeCollector): void {
  for (const s of args.subscriptions) {
    const id = channelIdByName(db, s.name);
    const c = id === undefined ? undefined : getChannel(db, id);
    if (!c || c.subscription) continue;
    // Personal properties at their defaults until the server's own subscription object replaces them.
    putSubscription(db, { ...c.channel, color: DEFAULT_COLOR, is_muted: false, pin_to_top: false });
    changes.touched('subscriptions');
  }
}

/** The contract's command: subscribe by channel name (a missing channel is created, as the server does). */
export const subscriptionSetCommands = {
  subscribe: queues(subscriptionSet, z.lazy(() => z.object({ channels: z.array(z.object({ name: z.string().min(1), description: z.string().optional() })).min(1) })), (r) => ({ subscriptions: r.channels })),
};
