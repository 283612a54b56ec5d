/**
 * Events from `GET /events` (docs/zulip-behaviour.md "Events"): one schema per event type, every known type a literal
 * branch of `ZulipEvent`, and `parseEvent`, which never throws:
 *
 *   known type, payload fits     -> the typed event
 *   type this client doesn't know -> { type: 'unknown', id, originalType, raw }
 *   known type, op it doesn't know -> { type: 'unknown', id, originalType, originalOp, raw }
 *                                  (a newer server's new variant, not a broken one)
 *   known type, payload misfits  -> { type: 'malformed', id, originalType, raw, problems }
 *
 * The engine logs and skips the last two kinds; `id` is kept (when the event has one) so the queue
 * position still advances past them.
 *
 * Topic fields are passed through as sent: with the `empty_topic_name` capability the empty topic
 * is `""`; without it, the server writes `realm_empty_topic_display_name` instead.
 */
import * as z from 'zod';
import { int, openEnum, success } from './envelope.js';
import { basicChannel, subscription } from './channels.js';
import { groupSettingValue, userGroup, userGroupPermissionsShape } from './groups.js';
import { message, topicLink } from './message.js';
import { navigationView } from './navigation-views.js';
import { realmEmoji } from './realm-data.js';
import { mutedUser } from './register.js';
import { scheduledMessage } from './scheduled-messages.js';
import { savedSnippet } from './snippets.js';
import { userTopic } from './user-topics.js';
import { user, userRole } from './users.js';

const ids = z.array(int);

/** `{id, type}` plus the given fields. */
function event<const T extends string, S extends z.ZodRawShape>(type: T, shape: S) {
  return z.object({ id: int, type: z.literal(type) }).extend(shape);
}

/** `{id, type, op}` plus the given fields: one branch of an op-discriminated event type. */
function opEvent<const T extends string, const O extends string, S extends z.ZodRawShape>(type: T, op: O, shape: S) {
  return z.object({ id: int, type: z.literal(type), op: z.literal(op) }).extend(shape);
}

/** A rarely used event whose payload is kept as is (`op`, if any, stays a plain string). */
function looseEvent<const T extends string>(type: T) {
  return z.looseObject({ id: int, type: z.literal(type), op: z.string().optional() });
}

/** Scalar values carried by `{property, value}` update events. */
const scalarValue = z.lazy(() => z.union([z.boolean(), z.number(), z.string(), z.null()]));

// --- Messages --------------------------------------------------------------------------------

/**
 * A new message. `flags` sits beside the message in the event; it is copied onto the message so
 * the message reads the same as a fetched one. `local_message_id` (undocumented;
 * docs/zulip-behaviour.md "Messages and local echo") is the `local_id` we sent with `queue_id`, present only on our own queue.
 */
export const messageEvent = z.lazy(() => event('message', {
  message,
  flags: z.array(z.string()),
  local_message_id: z.union([z.string(), z.number().transform(String)]).optional(),
}).transform((e) => ({ ...e, message: { ...e.message, flags: e.flags } })));

/** An edit, a move, or a rendering-only update. There is no `op` (docs/zulip-behaviour.md "update_message"). */
export const updateMessageEvent = z.lazy(() => event('update_message', {
  /** `null` for a rendering-only update (e.g. an inline URL preview). */
  user_id: int.nullable(),
  rendering_only: z.boolean(),
  message_id: int,
  /** Every message the channel/topic change applies to; always includes `message_id`. */
  message_ids: ids,
  /** The editing user's flags for `message_id` after the edit. */
  flags: z.array(z.string()),
  edit_timestamp: int,
  /** Deprecated; use `stream_id`. */
  stream_name: z.string().optional(),
  /** Present on any channel-message edit: the channel before the edit. */
  stream_id: int.optional(),
  /** Only when the messages moved channel. */
  new_stream_id: int.optional(),
  /** Only when the topic or channel changed. */
  propagate_mode: openEnum(['change_one', 'change_later', 'change_all']).optional(),
  /** The topic before the edit; only when moved. */
  orig_subject: z.string().optional(),
  /** The new topic; only when the topic changed (absent for a channel move keeping the name). */
  subject: z.string().optional(),
  topic_links: z.array(topicLink).optional(),
  orig_content: z.string().optional(),
  orig_rendered_content: z.string().optional(),
  content: z.string().optional(),
  rendered_content: z.string().optional(),
  is_me_message: z.boolean().optional(),
}));

