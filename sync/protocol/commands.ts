/**
 * The engine's commands and queries as the UI calls them (intent level, never SQL; docs/architecture.md
 * rule 10), each with its request and response schema, plus the messages the engine pushes (status,
 * live-view change sets, touched areas). Both sides parse with these schemas.
 */
import * as z from 'zod';
import type { EventArea } from './areas.js';
import { sessionStatus } from './status.js';
import { narrowChangeSetSchema, narrowRequestSchema, narrowSnapshotSchema } from './views.js';

const int = z.number().int();
const none = z.object({});
const ok = z.object({ ok: z.literal(true) });

export const topicSummarySchema = z.object({
  /** `""` is the empty topic. */
  topic: z.string(),
  max_message_id: int,
  /** UNIX seconds of the newest message when the device holds it; null when only its id is known. Absent from older engines. */
  last_message_timestamp: int.nullable().optional(),
  unread_count: int.nonnegative(),
  /** 0 none, 1 muted, 2 unmuted, 3 followed. */
  visibility_policy: int,
});
export type TopicSummary = z.output<typeof topicSummarySchema>;

export const channelSummarySchema = z.lazy(() => z.object({
  channel_id: int,
  name: z.string(),
  is_subscribed: z.boolean(),
  is_muted: z.boolean(),
  /** Pinned to the top of the sidebar. */
  pin_to_top: z.boolean(),
  color: z.string().nullable(),
  unread_count: int.nonnegative(),
  /** Newest first. */
  topics: z.array(topicSummarySchema),
}));
export type ChannelSummary = z.output<typeof channelSummarySchema>;

/** One topic of a channel's complete list (`channelTopics`). */
export const channelTopicSchema = topicSummarySchema.extend({
  /** The topic is resolved (its name starts with `✔ `). */
  resolved: z.boolean(),
});
export type ChannelTopic = z.output<typeof channelTopicSchema>;

export const channelTopicsSchema = z.lazy(() => z.object({
  channel_id: int,
  /**
   * The server's list of the channel's topics is stored and nothing since may have made it wrong:
   * every topic the user can read is here. False when it was never fetched (offline, or the fetch
   * is still running: the `channel_topics` area says when it lands) or a move, a deletion or a
   * lost event queue may have changed it (refetched when online); the topics shown are then those
   * known locally (cached messages, unread ones, the last stored list).
   */
  complete: z.boolean(),
  /** UNIX ms of the last stored server list, null if never. */
  fetched_at: int.nullable(),
  /** Newest first (by newest message id; a message being sent counts as the newest). */
  topics: z.array(channelTopicSchema),
}));
export type ChannelTopicsView = z.output<typeof channelTopicsSchema>;

/** One participant of a DM conversation; `full_name` null when the user is unknown locally. */
export const dmConversationParticipantSchema = z.object({ user_id: int, full_name: z.string().nullable() });

export const dmConversationSchema = z.lazy(() => z.object({
  /** Sorted participant ids joined by commas, self included (the `unreadCounts.dms` key). */
  key: z.string(),
  /** Every participant, sorted, self included: the `dm` narrow operand and the draft / send target. */
  user_ids: z.array(int),
  /** The others, by name; just oneself for the conversation with oneself. */
  participants: z.array(dmConversationParticipantSchema),
  max_message_id: int,
  /** UNIX seconds of the newest message, when it is cached (null otherwise). */
  last_message_timestamp: int.nullable(),
  unread_count: int.nonnegative(),
}));
export type DmConversation = z.output<typeof dmConversationSchema>;

/**
 * Unread counts for the home views. Messages the cache holds count by their own state (with
 * pending changes on top); others by the server's unread set from register, kept current by events
 * (`complete` false before the first register, or when the server truncated it).
 */
