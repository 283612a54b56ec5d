/**
 * The `POST /register` response (docs/zulip-behaviour.md "Register"): the parts of the initial state this client uses.
 *
 * Only `queue_id`, `last_event_id` and the version fields are always present; everything else
 * depends on `fetch_event_types` (the fetch key is noted beside each group) and is optional.
 * Keys not listed here are dropped: the snapshot is large and most of it is web-app only.
 */
import * as z from 'zod';
import { openEnum, int, success } from './envelope.js';
import { neverSubscribedChannel, subscription } from './channels.js';
import { groupSettingValue, userGroup } from './groups.js';
import { navigationView } from './navigation-views.js';
import { scheduledMessage } from './scheduled-messages.js';
import { savedSnippet } from './snippets.js';
import { userSettings } from './user-settings.js';
import { userTopic } from './user-topics.js';
import { user } from './users.js';
import { realmEmoji } from './realm-data.js';

const ids = z.array(int);

/**
 * A direct-message conversation with unreads. `other_user_id` is FL 119; older servers only sent
 * the (now deprecated) `sender_id`, which meant the same thing for 1:1 conversations.
 */
export const unreadDmConversation = z.lazy(() => z.union([
  z.object({ other_user_id: int, unread_message_ids: ids }),
  z
    .object({ sender_id: int, unread_message_ids: ids })
    .transform((v) => ({ other_user_id: v.sender_id, unread_message_ids: v.unread_message_ids })),
]));

/** docs/zulip-behaviour.md "Unread messages" (fetch keys `message` + `update_message_flags`). */
export const unreadMsgs = z.lazy(() => z.object({
  count: int,
  pms: z.array(unreadDmConversation),
  /** Includes muted channels and topics. */
  streams: z.array(z.object({ stream_id: int, topic: z.string(), unread_message_ids: ids })),
  /** Group DMs; `user_ids_string` is the sorted ids joined with commas, including our own. */
  huddles: z.array(z.object({ user_ids_string: z.string(), unread_message_ids: ids })),
  mentions: ids,
  /** True when the server truncated the list (more than 50000 unreads). */
  old_unreads_missing: z.boolean().default(false),
}));
export type UnreadMsgs = z.output<typeof unreadMsgs>;

export const recentPrivateConversation = z.object({ max_message_id: int, user_ids: ids });
export type RecentPrivateConversation = z.output<typeof recentPrivateConversation>;

/** A user's presence in the modern format (UNIX seconds; absent or 0: never). */
export const modernPresence = z.lazy(() => z.looseObject({ active_timestamp: z.number().optional(), idle_timestamp: z.number().optional() }));
export type ModernPresence = z.output<typeof modernPresence>;

/** A user's status (`user_status` in register); empty fields are left out. */
export const userStatus = z.lazy(() => z.looseObject({
  away: z.boolean().optional(),
  status_text: z.string().optional(),
  emoji_name: z.string().optional(),
  emoji_code: z.string().optional(),
  reaction_type: z.string().optional(),
}));

export const mutedUser = z.object({ id: int, timestamp: int });
export type MutedUser = z.output<typeof mutedUser>;

/** FL 392: the organization-wide empty-topic policy (replaces `realm_mandatory_topics`). */
export const realmTopicsPolicy = openEnum(['allow_empty_topic', 'disable_empty_topic']);