const deleteMessageCommon = {
  id: int,
  type: z.literal('delete_message'),
  message_type: openEnum(['private', 'stream']),
  stream_id: int.optional(),
  topic: z.string().optional(),
};

/**
 * Deleted (or no longer accessible) messages. With `bulk_message_deletion` the server sends
 * `message_ids`; without it, one event per `message_id`. Both forms come out as `message_ids`.
 */
export const deleteMessageEvent = z.lazy(() => z.union([
  z.object({ ...deleteMessageCommon, message_ids: ids }),
  z
    .object({ ...deleteMessageCommon, message_id: int })
    .transform(({ message_id, ...rest }) => ({ ...rest, message_ids: [message_id] })),
]));

const typingUser = z.object({ user_id: int, email: z.string().optional() });
const typingShape = {
  message_type: openEnum(['direct', 'stream']),
  sender: typingUser,
  /** Direct messages: every participant, including the sender. */
  recipients: z.array(typingUser).optional(),
  /** Channel messages (needs the `stream_typing_notifications` capability). */
  stream_id: int.optional(),
  topic: z.string().optional(),
};
export const typingEvent = z.lazy(() => z.discriminatedUnion('op', [
  opEvent('typing', 'start', typingShape),
  opEvent('typing', 'stop', typingShape),
]));

/** FL 351: someone is editing a message we would be notified about. */
const typingEditShape = {
  sender_id: int,
  message_id: int,
  recipient: z.object({
    type: openEnum(['direct', 'channel']),
    channel_id: int.optional(),
    topic: z.string().optional(),
    user_ids: ids.optional(),
  }),
};
export const typingEditMessageEvent = z.lazy(() => z.discriminatedUnion('op', [
  opEvent('typing_edit_message', 'start', typingEditShape),
  opEvent('typing_edit_message', 'stop', typingEditShape),
]));

/** Enough about a message losing the `read` flag to rebuild unread state (op `remove`). */
export const messageDetail = z.lazy(() => z.object({
  type: openEnum(['private', 'stream']),
  mentioned: z.boolean().optional(),
  /** Direct-message recipients other than ourselves. */
  user_ids: ids.optional(),
  stream_id: int.optional(),
  topic: z.string().optional(),
  unmuted_stream_msg: z.boolean().optional(),
}));
export type MessageDetail = z.output<typeof messageDetail>;

const flagsShape = {
  /** Deprecated mirror of `op`. */
  operation: z.string().optional(),
  flag: z.string(),
  messages: ids,
  /** Deprecated; only meaningful for `read` ("all messages"). */
  all: z.boolean().default(false),
};
export const updateMessageFlagsEvent = z.lazy(() => z.discriminatedUnion('op', [
  opEvent('update_message_flags', 'add', flagsShape),
  opEvent('update_message_flags', 'remove', {
    ...flagsShape,
    /** Keyed by message id (as a string); sent for `read`. */
    message_details: z.record(z.string(), messageDetail).optional(),
  }),
]));

const reactionShape = {
  message_id: int,
  emoji_name: z.string(),
  emoji_code: z.string(),
  reaction_type: openEnum(['unicode_emoji', 'realm_emoji', 'zulip_extra_emoji']),
  user_id: int,
  /** Removed at FL 484; use `user_id`. */
  user: z.looseObject({ user_id: int.optional() }).optional(),
};
export const reactionEvent = z.lazy(() => z.discriminatedUnion('op', [
  opEvent('reaction', 'add', reactionShape),
  opEvent('reaction', 'remove', reactionShape),
]));

export const submessageEvent = z.lazy(() => event('submessage', {
  msg_type: z.string(),
  content: z.string(),
  message_id: int,
  sender_id: int,
  submessage_id: int,
}));

// --- Per-user state ---------------------------------------------------------------------------

/** No `op`: visibility_policy 0 means the policy was removed. */
export const userTopicEvent = event('user_topic', userTopic.shape);

export const savedSnippetsEvent = z.lazy(() => z.discriminatedUnion('op', [
  opEvent('saved_snippets', 'add', { saved_snippet: savedSnippet }),
  opEvent('saved_snippets', 'update', { saved_snippet: savedSnippet }),
  opEvent('saved_snippets', 'remove', { saved_snippet_id: int }),
]));