export const unreadCountsSchema = z.lazy(() => z.object({
  /** All unread: subscribed channels outside muted channels and topics, plus every DM (as Zulip counts it). */
  total: int.nonnegative(),
  /** Unread personal mentions, plus wildcard mentions outside muted topics. */
  mentions: int.nonnegative(),
  /** Unread in followed topics. */
  followed: int.nonnegative(),
  /** Starred messages (read or not); whether to show it follows the user's `starred_message_counts`. */
  starred: int.nonnegative(),
  /** `count` every unread of the channel; `unmuted_count` outside muted topics (what a muted channel shows). */
  channels: z.array(z.object({ channel_id: int, count: int.nonnegative(), unmuted_count: int.nonnegative() })),
  topics: z.array(z.object({ channel_id: int, topic: z.string(), count: int.nonnegative(), mentions: int.nonnegative(), muted: z.boolean() })),
  /** By `dmConversations` key. */
  dms: z.array(z.object({ key: z.string(), count: int.nonnegative(), mentions: int.nonnegative() })),
  complete: z.boolean(),
}));
export type UnreadCountsView = z.output<typeof unreadCountsSchema>;

export const userSummarySchema = z.lazy(() => z.object({
  user_id: int,
  email: z.string(),
  full_name: z.string(),
  is_active: z.boolean(),
  is_bot: z.boolean(),
  avatar_url: z.string().nullable(),
  /** The user card's fields: role (100 owner … 600 guest; null when unknown), the email others may see, IANA timezone ('' unknown). */
  role: int.nullable().optional(),
  delivery_email: z.string().nullable().optional(),
  timezone: z.string().optional(),
}));
export type UserSummary = z.output<typeof userSummarySchema>;

export const savedSnippetSchema = z.object({ id: int, title: z.string(), content: z.string(), date_created: int });
/**
 * A custom emoji of the realm: its id (a `realm_emoji` reaction's code), name, and image path
 * relative to the realm (`/user_avatars/<realm>/emoji/images/<file>`, fetched and cached like
 * uploads: protocol/uploads.ts). Deactivated ones stay listed (old reactions still show them).
 */
export const realmEmojiSchema = z.lazy(() => z.object({ id: z.string(), name: z.string(), source_url: z.string(), deactivated: z.boolean() }));
export type RealmEmojiView = z.output<typeof realmEmojiSchema>;
export const navigationViewSchema = z.lazy(() => z.object({ fragment: z.string(), is_pinned: z.boolean(), name: z.string().nullable() }));
export const scheduledMessageSchema = z.lazy(() => z.object({
  scheduled_message_id: int,
  type: z.string(),
  to: z.union([int, z.array(int)]),
  topic: z.string().optional(),
  content: z.string(),
  rendered_content: z.string(),
  scheduled_delivery_timestamp: int,
  failed: z.boolean(),
}));
export const userSettingsSchema = z.record(z.string(), z.unknown());

/** One step of a message's history: what changed, by whom, when. */
export const editStepSchema = z.lazy(() => z.object({
  user_id: int.nullable(),
  /** UNIX seconds. */
  timestamp: int,
  /** Word-level diff of the raw or rendered content, when the content changed. */
  content_diff: z.array(z.object({ op: z.enum(['same', 'added', 'removed']), text: z.string() })).nullable(),
  /** Topic before and after, when the topic changed. */
  topic: z.object({ from: z.string(), to: z.string() }).nullable(),
  /** Channel ids before and after, when the message moved channel. */
  channel: z.object({ from: int, to: int }).nullable(),
}));
export const editHistorySchema = z.lazy(() => z.object({
  message_id: int,
  /** Where it came from: the cached `edit_history`, or the server's history endpoint. */
  source: z.enum(['cache', 'server']),
  /** The text of the message as first posted (of its rendered HTML, the form older contents have). */
  original: z.string(),
  /** Oldest first. */
  steps: z.array(editStepSchema),
}));
export type EditHistory = z.output<typeof editHistorySchema>;

export const typingEditorSchema = z.object({ message_id: int, user_ids: z.array(int) });
export type TypingEditor = z.output<typeof typingEditorSchema>;

