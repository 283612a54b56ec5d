/**
 * Channels: spec "POST /users/me/subscriptions (subscribe to channels)", the referenced lists, and
 * a channel's topics (`GET /users/me/{stream_id}/topics`).
 */
import * as z from 'zod';
import type { ApiConnection, RequestOptions } from '../core.js';
import type { Params } from '../encoding.js';
import { endpoint, operation, responseTable, send } from '../operation.js';
import { basicChannel, subscription } from '../schemas/channels.js';
import { emptySuccess, int, success } from '../schemas/envelope.js';
import type { GroupSettingValue } from '../schemas/groups.js';
import { UnsupportedFeatureError } from '../errors.js';
import { idWithTopics } from './messages.js';

/** User id (FL 289; an API email before) → names of the channels. */
const channelNamesByUser = z.lazy(() => z.record(z.string(), z.array(z.string())));

export const subscribeResponse = z.lazy(() => success({
  subscribed: channelNamesByUser,
  already_subscribed: channelNamesByUser,
  /** Only with `authorization_errors_fatal: false`. */
  unauthorized: z.array(z.string()).optional(),
  /** Only when `send_new_subscription_messages` was true (FL 397). */
  new_subscription_messages_sent: z.boolean().optional(),
}));
export const getSubscriptionsResponse = z.lazy(() => success({ subscriptions: z.array(subscription) }));
export const unsubscribeResponse = z.lazy(() => success({ removed: z.array(z.string()), not_removed: z.array(z.string()) }));
export const getStreamsResponse = z.lazy(() => success({ streams: z.array(basicChannel) }));
/** Newest first; `name` is the spelling of the topic's most recent message. */
export const getStreamTopicsResponse = z.lazy(() => success({ topics: z.array(z.object({ name: z.string(), max_id: int })) }));

/** The channel's subscribers' user ids. */
export const getStreamMembersResponse = z.lazy(() => success({ subscribers: z.array(int) }));

/** `include_subscribers: "partial"` is new at FL 412. */
export const PARTIAL_SUBSCRIBERS_FL = 412;
/** FL 356 renamed `include_all_active` to `include_all`. */
export const INCLUDE_ALL_FL = 356;

export interface SubscribeArgs {
  /** Channels by name; missing ones are created. `description` (Markdown) only applies to new ones. */
  subscriptions: readonly { name: string; description?: string }[];
  /** Users to subscribe, by id (preferred) or API email; default is the caller. */
  principals?: readonly number[] | readonly string[];
  /** Default true; false reports unauthorized channels under `unauthorized` with HTTP 200. */
  authorization_errors_fatal?: boolean;
  /** Default false: Notification Bot announces newly created channels. */
  announce?: boolean;
  // The parameters below only configure channels this request creates.
  invite_only?: boolean;
  is_web_public?: boolean;
  is_default_stream?: boolean;
  history_public_to_subscribers?: boolean;
  /** Days, or `realm_default` / `unlimited`. */
  message_retention_days?: number | 'realm_default' | 'unlimited';
  /** FL 392; `empty_topic_only` FL 404 (only if every message is in the empty topic). */
  topics_policy?: 'inherit' | 'allow_empty_topic' | 'disable_empty_topic' | 'empty_topic_only';
  can_add_subscribers_group?: GroupSettingValue;
  can_remove_subscribers_group?: GroupSettingValue;
  can_administer_channel_group?: GroupSettingValue;
  can_delete_any_message_group?: GroupSettingValue;
  can_delete_own_message_group?: GroupSettingValue;
  can_move_messages_out_of_channel_group?: GroupSettingValue;
  can_move_messages_within_channel_group?: GroupSettingValue;
  /** FL 333 (replaced `stream_post_policy`). */
  can_send_message_group?: GroupSettingValue;
  /** FL 357. */
  can_subscribe_group?: GroupSettingValue;
  /** FL 402. */
  can_resolve_topics_group?: GroupSettingValue;
  /** FL 389: folder of the new channel. */
  folder_id?: number;
  /** FL 397, default true: DM other new subscribers about their subscription. */
  send_new_subscription_messages?: boolean;
}

/** Spec "POST /users/me/subscriptions": subscribe the caller or `principals`, creating missing channels. */
export const subscribe = operation({
  method: 'POST',
  path: '/users/me/subscriptions',
  schema: subscribeResponse,
  request: (args: SubscribeArgs) => ({ params: subscribeParams(args) }),
});

function subscribeParams(args: SubscribeArgs): Params {
  // The server reads these two as JSON although their values are strings: `topics_policy` (OpenAPI
  // `encoding: application/json`) and `message_retention_days` (server `Json[str] | Json[int]`).
  // So they go JSON-encoded, e.g. `"inherit"` and `"unlimited"` with their quotes.
  const { message_retention_days, topics_policy, ...rest } = args;
  return {
    ...rest,
    message_retention_days: message_retention_days === undefined ? undefined : JSON.stringify(message_retention_days),
    topics_policy: topics_policy === undefined ? undefined : JSON.stringify(topics_policy),
  };
}