/** Singular `navigation_view` (the register key is plural). */
export const navigationViewEvent = z.lazy(() => z.discriminatedUnion('op', [
  opEvent('navigation_view', 'add', { navigation_view: navigationView }),
  opEvent('navigation_view', 'update', {
    fragment: z.string(),
    data: z.object({ name: z.string().nullable().optional(), is_pinned: z.boolean().nullable().optional() }),
  }),
  opEvent('navigation_view', 'remove', { fragment: z.string() }),
]));

export const scheduledMessagesEvent = z.lazy(() => z.discriminatedUnion('op', [
  opEvent('scheduled_messages', 'add', { scheduled_messages: z.array(scheduledMessage) }),
  opEvent('scheduled_messages', 'update', { scheduled_message: scheduledMessage }),
  opEvent('scheduled_messages', 'remove', { scheduled_message_id: int }),
]));

/** FL 399: a reminder is a scheduled message to oneself about another message. */
export const reminder = z.lazy(() => z.object({
  reminder_id: int,
  type: openEnum(['stream', 'private']),
  to: z.union([int, ids]),
  content: z.string(),
  rendered_content: z.string(),
  scheduled_delivery_timestamp: int,
  failed: z.boolean().default(false),
  reminder_target_message_id: int,
}));
export type Reminder = z.output<typeof reminder>;

export const remindersEvent = z.lazy(() => z.discriminatedUnion('op', [
  opEvent('reminders', 'add', { reminders: z.array(reminder) }),
  opEvent('reminders', 'remove', { reminder_id: int }),
]));

/**
 * One changed setting. `value` is typed loosely here; `parseUserSettingUpdate` (user-settings.ts)
 * checks it against the setting's own type. `language_name` comes with `default_language`.
 */
export const userSettingsEvent = z.lazy(() => z.discriminatedUnion('op', [
  opEvent('user_settings', 'update', {
    property: z.string(),
    value: scalarValue,
    language_name: z.string().optional(),
  }),
]));

export const mutedUsersEvent = z.lazy(() => event('muted_users', { muted_users: z.array(mutedUser) }));

export const alertWordsEvent = z.lazy(() => event('alert_words', { alert_words: z.array(z.string()) }));

export const hasZoomTokenEvent = z.lazy(() => event('has_zoom_token', { value: z.boolean() }));

export const onboardingStepsEvent = z.lazy(() => event('onboarding_steps', {
  onboarding_steps: z.array(z.looseObject({ type: z.string(), name: z.string() })),
}));

const draft = z.lazy(() => z.looseObject({
  id: int,
  type: z.string(),
  to: ids,
  topic: z.string(),
  content: z.string(),
  timestamp: z.number(),
}));
export const draftsEvent = z.lazy(() => z.discriminatedUnion('op', [
  opEvent('drafts', 'add', { drafts: z.array(draft) }),
  opEvent('drafts', 'update', { draft }),
  opEvent('drafts', 'remove', { draft_id: int }),
]));

const attachmentShape = {
  attachment: z.looseObject({ id: int }),
  upload_space_used: z.number().optional(),
};
export const attachmentEvent = z.lazy(() => z.discriminatedUnion('op', [
  opEvent('attachment', 'add', attachmentShape),
  opEvent('attachment', 'update', attachmentShape),
  opEvent('attachment', 'remove', attachmentShape),
]));

// --- Channels and subscriptions ---------------------------------------------------------------

const peerShape = { stream_ids: ids, user_ids: ids };
export const subscriptionEvent = z.lazy(() => z.discriminatedUnion('op', [
  opEvent('subscription', 'add', { subscriptions: z.array(subscription) }),
  opEvent('subscription', 'remove', {
    subscriptions: z.array(z.object({ stream_id: int, name: z.string().optional() })),
  }),
  /** A personal property: color, is_muted, pin_to_top, desktop_notifications, ... */
  opEvent('subscription', 'update', { stream_id: int, property: z.string(), value: scalarValue }),
  opEvent('subscription', 'peer_add', peerShape),
  opEvent('subscription', 'peer_remove', peerShape),
]));

