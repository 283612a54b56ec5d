/**
 * Channels as the API shows them: BasicChannel (GET /streams, `stream` events), Subscription
 * (register's `subscriptions`, GET /users/me/subscriptions, `subscription` add events), and the
 * channel-level permission settings with Zulip's defaults (Stream.stream_permission_group_settings).
 */
import type { ServerState } from '../state.js';
import { subscriberIds, type ChannelRow } from './access.js';
import { systemGroupId, userHasPermission, type GroupSettingValue } from './groups.js';
import { apiGroupSettingValue } from './user-groups.js';

export const CHANNEL_PERMISSION_SETTINGS = [
  'can_add_subscribers_group',
  'can_remove_subscribers_group',
  'can_administer_channel_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_move_messages_out_of_channel_group',
  'can_move_messages_within_channel_group',
  'can_send_message_group',
  'can_subscribe_group',
  'can_resolve_topics_group',
] as const;
export type ChannelPermissionSetting = (typeof CHANNEL_PERMISSION_SETTINGS)[number];

/** Zulip's defaults; `channel_creator` = {direct_members: [creator]} (nobody without one). */
export const CHANNEL_PERMISSION_DEFAULTS: Record<ChannelPermissionSetting, string> = {
  can_add_subscribers_group: 'role:nobody',
  can_remove_subscribers_group: 'role:administrators',
  can_administer_channel_group: 'channel_creator',
  can_delete_any_message_group: 'role:nobody',
  can_delete_own_message_group: 'role:nobody',
  can_move_messages_out_of_channel_group: 'role:nobody',
  can_move_messages_within_channel_group: 'role:nobody',
  can_send_message_group: 'role:everyone',
  can_subscribe_group: 'role:nobody',
  can_resolve_topics_group: 'role:nobody',
};

/** Settings that may not be `role:everyone` (Zulip's allow_everyone_group=False); none may be role:internet. */
export const CHANNEL_SETTINGS_WITHOUT_EVERYONE: readonly ChannelPermissionSetting[] = [
  'can_add_subscribers_group',
  'can_administer_channel_group',
  'can_subscribe_group',
];

export function channelPermission(srv: ServerState, ch: ChannelRow, setting: ChannelPermissionSetting): GroupSettingValue {
  const stored = (JSON.parse(ch.permissions) as Partial<Record<ChannelPermissionSetting, GroupSettingValue>>)[setting];
  if (stored !== undefined) return stored;
  const def = CHANNEL_PERMISSION_DEFAULTS[setting];
  if (def === 'channel_creator') {
    return ch.creator_id === null ? systemGroupId(srv, 'role:nobody') : { direct_members: [ch.creator_id], direct_subgroups: [] };
  }
  return systemGroupId(srv, def);
}

export function hasChannelPermission(srv: ServerState, userId: number, ch: ChannelRow, setting: ChannelPermissionSetting): boolean {
  return userHasPermission(srv, userId, channelPermission(srv, ch, setting));
}

export function firstMessageId(srv: ServerState, channelId: number): number | null {
  const id = srv.db.prepare('SELECT MIN(id) FROM messages WHERE channel_id = ?').pluck().get(channelId) as number | null;
  return id ?? null;
}

/** BasicChannel (docs/zulip-behaviour.md "User and channel lists"). */
export function apiChannel(srv: ServerState, ch: ChannelRow) {
  const permissions = {} as Record<ChannelPermissionSetting, GroupSettingValue>;
  for (const s of CHANNEL_PERMISSION_SETTINGS) permissions[s] = apiGroupSettingValue(srv, channelPermission(srv, ch, s));
  return {
    stream_id: ch.id,
    name: ch.name,
    is_archived: ch.is_archived === 1,
    description: ch.description,
    rendered_description: ch.rendered_description,
    date_created: ch.date_created,
    creator_id: ch.creator_id,
    invite_only: ch.invite_only === 1,
    is_web_public: ch.is_web_public === 1,
    stream_post_policy: 1,
    message_retention_days: ch.message_retention_days,
    history_public_to_subscribers: ch.history_public_to_subscribers === 1,
    topics_policy: ch.topics_policy,
    first_message_id: firstMessageId(srv, ch.id),
    folder_id: null,
    is_recently_active: true,
    is_announcement_only: false,
    ...permissions,
    subscriber_count: subscriberIds(srv, ch.id).length,
    stream_weekly_traffic: null,
  };
}

interface SubscriptionRow {
  color: string;
  is_muted: number;
  pin_to_top: number;
  properties: string;
}

export const SUBSCRIPTION_NOTIFICATION_PROPERTIES = [
  'desktop_notifications',
  'email_notifications',
  'push_notifications',
  'audible_notifications',
  'wildcard_mentions_notify',
] as const;

export interface SubscriptionOptions {
  /**
   * `true`: `subscribers`; `partial` (FL 412): `subscribers` too, except for channels larger than
   * PARTIAL_SUBSCRIBERS_THRESHOLD, which get `partial_subscribers` (their bots) instead; false: neither.
   */
  readonly subscribers?: boolean | 'partial';
}

/** Subscription (docs/zulip-behaviour.md "Subscription objects"): BasicChannel plus the user's own properties. */
export function apiSubscription(srv: ServerState, userId: number, ch: ChannelRow, opts: SubscriptionOptions = {}) {
  const sub = srv.db.prepare('SELECT color, is_muted, pin_to_top, properties FROM subscriptions WHERE user_id = ? AND channel_id = ?').get(userId, ch.id) as
    | SubscriptionRow
    | undefined;
  const props = JSON.parse(sub?.properties ?? '{}') as Record<string, boolean | null | undefined>;
  const notif = {} as Record<(typeof SUBSCRIPTION_NOTIFICATION_PROPERTIES)[number], boolean | null>;
  for (const p of SUBSCRIPTION_NOTIFICATION_PROPERTIES) notif[p] = props[p] ?? null;
  const isMuted = sub?.is_muted === 1;
  const base = apiChannel(srv, ch);
  return {
    ...base,
    color: sub?.color ?? '#c2c2c2',
    is_muted: isMuted,
    in_home_view: !isMuted,
    pin_to_top: sub?.pin_to_top === 1,
    ...notif,
    ...subscriberFields(srv, ch.id, opts.subscribers ?? false),
  };
}

export const PARTIAL_SUBSCRIBERS_THRESHOLD = 250;

function subscriberFields(srv: ServerState, channelId: number, mode: boolean | 'partial'): { subscribers?: number[]; partial_subscribers?: number[] } {
  if (mode === false) return {};
  const all = subscriberIds(srv, channelId);
  if (mode === true || all.length <= PARTIAL_SUBSCRIBERS_THRESHOLD) return { subscribers: all };
  return { partial_subscribers: subscribedBots(srv, channelId) };
}

function subscribedBots(srv: ServerState, channelId: number): number[] {
  return srv.db
    .prepare('SELECT s.user_id FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE s.channel_id = ? AND s.active = 1 AND u.is_active = 1 AND u.is_bot = 1 ORDER BY s.user_id')
    .pluck()
    .all(channelId) as number[];
}

/** Channel ids the user is actively subscribed to. */
export function subscribedChannelIds(srv: ServerState, userId: number): number[] {
  return srv.db.prepare('SELECT channel_id FROM subscriptions WHERE user_id = ? AND active = 1 ORDER BY channel_id').pluck().all(userId) as number[];
}