export const registerResponse = z.lazy(() => success({
  // Always present.
  /** `null` only for unauthenticated spectators. */
  queue_id: z.string().nullable(),
  /** -1 for a fresh queue; pass it to `GET /events`. */
  last_event_id: int,
  zulip_feature_level: int,
  zulip_version: z.string(),
  /** FL 88; `""` when unknown. */
  zulip_merge_base: z.string().optional(),
  /** FL 481: seconds an idle queue survives. */
  idle_queue_timeout_secs: int.optional(),

  // `realm`: limits.
  max_message_length: int.optional(),
  max_topic_length: int.optional(),
  max_stream_name_length: int.optional(),
  max_stream_description_length: int.optional(),
  max_channel_folder_name_length: int.optional(),
  max_channel_folder_description_length: int.optional(),
  max_reminder_note_length: int.optional(),
  max_bulk_new_subscription_messages: int.optional(),
  max_file_upload_size_mib: int.optional(),
  max_avatar_file_size_mib: int.optional(),
  /** Deprecated (fetch key `message`); prefer `anchor: "newest"`. */
  max_message_id: int.optional(),

  // `realm`: topics and editing.
  /** FL 334: how the `""` topic is displayed. */
  realm_empty_topic_display_name: z.string().optional(),
  realm_topics_policy: realmTopicsPolicy.optional(),
  /** Deprecated by `realm_topics_policy` (FL 392). */
  realm_mandatory_topics: z.boolean().optional(),
  realm_allow_message_editing: z.boolean().optional(),
  /** Who sees edit history: 'all', 'moves' (moves only) or 'none' (FL 358; older: realm_allow_edit_history). */
  realm_message_edit_history_visibility_policy: openEnum(['all', 'moves', 'none']).optional(),
  realm_allow_edit_history: z.boolean().optional(),
  /** `null` = no limit. */
  realm_message_content_edit_limit_seconds: int.nullable().optional(),
  realm_move_messages_within_stream_limit_seconds: int.nullable().optional(),
  realm_move_messages_between_streams_limit_seconds: int.nullable().optional(),
  realm_can_move_messages_between_topics_group: groupSettingValue.optional(),
  realm_can_move_messages_between_channels_group: groupSettingValue.optional(),
  realm_can_resolve_topics_group: groupSettingValue.optional(),
  /** Who may manage every user group (FL 305), besides each group's `can_manage_group`. */
  realm_can_manage_all_groups: groupSettingValue.optional(),
  /** Who may delete any message, and their own (within `realm_message_content_delete_limit_seconds`; `null`: no limit). */
  realm_can_delete_any_message_group: groupSettingValue.optional(),
  realm_can_delete_own_message_group: groupSettingValue.optional(),
  realm_message_content_delete_limit_seconds: int.nullable().optional(),

  // `realm`: channels (who may subscribe others and create channels; web-public needs spectator access).
  realm_can_add_subscribers_group: groupSettingValue.optional(),
  realm_can_create_public_channel_group: groupSettingValue.optional(),
  realm_can_create_private_channel_group: groupSettingValue.optional(),
  realm_can_create_web_public_channel_group: groupSettingValue.optional(),
  realm_enable_spectator_access: z.boolean().optional(),

  // `realm`: timing.
  /** FL 74; before it, 90 s was implied. */
  event_queue_longpoll_timeout_seconds: int.optional(),
  server_typing_started_expiry_period_milliseconds: int.optional(),
  server_typing_stopped_wait_period_milliseconds: int.optional(),
  server_typing_started_wait_period_milliseconds: int.optional(),

  // `realm`: identity.
  realm_url: z.string().optional(),
  realm_name: z.string().optional(),

  // `realm_user`.
  realm_users: z.array(user).optional(),
  realm_non_active_users: z.array(user).optional(),
  cross_realm_bots: z.array(user.extend({ is_system_bot: z.boolean().optional() })).optional(),
  user_id: int.optional(),
  email: z.string().optional(),
  delivery_email: z.string().optional(),
  full_name: z.string().optional(),
  is_admin: z.boolean().optional(),
  is_owner: z.boolean().optional(),
  is_moderator: z.boolean().optional(),
  is_guest: z.boolean().optional(),

  // `subscription`.
  subscriptions: z.array(subscription).optional(),
  unsubscribed: z.array(subscription).optional(),
  never_subscribed: z.array(neverSubscribedChannel).optional(),

  // Other fetch keys (named as the field unless noted).
  unread_msgs: unreadMsgs.optional(),
  /** The realm's custom emoji by id, deactivated ones included. */
  realm_emoji: z.record(z.string(), realmEmoji).optional(),
  /** FL 140 (`realm`): a JSON file `{code_to_names}`, the Unicode emoji names this server accepts (canonical first). */
  server_emoji_data_url: z.string().optional(),
  /** Fetch key `realm_user_groups`; events arrive as `user_group`. */
  realm_user_groups: z.array(userGroup).optional(),
  /** Fetch key `user_topic`. */
  user_topics: z.array(userTopic).optional(),
  saved_snippets: z.array(savedSnippet).optional(),
  /** Fetch key `navigation_views`; events arrive as `navigation_view`. */
  navigation_views: z.array(navigationView).optional(),
  scheduled_messages: z.array(scheduledMessage).optional(),
  user_settings: userSettings.optional(),
  starred_messages: ids.optional(),
  recent_private_conversations: z.array(recentPrivateConversation).optional(),
  muted_users: z.array(mutedUser).optional(),
  /** Fetch key `presence`, with `slim_presence`: by user id in the modern format. Kept as a realm value (engine/presence.ts). */
  presences: z.record(z.string(), modernPresence).optional(),
  presence_last_update_id: int.optional(),
  server_presence_ping_interval_seconds: int.optional(),
  server_presence_offline_threshold_seconds: int.optional(),
  /** Fetch key `user_status`: by user id. */
  user_status: z.record(z.string(), userStatus).optional(),
}));
export type RegisterResponse = z.output<typeof registerResponse>;