export const streamEvent = z.lazy(() => z.discriminatedUnion('op', [
  opEvent('stream', 'create', { streams: z.array(basicChannel) }),
  /** Old servers send only `streams` (full objects); newer ones `stream_ids` too. Normalized to `stream_ids`. */
  opEvent('stream', 'delete', {
    streams: z.array(z.looseObject({ stream_id: int })).optional(),
    stream_ids: ids.optional(),
  })
    .refine((e) => e.stream_ids !== undefined || e.streams !== undefined, { message: 'needs stream_ids or streams' })
    .transform((e) => ({
      id: e.id,
      type: e.type,
      op: e.op,
      stream_ids: e.stream_ids ?? (e.streams ?? []).map((s) => s.stream_id),
    })),
  /**
   * A global channel property changed (including `first_message_id`, FL 256, and the `can_*_group`
   * permissions, whose value is a group-setting value). `value` is `null` e.g. for `folder_id`.
   */
  opEvent('stream', 'update', {
    stream_id: int,
    name: z.string().optional(),
    property: z.string(),
    value: z.union([z.boolean(), z.number(), z.string(), z.null(), groupSettingValue]),
    rendered_description: z.string().optional(),
    history_public_to_subscribers: z.boolean().optional(),
    is_web_public: z.boolean().optional(),
  }),
]));

export const defaultStreamsEvent = event('default_streams', { default_streams: ids });

export const channelFolderEvent = z.lazy(() => z.discriminatedUnion('op', [
  opEvent('channel_folder', 'add', { channel_folder: z.looseObject({ id: int }) }),
  /** OpenAPI's own example leaves `channel_folder_id` out, so it is not insisted on. */
  opEvent('channel_folder', 'update', { channel_folder_id: int.optional(), data: z.looseObject({}) }),
  opEvent('channel_folder', 'reorder', { order: ids }),
]));

// --- Users and groups -------------------------------------------------------------------------

/** The user-group fields an `update` may carry; unknown future ones are kept. */
const userGroupChanges = z.lazy(() => z.looseObject({
  name: z.string().optional(),
  description: z.string().optional(),
  /** FL 290: capable clients get this instead of `remove`. */
  deactivated: z.boolean().optional(),
  ...userGroupPermissionsShape,
}));

export const userGroupEvent = z.lazy(() => z.discriminatedUnion('op', [
  /** A new group has no subgroups yet, and OpenAPI's own example omits the (empty) list. */
  opEvent('user_group', 'add', { group: userGroup.extend({ direct_subgroup_ids: ids.default([]) }) }),
  opEvent('user_group', 'update', { group_id: int, data: userGroupChanges }),
  opEvent('user_group', 'add_members', { group_id: int, user_ids: ids }),
  opEvent('user_group', 'remove_members', { group_id: int, user_ids: ids }),
  opEvent('user_group', 'add_subgroups', { group_id: int, direct_subgroup_ids: ids }),
  opEvent('user_group', 'remove_subgroups', { group_id: int, direct_subgroup_ids: ids }),
  /** Only without the `include_deactivated_groups` capability. */
  opEvent('user_group', 'remove', { group_id: int }),
]));

/** `realm_user` `update`: `user_id` plus whichever fields changed. */
const userChanges = z.lazy(() => z.looseObject({
  user_id: int,
  full_name: z.string().optional(),
  email: z.string().optional(),
  new_email: z.string().optional(),
  delivery_email: z.string().nullable().optional(),
  timezone: z.string().optional(),
  role: userRole.optional(),
  bot_owner_id: int.nullable().optional(),
  avatar_url: z.string().nullable().optional(),
  avatar_source: z.string().optional(),
  avatar_url_medium: z.string().nullable().optional(),
  avatar_version: int.optional(),
  is_active: z.boolean().optional(),
  custom_profile_field: z
    .object({ id: int, value: z.string().nullable(), rendered_value: z.string().optional() })
    .optional(),
}));

export const realmUserEvent = z.lazy(() => z.discriminatedUnion('op', [
  opEvent('realm_user', 'add', { person: user }),
  opEvent('realm_user', 'update', { person: userChanges }),
  /** A guest lost access to this user (or the user was removed). */
  opEvent('realm_user', 'remove', { person: z.object({ user_id: int, full_name: z.string().optional() }) }),
]));

