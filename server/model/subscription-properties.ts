/**
 * A subscriber's personal channel settings (POST /users/me/subscriptions/properties, Zulip's
 * update_subscription_properties_backend and do_change_subscription_property; docs/zulip-behaviour.md
 * "Channel settings"): colour, muting (and its deprecated inverse `in_home_view`), pinning and the
 * notification overrides. Each change is stored and told to the user's own clients with a
 * `subscription` op `update` event; a change of muting sends two, `in_home_view` first and then
 * `is_muted`, whichever of the two was asked for. Setting the current value again still sends them.
 */
import { emit } from '../events/emit.js';
import { badRequest } from '../http/errors.js';
import type { ServerState } from '../state.js';
import { SUBSCRIPTION_NOTIFICATION_PROPERTIES } from './channels.js';

export const SUBSCRIPTION_PROPERTIES = ['color', 'is_muted', 'in_home_view', 'pin_to_top', ...SUBSCRIPTION_NOTIFICATION_PROPERTIES] as const;
export type SubscriptionProperty = (typeof SUBSCRIPTION_PROPERTIES)[number];

/** Zulip's check_color: `#` and three to six hex digits. */
const HEX_COLOR = /^#[0-9a-fA-F]{3,6}$/;

const isProperty = (p: string): p is SubscriptionProperty => (SUBSCRIPTION_PROPERTIES as readonly string[]).includes(p);

/**
 * `property` when Zulip takes `value` for it; otherwise its refusal (BAD_REQUEST with Zulip's
 * message). An unknown property is refused before its value is looked at.
 */
export function checkedSubscriptionProperty(property: string, value: unknown): SubscriptionProperty {
  if (!isProperty(property)) throw badRequest(`Unknown subscription property: ${property}`);
  // Zulip's check_color reads the value as a string (`true` is "True"): a boolean is no colour either.
  if (property === 'color') {
    if (typeof value !== 'string' || !HEX_COLOR.test(value)) throw badRequest('color is not a valid hex color code');
  } else if (typeof value !== 'boolean') throw badRequest(`${property} is not a boolean`);
  return property;
}

/** Stores one validated change of the user's subscription to `channelId` and emits its events. */
export function setSubscriptionProperty(srv: ServerState, userId: number, channelId: number, property: SubscriptionProperty, value: string | boolean): void {
  const where = 'WHERE user_id = ? AND channel_id = ? AND active = 1';
  if (property === 'color') {
    srv.db.prepare(`UPDATE subscriptions SET color = ? ${where}`).run(value, userId, channelId);
  } else if (property === 'is_muted' || property === 'in_home_view') {
    const muted = property === 'is_muted' ? value === true : value !== true;
    srv.db.prepare(`UPDATE subscriptions SET is_muted = ? ${where}`).run(muted ? 1 : 0, userId, channelId);
    emit(srv, [userId], { type: 'subscription', op: 'update', stream_id: channelId, property: 'in_home_view', value: !muted });
    emit(srv, [userId], { type: 'subscription', op: 'update', stream_id: channelId, property: 'is_muted', value: muted });
    return;
  } else if (property === 'pin_to_top') {
    srv.db.prepare(`UPDATE subscriptions SET pin_to_top = ? ${where}`).run(value ? 1 : 0, userId, channelId);
  } else {
    srv.db.prepare(`UPDATE subscriptions SET properties = json_set(properties, '$.' || ?, json(?)) ${where}`).run(property, JSON.stringify(value), userId, channelId);
  }
  emit(srv, [userId], { type: 'subscription', op: 'update', stream_id: channelId, property, value });
}