/** Where a draft (or a message) goes: a channel's topic (`""` while the new topic has no name), or a DM group. */
export const draftTargetSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('channel'), channel_id: int.positive(), topic: z.string() }),
  z.object({ type: z.literal('direct'), user_ids: z.array(int.positive()).min(1) }),
]);
/** Where a draft goes: as `draftTargetSchema`, and a new DM whose people are not picked yet (`user_ids` empty, key `dm:`). */
export const draftToSchema = z.lazy(() => z.discriminatedUnion('type', [draftTargetSchema.options[0], z.object({ type: z.literal('direct'), user_ids: z.array(int.positive()) })]));
/** The composer's text of one conversation, kept by the engine across reloads, restarts and crashes. */
export const draftSchema = z.object({ key: z.string(), to: draftToSchema, content: z.string(), updated_at: int });
export type DraftView = z.output<typeof draftSchema>;

export const typingOpSchema = z.enum(['start', 'stop']);
/**
 * The answer of the typing commands: whether a notice went to the server (false, quietly, when
 * the stream is not live, the user's settings say not to, or the server refused: typing is
 * ephemeral and never queued), and the realm's timing for the next one (Zulip's
 * `server_typing_started_wait_period_milliseconds`, repeat a `start` this often while typing, and
 * `server_typing_stopped_wait_period_milliseconds`, send `stop` after this long idle).
 */
export const typingSentSchema = z.lazy(() => z.object({ sent: z.boolean(), started_wait_ms: int.positive(), stopped_wait_ms: int.positive() }));
export type TypingSent = z.output<typeof typingSentSchema>;

/** A subscribed channel's personal settings (`updateSubscriptionSettings` changes them). */
export const subscriptionSettingsSchema = z.lazy(() => z.object({
  is_muted: z.boolean(),
  pin_to_top: z.boolean(),
  desktop_notifications: z.boolean().nullable(),
  audible_notifications: z.boolean().nullable(),
  push_notifications: z.boolean().nullable(),
  email_notifications: z.boolean().nullable(),
  wildcard_mentions_notify: z.boolean().nullable(),
}));
export type SubscriptionSettings = z.output<typeof subscriptionSettingsSchema>;

/**
 * One channel of `allChannels`: every channel the user can see (subscribed, unsubscribed, never
 * subscribed), as the engine last heard of it, with what the user may do there (the rules as the
 * engine knows them; the server decides).
 */
export const channelListingSchema = z.lazy(() => z.object({
  channel_id: int,
  name: z.string(),
  /** Markdown as written, and the server's rendering (sanitise before the DOM). */
  description: z.string(),
  rendered_description: z.string(),
  invite_only: z.boolean(),
  is_web_public: z.boolean(),
  history_public_to_subscribers: z.boolean(),
  is_archived: z.boolean(),
  /** Subscribed now, with queued subscribes / unsubscribes already applied. */
  subscribed: z.boolean(),
  color: z.string().nullable(),
  /**
   * The user's own settings of a subscribed channel (null when not subscribed), queued changes
   * applied; a notification setting is null while it follows the user's global default.
   */
  personal: subscriptionSettingsSchema.nullable(),
  /** Null when the server did not say. */
  subscriber_count: int.nonnegative().nullable(),
  /** UNIX seconds; null when unknown. */
  date_created: int.nullable(),
  creator_id: int.nullable(),
  /** Null = the organization's default; -1 = forever. */
  message_retention_days: int.nullable(),
  topics_policy: z.string().nullable(),
  /** Subscribing oneself is allowed (a public channel, or a private one whose rules include the user). */
  can_subscribe: z.boolean(),
  /** Subscribing others is allowed (administrators, the realm's or the channel's rule). */
  can_add_subscribers: z.boolean(),
}));
export type ChannelListing = z.output<typeof channelListingSchema>;

/** What creating a channel may offer the user (the realm's rules and limits as the engine knows them). */
export const channelCreationSchema = z.lazy(() => z.object({
  can_create_public: z.boolean(),
  can_create_private: z.boolean(),
  /** Needs the realm's spectator access too (`web_public_enabled`). */
  can_create_web_public: z.boolean(),
  web_public_enabled: z.boolean(),
  /** Default channels: administrators. */
  is_admin: z.boolean(),
  /** Message retention: owners. */
  is_owner: z.boolean(),
  /** The system groups (`role:…`) for permission settings, as the server named them. */
  system_groups: z.array(z.object({ id: int, name: z.string() })),
  max_name_length: int.positive().nullable(),
  max_description_length: int.positive().nullable(),
}));
export type ChannelCreationView = z.output<typeof channelCreationSchema>;
/**
 * Which messages the user may delete, as the engine knows the realm's and channels' rules (the
 * renderer decides per message: `messageDeletable`); the server has the last word.
 */