export const userStatusEvent = z.lazy(() => event('user_status', {
  user_id: int,
  away: z.boolean().optional(),
  status_text: z.string().optional(),
  emoji_name: z.string().optional(),
  emoji_code: z.string().optional(),
  /** '' first: the open enum would take it as unknown (an emoji cleared is '' everywhere). */
  reaction_type: z.union([z.literal(''), openEnum(['unicode_emoji', 'realm_emoji', 'zulip_extra_emoji'])]).optional(),
}));

/** Legacy per-client presence (`presence`) and the modern per-user format (`presences`). */
export const presenceEvent = z.lazy(() => event('presence', {
  user_id: int.optional(),
  email: z.string().optional(),
  server_timestamp: z.number().optional(),
  presence: z
    .record(
      z.string(),
      z.looseObject({
        client: z.string().optional(),
        status: openEnum(['active', 'idle']),
        timestamp: z.number(),
        pushable: z.boolean().optional(),
      }),
    )
    .optional(),
  presences: z
    .record(z.string(), z.looseObject({ active_timestamp: z.number().optional(), idle_timestamp: z.number().optional() }))
    .optional(),
}));

export const customProfileFieldsEvent = z.lazy(() => event('custom_profile_fields', {
  fields: z.array(z.looseObject({ id: int, name: z.string(), type: int })),
}));

// --- Realm ------------------------------------------------------------------------------------

/** The realm settings this client reads from `update_dict` (message editing; spec "Events" 2). */
const realmChanges = z.lazy(() => z.looseObject({
  allow_message_editing: z.boolean().optional(),
  message_content_edit_limit_seconds: int.nullable().optional(),
  move_messages_within_stream_limit_seconds: int.nullable().optional(),
  move_messages_between_streams_limit_seconds: int.nullable().optional(),
  can_move_messages_between_topics_group: groupSettingValue.optional(),
  can_move_messages_between_channels_group: groupSettingValue.optional(),
  can_resolve_topics_group: groupSettingValue.optional(),
  topics_policy: openEnum(['allow_empty_topic', 'disable_empty_topic']).optional(),
  name: z.string().optional(),
}));

export const realmEvent = z.lazy(() => z.discriminatedUnion('op', [
  opEvent('realm', 'update', { property: z.string(), value: scalarValue }),
  /** `property` is a deprecated leftover (`"default"`); the changes are in `data`. */
  opEvent('realm', 'update_dict', { property: z.string().optional(), data: realmChanges }),
  opEvent('realm', 'deactivated', { realm_id: int }),
]));

export const invitesChangedEvent = event('invites_changed', {});

// --- Queue and server -------------------------------------------------------------------------

/** Keeps the long poll alive; only `id` bookkeeping. */
export const heartbeatEvent = event('heartbeat', {});

/** The server restarted, maybe upgraded: re-check the feature level. */
export const restartEvent = z.lazy(() => event('restart', {
  zulip_version: z.string().optional(),
  zulip_merge_base: z.string().optional(),
  zulip_feature_level: int.optional(),
  server_generation: z.number().optional(),
  immediate: z.boolean().optional(),
}));

/**
 * Every event type this client knows, by `type`. Types with an `op` are discriminated unions over
 * it. The loose entries at the end are known but not used by the engine: their payload is kept.
 */