/**
 * DELETE /users/me/subscriptions (referenced operation, not in the spec; real Zulip and the
 * reference server have it): unsubscribe the caller (or `principals`) from channels by name.
 * Channels the user was not subscribed to come back under `not_removed`.
 */
export const unsubscribe = operation({
  method: 'DELETE',
  path: '/users/me/subscriptions',
  schema: unsubscribeResponse,
  request: (args: { subscriptions: readonly string[]; principals?: readonly number[] | readonly string[] }) => ({ params: { ...args } }),
});

const getSubscriptionsEndpoint = endpoint({ method: 'GET', path: '/users/me/subscriptions', schema: getSubscriptionsResponse });

/** GET /users/me/subscriptions (referenced operation); `include_subscribers` true, false or `'partial'` (FL 412). */
export async function getSubscriptions(
  conn: ApiConnection,
  args: { include_subscribers?: boolean | 'partial' } = {},
  opts: RequestOptions = {},
) {
  if (args.include_subscribers === 'partial' && !conn.supports(PARTIAL_SUBSCRIBERS_FL)) {
    // Neither fallback is equivalent: false drops every list, true may fetch megabytes.
    throw new UnsupportedFeatureError('getSubscriptions with include_subscribers "partial"', PARTIAL_SUBSCRIBERS_FL, conn.effectiveFeatureLevel);
  }
  return send(conn, getSubscriptionsEndpoint, { params: { include_subscribers: args.include_subscribers } }, opts);
}

export interface GetStreamsArgs {
  /** Default true. */
  include_public?: boolean;
  /** Default false. */
  include_web_public?: boolean;
  /** Default true. */
  include_subscribed?: boolean;
  /** Default true (FL 315). */
  exclude_archived?: boolean;
  /** Default false: every channel with metadata access (administrators: all). FL 356; sent as `include_all_active` before. */
  include_all?: boolean;
  /** Default false. */
  include_default?: boolean;
  /** Default false: for a bot, its owner's subscriptions. */
  include_owner_subscribed?: boolean;
  /** Default false (FL 356). */
  include_can_access_content?: boolean;
}

const getStreamsEndpoint = endpoint({ method: 'GET', path: '/streams', schema: getStreamsResponse });

/** GET /streams (referenced operation): channels the user can access, chosen by the boolean filters. */
export function getStreams(conn: ApiConnection, args: GetStreamsArgs = {}, opts: RequestOptions = {}) {
  const { include_all, ...rest } = args;
  const params: Params = {
    ...rest,
    ...(include_all === undefined ? {} : conn.supports(INCLUDE_ALL_FL) ? { include_all } : { include_all_active: include_all }),
  };
  return send(conn, getStreamsEndpoint, { params }, opts);
}

/**
 * GET /users/me/{stream_id}/topics: the channel's topics the user can read (with protected history,
 * only those of messages sent since they subscribed), each with its newest message id, newest
 * first. A channel that does not exist or that the user cannot read is a BAD_REQUEST api error.
 */
export const getStreamTopics = operation({
  method: 'GET',
  path: '/users/me/{stream_id}/topics',
  schema: getStreamTopicsResponse,
  request: idWithTopics('stream_id', 'streamId'),
});

/**
 * GET /streams/{stream_id}/members (referenced operation "get subscribers"): the channel's
 * subscribers by user id. A channel the user may not see is a BAD_REQUEST api error.
 */
export const getStreamMembers = operation({
  method: 'GET',
  path: '/streams/{stream_id}/members',
  schema: getStreamMembersResponse,
  request: (args: { streamId: number }) => ({ path: { stream_id: args.streamId } }),
});

/** A personal channel setting and its value (`in_home_view`, the deprecated inverse of `is_muted`, is never sent). */
export type SubscriptionPropertyChange =
  | { readonly stream_id: number; readonly property: 'color'; readonly value: string }
  | { readonly stream_id: number; readonly property: SubscriptionFlagProperty; readonly value: boolean };

/** The personal channel settings that are on or off. */
export const SUBSCRIPTION_FLAG_PROPERTIES = ['is_muted', 'pin_to_top', 'desktop_notifications', 'audible_notifications', 'push_notifications', 'email_notifications', 'wildcard_mentions_notify'] as const;
export type SubscriptionFlagProperty = (typeof SUBSCRIPTION_FLAG_PROPERTIES)[number];

/**
 * POST /users/me/subscriptions/properties (referenced operation "update-subscription-settings",
 * not in the spec): the user's own settings of channels they are subscribed to. Each change
 * comes back as `subscription` op `update` events.
 */
export const updateSubscriptionSettings = operation({
  method: 'POST',
  path: '/users/me/subscriptions/properties',
  schema: emptySuccess,
  request: (args: { subscription_data: readonly SubscriptionPropertyChange[] }) => ({ params: { subscription_data: args.subscription_data.map((c) => ({ ...c })) } }),
});

/** Response schemas by OpenAPI operation, for the example-conformance test. */
export const channelResponses = responseTable(
  subscribe,
  getSubscriptionsEndpoint,
  unsubscribe,
  getStreamsEndpoint,
  getStreamTopics,
  getStreamMembers,
  updateSubscriptionSettings,
);