export const messageDeletionSchema = z.lazy(() => z.object({
  user_id: int.nullable(),
  /** Any message (administrators, or the realm's `can_delete_any_message_group`). */
  any: z.boolean(),
  /** Their own messages (the realm's `can_delete_own_message_group`), within `limit_seconds`. */
  own: z.boolean(),
  /** Seconds after sending that one's own message may be deleted; null: no limit. */
  limit_seconds: int.positive().nullable(),
  /** Channels whose own rules let the user delete any message, or their own. */
  any_in_channels: z.array(int),
  own_in_channels: z.array(int),
}));
export type MessageDeletionView = z.output<typeof messageDeletionSchema>;
/** Who holds a permission (spec "Group-setting value"): a group id, or direct members and subgroups. */
export const groupSettingValueSchema = z.lazy(() => z.union([int, z.object({ direct_members: z.array(int), direct_subgroups: z.array(int) })]));
export type GroupSettingValueView = z.output<typeof groupSettingValueSchema>;

/** The six permission settings of a user group, in the order Zulip web lists them. */
export const USER_GROUP_PERMISSIONS = ['can_manage_group', 'can_mention_group', 'can_add_members_group', 'can_remove_members_group', 'can_join_group', 'can_leave_group'] as const;
export type UserGroupPermission = (typeof USER_GROUP_PERMISSIONS)[number];

/**
 * A user group (named or system) as stored, with the user's queued changes applied. A permission
 * setting is null when the server did not say (older servers).
 */
export const userGroupViewSchema = z.lazy(() => z.object({
  id: int,
  name: z.string(),
  description: z.string(),
  /** Direct members (for a system group: the users whose role is exactly its own). */
  members: z.array(int),
  direct_subgroup_ids: z.array(int),
  is_system_group: z.boolean(),
  deactivated: z.boolean(),
  creator_id: int.nullable(),
  /** UNIX seconds. */
  date_created: int.nullable(),
  can_add_members_group: groupSettingValueSchema.nullable(),
  can_join_group: groupSettingValueSchema.nullable(),
  can_leave_group: groupSettingValueSchema.nullable(),
  can_manage_group: groupSettingValueSchema.nullable(),
  can_mention_group: groupSettingValueSchema.nullable(),
  can_remove_members_group: groupSettingValueSchema.nullable(),
}));
export type UserGroupView = z.output<typeof userGroupViewSchema>;

export const userGroupsSchema = z.object({
  /** By id; system groups included (the permission pickers offer them). */
  groups: z.array(userGroupViewSchema),
  /** The realm's `can_manage_all_groups` (who may manage every group), null when not known. */
  can_manage_all_groups: groupSettingValueSchema.nullable(),
});
export type UserGroupsView = z.output<typeof userGroupsSchema>;

/** A person's presence as shown (computed against the engine's clock) and their status; empty strings: none. */
export const userPresenceSchema = z.lazy(() => z.object({
  user_id: int,
  presence: z.enum(['active', 'idle', 'offline']),
  status_text: z.string(),
  emoji_name: z.string(),
  emoji_code: z.string(),
  reaction_type: z.string(),
}));
export type UserPresence = z.output<typeof userPresenceSchema>;