const eventSchemas = {
  message: messageEvent,
  update_message: updateMessageEvent,
  delete_message: deleteMessageEvent,
  typing: typingEvent,
  typing_edit_message: typingEditMessageEvent,
  update_message_flags: updateMessageFlagsEvent,
  reaction: reactionEvent,
  submessage: submessageEvent,
  user_topic: userTopicEvent,
  saved_snippets: savedSnippetsEvent,
  navigation_view: navigationViewEvent,
  scheduled_messages: scheduledMessagesEvent,
  reminders: remindersEvent,
  user_settings: userSettingsEvent,
  muted_users: mutedUsersEvent,
  alert_words: alertWordsEvent,
  has_zoom_token: hasZoomTokenEvent,
  onboarding_steps: onboardingStepsEvent,
  drafts: draftsEvent,
  attachment: attachmentEvent,
  subscription: subscriptionEvent,
  stream: streamEvent,
  default_streams: defaultStreamsEvent,
  channel_folder: channelFolderEvent,
  user_group: userGroupEvent,
  realm_user: realmUserEvent,
  user_status: userStatusEvent,
  presence: presenceEvent,
  custom_profile_fields: customProfileFieldsEvent,
  realm: realmEvent,
  invites_changed: invitesChangedEvent,
  heartbeat: heartbeatEvent,
  restart: restartEvent,
  /** FL 468 (replaces `push_device`). */
  device: looseEvent('device'),
  push_device: looseEvent('push_device'),
  /** op `update`: the whole new set of custom emoji by id. */
  realm_emoji: z.lazy(() => looseEvent('realm_emoji').extend({ realm_emoji: z.record(z.string(), realmEmoji).optional() })),
  realm_linkifiers: looseEvent('realm_linkifiers'),
  realm_filters: looseEvent('realm_filters'),
  realm_playgrounds: looseEvent('realm_playgrounds'),
  realm_domains: looseEvent('realm_domains'),
  realm_export: looseEvent('realm_export'),
  realm_export_consent: looseEvent('realm_export_consent'),
  realm_bot: looseEvent('realm_bot'),
  realm_user_settings_defaults: looseEvent('realm_user_settings_defaults'),
  default_stream_groups: looseEvent('default_stream_groups'),
  muted_topics: looseEvent('muted_topics'),
  update_display_settings: looseEvent('update_display_settings'),
  update_global_notifications: looseEvent('update_global_notifications'),
  web_reload_client: looseEvent('web_reload_client'),
} as const;

type EventSchemas = typeof eventSchemas;
export type KnownEventType = keyof EventSchemas;
export type KnownEvent = { [K in KnownEventType]: z.output<EventSchemas[K]> }[KnownEventType];

/** An event of a type (or op) this client does not know: a newer server. Skipped. */
export interface UnknownEvent {
  readonly type: 'unknown';
  /** `null` when the event had no integer id. */
  readonly id: number | null;
  readonly originalType: string;
  /** Set when the type is known but its `op` is not. */
  readonly originalOp?: string;
  readonly raw: Readonly<Record<string, unknown>>;
}

/** A known event type whose payload does not fit its schema. Logged and skipped, never fatal. */
export interface MalformedEvent {
  readonly type: 'malformed';
  readonly id: number | null;
  /** `""` when the event had no string `type`. */
  readonly originalType: string;
  readonly raw: unknown;
  readonly problems: readonly string[];
}

export type ZulipEvent = KnownEvent | UnknownEvent | MalformedEvent;
/** A known event of one type, e.g. `EventOf<'subscription'>`. */
export type EventOf<T extends KnownEventType> = Extract<KnownEvent, { type: T }>;

const knownEventSchemas: ReadonlyMap<string, z.ZodType<KnownEvent>> = new Map(Object.entries(eventSchemas));

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function problemsOf(error: z.ZodError): string[] {
  return error.issues.map((i) => `${i.path.length > 0 ? i.path.join('.') : '(event)'}: ${i.message}`);
}

/** Classify and parse one raw event. Never throws. */
export function parseEvent(raw: unknown): ZulipEvent {
  if (!isRecord(raw)) {
    return { type: 'malformed', id: null, originalType: '', raw, problems: ['event is not an object'] };
  }
  const id = typeof raw.id === 'number' && Number.isInteger(raw.id) ? raw.id : null;
  const type = raw.type;
  if (typeof type !== 'string') {
    return { type: 'malformed', id, originalType: '', raw, problems: ['type: missing or not a string'] };
  }
  const schema = knownEventSchemas.get(type);
  if (schema === undefined) return { type: 'unknown', id, originalType: type, raw };

  // An op-discriminated type with an op we have no branch for is a newer server's variant.
  const ops = schema._zod.propValues?.op;
  if (ops !== undefined && typeof raw.op === 'string' && !ops.has(raw.op)) {
    return { type: 'unknown', id, originalType: type, originalOp: raw.op, raw };
  }

  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  return { type: 'malformed', id, originalType: type, raw, problems: problemsOf(parsed.error) };
}

/** Parse every event of a `GET /events` answer, in order. */
export function parseEvents(raw: readonly unknown[]): ZulipEvent[] {
  return raw.map(parseEvent);
}

/** `GET /events` success body. Events stay raw here so one bad event cannot fail the batch. */
export const eventsResponse = z.lazy(() => success({
  events: z.array(z.unknown()),
  queue_id: z.string().optional(),
}));
export type EventsResponse = z.output<typeof eventsResponse>;
