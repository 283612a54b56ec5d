/**
 * Channels: the basic channel object (docs/zulip-behaviour.md "User and channel lists", OpenAPI
 * `BasicChannel`) and the subscription object (docs/zulip-behaviour.md "Subscription objects",
 * OpenAPI `Subscription`).
 *
 * Fields that have existed for many releases are required; fields added recently (roughly FL 250
 * onward) are optional, or default to the value an older server implies, so a snapshot from an
 * older server still parses instead of failing the whole `/register`.
 */
import * as z from 'zod';
import { int, openEnum } from './envelope.js';
import { groupSettingValue } from './groups.js';

/** FL 392: per-channel empty-topic policy. */
export const channelTopicsPolicy = openEnum(['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only']);
export type ChannelTopicsPolicy = z.output<typeof channelTopicsPolicy>;

export const basicChannelShape = {
  stream_id: int,
  name: z.string(),
  description: z.string(),
  rendered_description: z.string(),
  /** UNIX seconds (FL 30). Optional: OpenAPI's own subscription examples leave it out. */
  date_created: int.optional(),
  /** FL 254; `null` when unknown (e.g. created before the field existed). */
  creator_id: int.nullable().optional(),
  invite_only: z.boolean(),
  is_web_public: z.boolean(),
  history_public_to_subscribers: z.boolean(),
  /** `null` when the channel has no messages. Updated by `stream` `update` events (FL 256). */
  first_message_id: int.nullable(),
  /** `null` = the organization's default retention. */
  message_retention_days: int.nullable(),
  /** `null` when the channel is too new to have a meaningful value. */
  stream_weekly_traffic: int.nullable(),
  /** FL 315; an older server never lists archived channels. */
  is_archived: z.boolean().default(false),
  /** FL 389: channel folder, `null` when in none. */
  folder_id: int.nullable().default(null),
  is_recently_active: z.boolean().optional(),
  topics_policy: channelTopicsPolicy.optional(),
  subscriber_count: int.optional(),
  /** Deprecated in favour of `can_send_message_group`. */
  stream_post_policy: int.optional(),
  /** Deprecated mirror of `stream_post_policy == admins only`. */
  is_announcement_only: z.boolean().optional(),
  can_add_subscribers_group: groupSettingValue.optional(),
  can_remove_subscribers_group: groupSettingValue.optional(),
  can_administer_channel_group: groupSettingValue.optional(),
  can_delete_any_message_group: groupSettingValue.optional(),
  can_delete_own_message_group: groupSettingValue.optional(),
  can_move_messages_out_of_channel_group: groupSettingValue.optional(),
  can_move_messages_within_channel_group: groupSettingValue.optional(),
  can_send_message_group: groupSettingValue.optional(),
  can_subscribe_group: groupSettingValue.optional(),
  can_resolve_topics_group: groupSettingValue.optional(),
  /** FL 441. */
  can_create_topic_group: groupSettingValue.optional(),
} satisfies z.ZodRawShape;

export const basicChannel = z.object(basicChannelShape);
export type BasicChannel = z.output<typeof basicChannel>;

/** Subscriber lists appear only when `include_subscribers` asked for them. */
const subscriberLists = {
  subscribers: z.array(int).optional(),
  /** FL 412: with `include_subscribers: "partial"`, the subset sent (bots and recent senders). */
  partial_subscribers: z.array(int).optional(),
} satisfies z.ZodRawShape;

/**
 * A channel the user is subscribed to (or was: `unsubscribed`), with the personal properties.
 * The notification overrides are `null` when the user inherits the global setting.
 *
 * OpenAPI's `Subscription` requires nothing, and its own `GET /users/me/subscriptions` example
 * leaves out several channel fields the server does send in `/register`; those are optional here
 * (`undefined` = not told), the identity, personal and long-standing fields stay required.
 */
export const subscription = z.lazy(() => basicChannel
  .partial({
    rendered_description: true,
    date_created: true,
    is_web_public: true,
    history_public_to_subscribers: true,
    first_message_id: true,
    message_retention_days: true,
    stream_weekly_traffic: true,
  })
  .extend({
  color: z.string(),
  is_muted: z.boolean(),
  /** Deprecated inverse of `is_muted`. */
  in_home_view: z.boolean().optional(),
  pin_to_top: z.boolean(),
  desktop_notifications: z.boolean().nullable().optional(),
  email_notifications: z.boolean().nullable().optional(),
  push_notifications: z.boolean().nullable().optional(),
  audible_notifications: z.boolean().nullable().optional(),
  wildcard_mentions_notify: z.boolean().nullable().optional(),
  ...subscriberLists,
}));
export type Subscription = z.output<typeof subscription>;

/** `never_subscribed` entries of `/register`: a basic channel plus, if requested, its subscribers. */
export const neverSubscribedChannel = basicChannel.extend(subscriberLists);
export type NeverSubscribedChannel = z.output<typeof neverSubscribedChannel>;