/** Request / response pairs. `view_id` names a live view opened by `openNarrow`. */
export const queries = {
  status: { request: none, response: sessionStatus },
  channels: { request: none, response: z.array(channelSummarySchema) },
  users: { request: none, response: z.array(userSummarySchema) },
  /**
   * The signed-in user's id (e.g. to offer editing one's own messages) and organization role (100
   * owner, 200 administrator, 300 moderator, 400 member, 600 guest: which topic actions to offer);
   * null before the first sync.
   */
  ownUser: { request: none, response: z.object({ user_id: int.nullable(), role: int.nullable() }) },
  /** The people the signed-in user muted (queued changes included): their messages are hidden. */
  mutedUsers: { request: none, response: z.array(int) },
  /**
   * Everyone with a known presence or status (others are offline with no status). Presence goes
   * stale with time alone: ask again every minute or so as well as on the `presence` area.
   */
  presence: { request: none, response: z.array(userPresenceSchema) },
  savedSnippets: { request: none, response: z.array(savedSnippetSchema) },
  /** The realm's custom emoji by name (live area `realm`), answered offline from the store. */
  realmEmoji: { request: none, response: z.array(realmEmojiSchema) },
  /** The Unicode emoji names the server accepts, by code, canonical first (null: it has no table; use the app's). */
  serverEmojiNames: { request: none, response: z.lazy(() => z.record(z.string(), z.array(z.string())).nullable()) },
  navigationViews: { request: none, response: z.array(navigationViewSchema) },
  scheduledMessages: { request: none, response: z.array(scheduledMessageSchema) },
  userSettings: { request: none, response: userSettingsSchema },
  editHistory: { request: z.object({ message_id: int }), response: editHistorySchema },
  typingEditors: { request: none, response: z.array(typingEditorSchema) },
  /**
   * Who is typing in a conversation now (others only, in the order they started; live area
   * `typing`). Expired notices are dropped when asked, so ask again while the list is not empty.
   */
  typingInConversation: { request: z.object({ to: draftTargetSchema }), response: z.object({ user_ids: z.array(int) }) },
  /** Every draft, newest first (live area `drafts`). */
  drafts: { request: none, response: z.array(draftSchema) },
  /**
   * A channel's complete topic list (see `channelTopicsSchema`). Answers at once from what is
   * stored; when online and the stored list is missing or stale, the server's is fetched in the
   * background and the `channel_topics` area follows when it lands.
   */
  channelTopics: { request: z.object({ channel_id: int.positive() }), response: channelTopicsSchema },
  /** Every known DM conversation (1:1, groups, oneself), newest first. */
  dmConversations: { request: none, response: z.array(dmConversationSchema) },
  unreadCounts: { request: none, response: unreadCountsSchema },
  /** Every channel the user can see, by name, answered offline from the store (see `channelListingSchema`). */
  allChannels: { request: none, response: z.array(channelListingSchema) },
  /** The realm's channel-creation rules and limits as the engine knows them (offline too). */
  channelCreation: { request: none, response: channelCreationSchema },
  /** Which messages the user may delete (the realm's and channels' rules, offline too). */
  messageDeletion: { request: none, response: messageDeletionSchema },
  /**
   * A channel's subscribers (user ids, ascending). Online: the server's list
   * (GET /streams/{id}/members), `source: 'server'`. Offline: the stored list when the engine holds
   * one (`source: 'cache'`), else `OFFLINE` saying it needs a connection. A channel the user may not
   * see is `SERVER` with the server's words.
   */
  channelSubscribers: {
    request: z.object({ channel_id: int.positive() }),
    response: z.object({ channel_id: int, user_ids: z.array(int), source: z.enum(['server', 'cache']) }),
  },
  /** The user groups (deactivated ones when asked) and who may manage all of them (live area `user_groups`). */
  userGroups: { request: z.object({ include_deactivated: z.boolean().default(false) }), response: userGroupsSchema },
  /**
   * Who read a message (GET /messages/{id}/read_receipts), ascending. Online only: offline it is
   * `OFFLINE` saying it needs a connection; the realm's read receipts turned off is `SERVER`.
   */
  readReceipts: { request: z.object({ message_id: int.positive() }), response: z.object({ message_id: int, user_ids: z.array(int) }) },
  /** Files kept offline (`keepOffline`): their canonical upload paths. */
  keptOffline: { request: none, response: z.array(z.string()) },
} as const;

/**
 * Which `areas` events may change a query's answer: re-query when one of these is named. (`messages`
 * is pushed when messages were added or removed; the rest are store areas.)
 */
