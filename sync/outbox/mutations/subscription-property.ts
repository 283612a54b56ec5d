/**
 * `update_subscription_settings`: one personal setting of a channel the user is subscribed to
 * (muted, pinned, colour, a notification override), as `POST /users/me/subscriptions/properties`
 * takes it. Setting a value is idempotent, and only the newest value of a (channel, setting) pair
 * matters: a queued change of the same pair takes the newer value instead of adding a row.
 */
import * as z from 'zod';
import { getSubscriptions, SUBSCRIPTION_FLAG_PROPERTIES, updateSubscriptionSettings } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { isSubscribed, patchSubscriptionProperty } from '../../db/queries/channels.js';
import type { ChangeCollector } from '../../db/changes.js';
import { atChannel, queues } from '../commands.js';
import { OutboxIntentError } from '../kinds.js';
import { newestWins, withoutBase } from './shared.js';

/** As the server takes a colour: `#` and three to six hex digits. */
const HEX_COLOR = /^#[0-9a-fA-F]{3,6}$/;

/** A setting and its value: a colour, or on/off. */
const setting = z.lazy(() => z.union([z.object({ property: z.literal('color'), value: z.string().regex(HEX_COLOR) }), z.object({ property: z.enum(SUBSCRIPTION_FLAG_PROPERTIES), value: z.boolean() })]));
export const subscriptionPropertyArgs = z.lazy(() => z.object({ stream_id: z.number().int() }).and(setting));
export type SubscriptionPropertyArgs = z.output<typeof subscriptionPropertyArgs>;

/** What a change does, in the outbox panel's words (`place`: the channel). */
const NOTIFICATIONS: Record<string, string> = {
  desktop_notifications: 'desktop notifications',
  audible_notifications: 'audible notifications',
  push_notifications: 'mobile notifications',
  email_notifications: 'email notifications',
  wildcard_mentions_notify: 'notifications for @all mentions',
};
function says(a: SubscriptionPropertyArgs, place: string): string {
  if (a.property === 'color') return `Change the colour of ${place} to ${a.value}`;
  if (a.property === 'is_muted') return `${a.value ? 'Mute' : 'Unmute'} ${place}`;
  if (a.property === 'pin_to_top') return `${a.value ? 'Pin' : 'Unpin'} ${place}`;
  return `Turn ${a.value ? 'on' : 'off'} ${NOTIFICATIONS[a.property] ?? a.property} for ${place}`;
}

export const subscriptionProperty = withoutBase({
  kind: 'update_subscription_settings',
  version: 1,
  argsSchema: subscriptionPropertyArgs,
  describe: (a, names) => atChannel(names, a.stream_id, undefined, (place) => says(a, place)),
  entityKey: (a) => `subscription_property:${a.stream_id}:${a.property}`,
  async send(conn, a) {
    await updateSubscriptionSettings(conn, { subscription_data: [a] });
  },
  async verify(conn, a) {
    const { subscriptions } = await getSubscriptions(conn);
    const sub: Record<string, unknown> | undefined = subscriptions.find((s) => s.stream_id === a.stream_id);
    // Not subscribed: the change did not land (a resend fails visibly, as the user should see).
    return sub !== undefined && sub[a.property] === a.value ? 'applied' : 'not_applied';
  },
  coalesce: newestWins('update_subscription_settings'),
  local: { apply: (db, a, _b, c) => void applyOptimistic(db, a, c), areas: ['subscriptions'], refetch: ['subscription'] },
});

export function applyOptimistic(db: LocalDb, a: SubscriptionPropertyArgs, changes: ChangeCollector): void {
  if (patchSubscriptionProperty(db, a.stream_id, a.property, a.value)) changes.touched('subscriptions');
}

/** The contract's command: one setting of a subscribed channel, by channel id. */
export const subscriptionPropertyCommands = {
  updateSubscriptionSettings: queues(subscriptionProperty, z.lazy(() => z.object({ channel_id: z.number().int().positive() }).and(setting)), (r, ctx) => {
    if (!isSubscribed(ctx.db, r.channel_id)) throw new OutboxIntentError('not subscribed to this channel');
    const { channel_id, ...rest } = r;
    return { stream_id: channel_id, ...rest };
  }),
};