export const QUERY_AREAS = {
  channels: ['channels', 'subscriptions', 'user_topics', 'unread', 'messages', 'channel_topics', 'outbox'],
  channelTopics: ['channel_topics', 'channels', 'user_topics', 'unread', 'messages', 'outbox'],
  dmConversations: ['dm_conversations', 'users', 'unread', 'messages', 'outbox'],
  unreadCounts: ['unread', 'messages', 'subscriptions', 'user_topics', 'outbox'],
  allChannels: ['channels', 'subscriptions', 'realm', 'user_groups', 'users', 'outbox'],
  channelCreation: ['realm', 'user_groups', 'users'],
  messageDeletion: ['realm', 'user_groups', 'users', 'channels'],
  channelSubscribers: ['channels', 'subscriptions'],
  realmEmoji: ['realm'],
  serverEmojiNames: ['realm'],
  userGroups: ['user_groups', 'realm', 'users', 'outbox'],
  mutedUsers: ['muted_users'],
  presence: ['presence'],
} as const satisfies Partial<Record<keyof typeof queries, readonly EventArea[]>>;

export const commands = {
  start: { request: none, response: ok },
  stop: { request: none, response: ok },
  /** The OS says the network changed or the machine woke: poll at once. */
  nudge: { request: z.object({ reason: z.enum(['resume', 'network']) }), response: ok },
  openNarrow: { request: narrowRequestSchema, response: z.object({ view_id: z.string(), snapshot: narrowSnapshotSchema }) },
  loadOlder: { request: z.lazy(() => z.object({ view_id: z.string(), count: int.min(1).max(5000) })), response: ok },
  loadNewer: { request: z.lazy(() => z.object({ view_id: z.string(), count: int.min(1).max(5000) })), response: ok },
  closeNarrow: { request: z.object({ view_id: z.string() }), response: ok },
  /** Save the composer's text of a conversation (debounced by the UI); blank text deletes the draft. */
  saveDraft: { request: z.object({ to: draftToSchema, content: z.string().max(1_000_000) }), response: z.object({ key: z.string() }) },
  deleteDraft: { request: z.object({ key: z.string() }), response: ok },
  /**
   * The window has focus / the user interacted (or not): the engine reports the user's presence
   * (POST /users/me/presence) at once on becoming active and every `server_presence_ping_interval_seconds`
   * while online. Never queued: presence is ephemeral.
   */
  reportActivity: { request: z.lazy(() => z.object({ active: z.boolean(), new_user_input: z.boolean().default(false) })), response: ok },
  /** Online only, never queued, never an error: tell a conversation we are (no longer) typing in it (POST /typing). */
  setTyping: { request: z.object({ to: draftTargetSchema, op: typingOpSchema }), response: typingSentSchema },
  /** Online only, never queued, never an error: tell a message's readers we are (no longer) editing it (POST /messages/{id}/typing). */
  setEditTyping: { request: z.object({ message_id: int.positive(), op: typingOpSchema }), response: typingSentSchema },
  /**
   * Keep a file a message links (`/user_uploads/...`) on this device: fetched now unless it is kept
   * already, then never evicted from the upload cache (pinned files stay within its budget). Not
   * queued: offline, a file not on the device is `kept: false` with the reason.
   */
  keepOffline: {
    request: z.object({ path: z.string().max(2000) }),
    response: z.lazy(() => z.object({ kept: z.boolean(), reason: z.enum(['not_found', 'unavailable', 'over_budget']).nullable() })),
  },
  /**
   * Create a channel (POST /users/me/subscriptions with the creation parameters), subscribing the
   * user and `user_ids`. Online only, not a queued `subscribe`: the server applies the creation
   * parameters only if no channel of that name exists when the request arrives, so a queued create
   * replayed later could silently subscribe the user to someone else's (say public) channel of the
   * same name instead of the private one they asked for; and `subscribe` verifies by the
   * user's own subscriptions, which says nothing about the others subscribed. A name the engine
   * already knows is refused (`INVALID_REQUEST`) for the same reason (one the user cannot see is
   * the server's "Unable to access channel"). The channel appears in `allChannels` when the
   * server's event arrives; `subscribed_user_ids` is everyone now subscribed to it, the user included.
   */
  createChannel: {
    request: z.lazy(() => z.object({
      name: z.string().trim().min(1).max(1000),
      description: z.string().max(10_000).default(''),
      invite_only: z.boolean().default(false),
      is_web_public: z.boolean().default(false),
      /** Only for private channels (public ones always share their history). */
      history_public_to_subscribers: z.boolean().optional(),
      announce: z.boolean().default(false),
      is_default_stream: z.boolean().default(false),
      message_retention_days: z.union([int.positive(), z.literal('realm_default'), z.literal('unlimited')]).optional(),
      topics_policy: z.enum(['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only']).optional(),
      /** Permission settings as a group id (e.g. a system group). */
      can_add_subscribers_group: int.positive().optional(),
      can_administer_channel_group: int.positive().optional(),
      can_send_message_group: int.positive().optional(),
      can_remove_subscribers_group: int.positive().optional(),
      /** Others to subscribe with the user. */
      user_ids: z.array(int.positive()).max(1000).default([]),
    })),
    response: z.object({ ok: z.literal(true), subscribed_user_ids: z.array(int) }),
  },
  /**
   * Subscribe others to channels (POST /users/me/subscriptions with `principals`, and
   * `authorization_errors_fatal: false`). Online only: the per-channel answer (who was subscribed,
   * who already was, channels the server would not let the user reach) is the point, and a queued
   * row could report none of it; nor can `subscribe`'s verify see other users'
   * subscriptions. A refusal (e.g. "Insufficient permission") is `SERVER` with the server's words.
   */
  addSubscribers: {
    request: z.lazy(() => z.object({ channel_ids: z.array(int.positive()).min(1).max(100), user_ids: z.array(int.positive()).min(1).max(1000) })),
    response: z.lazy(() => z.object({
      channels: z.array(
        z.object({
          channel_id: int,
          name: z.string(),
          subscribed_user_ids: z.array(int),
          already_subscribed_user_ids: z.array(int),
          /** The server would not let the user reach the channel (`unauthorized`): nobody was subscribed to it. */
          unauthorized: z.boolean(),
        }),
      ),
    })),
  },
} as const;

export type QueryName = keyof typeof queries;
export type CommandName = keyof typeof commands;

/** What the engine pushes to the UI without being asked. */
/** A desktop notification the engine decided on (sync/engine/notifications.ts); the page or the main process shows it. */
export const notificationItemSchema = z.object({
  message_id: int,
  reason: z.enum(['dm', 'mention', 'followed', 'channel']),
  sender: z.string(),
  title: z.string(),
  body: z.string(),
  /** No sound (the user's audible-notification settings). */
  silent: z.boolean(),
  /** The conversation a click opens. */
  target: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('dm'), user_ids: z.array(int) }),
    z.object({ kind: z.literal('topic'), channel_id: int, channel_name: z.string(), topic: z.string() }),
  ]),
});
export type NotificationItem = z.output<typeof notificationItemSchema>;

export const engineEventSchema = z.lazy(() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('status'), status: sessionStatus }),
  z.object({ type: z.literal('view'), view_id: z.string(), changes: narrowChangeSetSchema }),
  /** Areas whose queries may answer differently now (channels, users, snippets, typing, ...). */
  z.object({ type: z.literal('areas'), areas: z.array(z.string()) }),
  /** New messages to notify about: each one, or (many at once, e.g. after being offline) a summary. */
  z.object({
    type: z.literal('notifications'),
    items: z.array(notificationItemSchema),
    summary: z.object({ count: int, senders: z.array(z.string()) }).nullable(),
    /** The account (organisation) they came from: every open account notifies, shown or not. */
    account_id: z.string().optional(),
  }),
  /** A queued upload on its way: bytes of its request sent (`upload_id`: what `uploadFile` answered). */
  z.object({ type: z.literal('upload_progress'), upload_id: int, sent: int, total: int }),
]));
export type EngineEvent = z.output<typeof engineEventSchema>;
