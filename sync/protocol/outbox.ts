/**
 * The outbox in the engine ↔ UI contract: a command per kind of offline change (intent level, as
 * the user says it: edit this message, move these, follow this topic), each answering at once with
 * the outbox row that carries it, online or not; the outbox view and its badge counts; the user's
 * actions on a row; and the online-only operations, which fail at once with `OFFLINE` when the
 * server cannot be reached and never half-apply.
 *
 * Ids are the ones the UI holds: a message being sent has its local echo's id, a snippet created
 * offline its negative local id; the engine maps them to what the outbox needs.
 */
import { z } from 'zod';

const int = z.number().int();
const id = int.positive();
const ok = z.object({ ok: z.literal(true) });

/** A row's states: the outbox's state machine (sync/outbox/states.ts) uses this very list. */
export const OUTBOX_ROW_STATES = ['queued', 'sending', 'retry_wait', 'done', 'failed', 'conflict', 'unknown', 'verifying', 'discarded'] as const;
export type OutboxRowState = (typeof OUTBOX_ROW_STATES)[number];

/**
 * The kinds of change the outbox queues, as rows name them. The engine's registry
 * (sync/outbox/registry.ts) lists exactly these (a test checks it). A row's `kind` stays a plain
 * string in `outboxRowSchema`: a database written by a newer app may hold a kind this one does not
 * know, and the user must still see (and discard) it.
 */
export const OUTBOX_KINDS = [
  'message_send',
  'message_content_edit',
  'message_move',
  'message_flags',
  'message_reaction',
  'saved_snippet_create',
  'saved_snippet_edit',
  'saved_snippet_delete',
  'user_topic_set',
  'user_settings_update',
  'navigation_view_add',
  'navigation_view_edit',
  'navigation_view_delete',
  'mark_topic_read',
  'mark_narrow_read',
  'subscription_set',
  'subscription_remove',
  'user_group_update',
  'user_group_members',
  'user_group_permissions',
  'scheduled_message_create',
  'scheduled_message_edit',
  'scheduled_message_delete',
  'user_group_subgroups',
  'user_group_reactivate',
  'scheduled_message_send_now',
] as const;
export type OutboxKindName = (typeof OUTBOX_KINDS)[number];

/**
 * Why a row failed or conflicts, in the API error union's shape: `kind` (network, timeout, server,
 * rate_limited, unauthorized, api, malformed, conflict, deadline_expired, bad_args, unknown_kind,
 * internal), the server's `code` when it gave one, `message` a sentence for a person (the server's
 * own words where it gave some), and `details` the typed extra fields (e.g. a move's time limit).
 */
export const outboxErrorSchema = z.object({
  kind: z.string(),
  code: z.string().nullable(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type OutboxError = z.output<typeof outboxErrorSchema>;

/** What every queued command answers: the row (`merged` into an earlier queued one, or `cancelled` with it). */
export const enqueuedSchema = z.object({ outbox_id: int, outcome: z.enum(['added', 'merged', 'cancelled']) });
export type Enqueued = z.output<typeof enqueuedSchema>;

const groupSettingValue = z.union([int, z.object({ direct_members: z.array(int), direct_subgroups: z.array(int) })]);
const groupPermission = z.object({ new: groupSettingValue, old: groupSettingValue.optional() });

export const outboxCommands = {
  /** `base_raw_content`: the raw Markdown the user started from (see `messageRawContent`). */
  editMessage: { request: z.object({ message_id: id, content: z.string(), base_raw_content: z.string() }), response: enqueuedSchema },
  moveMessages: {
    request: z
      .object({
        message_id: id,
        topic: z.string().optional(),
        channel_id: id.optional(),
        propagate_mode: z.enum(['change_one', 'change_later', 'change_all']).default('change_one'),
        send_notification_to_old_thread: z.boolean().default(false),
        send_notification_to_new_thread: z.boolean().default(true),
      })
      .refine((r) => r.topic !== undefined || r.channel_id !== undefined, 'a move changes the topic, the channel or both'),
    response: enqueuedSchema,
  },
  /** Resolve (`✔ ` prefix) or unresolve the topic of `message_id`, for the whole topic. */
  resolveTopic: { request: z.object({ message_id: id, resolved: z.boolean() }), response: enqueuedSchema },
  sendMessage: {
    request: z.object({
      to: z.discriminatedUnion('type', [
        z.object({ type: z.literal('channel'), channel_id: id, topic: z.string() }),
        z.object({ type: z.literal('direct'), user_ids: z.array(id).min(1) }),
      ]),
      content: z.string().min(1),
    }),
    /** `message_id`: the local echo's id, shown at once in the conversation's views. */
    response: enqueuedSchema.extend({ message_id: int }),
  },
  setTopicVisibility: {
    request: z.object({ channel_id: id, topic: z.string(), visibility_policy: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]) }),
    response: enqueuedSchema,
  },
  markTopicRead: { request: z.object({ channel_id: id, topic: z.string() }), response: enqueuedSchema },
  /** `snippet_id`: a negative local id until the server's id is known. */
  createSnippet: { request: z.object({ title: z.string().min(1), content: z.string().min(1) }), response: enqueuedSchema.extend({ snippet_id: int }) },
  editSnippet: { request: z.object({ snippet_id: int, title: z.string().min(1).optional(), content: z.string().min(1).optional() }), response: enqueuedSchema },
  deleteSnippet: { request: z.object({ snippet_id: int }), response: enqueuedSchema },
  addNavigationView: { request: z.object({ fragment: z.string().min(1), is_pinned: z.boolean(), name: z.string().min(1).nullable().optional() }), response: enqueuedSchema },
  editNavigationView: { request: z.object({ fragment: z.string().min(1), is_pinned: z.boolean().optional(), name: z.string().min(1).optional() }), response: enqueuedSchema },
  deleteNavigationView: { request: z.object({ fragment: z.string().min(1) }), response: enqueuedSchema },
  /** Setting name → value, as `PATCH /settings` takes them (never passwords or the email). */
  updateSettings: { request: z.object({ settings: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])) }), response: enqueuedSchema },
  /** Subscribe by channel name (a missing channel is created, as the server does). */
  subscribe: { request: z.object({ channels: z.array(z.object({ name: z.string().min(1), description: z.string().optional() })).min(1) }), response: enqueuedSchema },
  unsubscribe: { request: z.object({ channels: z.array(z.string().min(1)).min(1) }), response: enqueuedSchema },
  /** Name, description and permission settings (`{new, old}`: `old` is what the user saw). */
  updateUserGroup: {
    request: z.object({
      user_group_id: id,
      name: z.string().min(1).optional(),
      description: z.string().optional(),
      permissions: z.record(z.string(), groupPermission).optional(),
    }),
    /** Two rows when both the basics and permissions change (in that order). */
    response: z.object({ outbox_ids: z.array(int) }),
  },
  updateUserGroupMembers: { request: z.object({ user_group_id: id, add: z.array(id).default([]), delete: z.array(id).default([]) }), response: enqueuedSchema },
  /** Add or remove direct subgroups (POST /user_groups/{id}/members `add_subgroups` / `delete_subgroups`, FL 311). */
  updateUserGroupSubgroups: {
    request: z.object({ user_group_id: id, add: z.array(id).default([]), delete: z.array(id).default([]) }).refine((r) => r.add.length + r.delete.length > 0, 'nothing to change'),
    response: enqueuedSchema,
  },
  /**
   * Reactivate a deactivated group (PATCH `deactivated: false`, FL 386). Queued: it depends on
   * nothing but the group itself and the user's right to manage it.
   */
  reactivateUserGroup: { request: z.object({ user_group_id: id }), response: enqueuedSchema },
  /** Star, unstar, mark read or unread, by message id (shown at once; unread counts follow). */
  setMessageFlags: {
    request: z.object({ message_ids: z.array(id).min(1).max(5000), flag: z.enum(['read', 'starred']), op: z.enum(['add', 'remove']) }),
    response: enqueuedSchema,
  },
  /** Every message of a narrow (a channel, a DM conversation, everything: `[]`) becomes read. */
  markNarrowRead: {
    request: z.object({ narrow: z.array(z.object({ operator: z.string(), operand: z.union([z.string(), int, z.array(int)]), negated: z.boolean().optional() })).max(20) }),
    response: enqueuedSchema,
  },
  /** The user's own reaction, added or removed (a toggle back while queued annuls both). */
  setReaction: {
    request: z.object({
      message_id: id,
      op: z.enum(['add', 'remove']),
      emoji_name: z.string().min(1),
      emoji_code: z.string().min(1),
      reaction_type: z.enum(['unicode_emoji', 'realm_emoji', 'zulip_extra_emoji']),
    }),
    response: enqueuedSchema,
  },
  /** `scheduled_message_id`: a negative local id until the server's id is known. */
  createScheduledMessage: {
    request: z.object({
      to: z.discriminatedUnion('type', [
        z.object({ type: z.literal('channel'), channel_id: id, topic: z.string() }),
        z.object({ type: z.literal('direct'), user_ids: z.array(id).min(1) }),
      ]),
      content: z.string().min(1),
      /** UNIX seconds. */
      scheduled_delivery_timestamp: int,
    }),
    response: enqueuedSchema.extend({ scheduled_message_id: int }),
  },
  deleteScheduledMessage: { request: z.object({ scheduled_message_id: int }), response: enqueuedSchema },
  editScheduledMessage: {
    request: z.object({
      /** A server id, or the negative local id `createScheduledMessage` answered. */
      scheduled_message_id: int,
      content: z.string().min(1).optional(),
      topic: z.string().optional(),
      scheduled_delivery_timestamp: int.optional(),
      recipient: z
        .discriminatedUnion('type', [
          z.object({ type: z.literal('channel'), channel_id: id, topic: z.string() }),
          z.object({ type: z.literal('direct'), user_ids: z.array(id).min(1) }),
        ])
        .optional(),
    }),
    response: enqueuedSchema,
  },
  /**
   * Send a scheduled message at once (Zulip web's way: it is unscheduled and sent as a message),
   * with its text and recipient as the local list shows them. A failed one may be sent now too.
   */
  sendScheduledMessageNow: { request: z.object({ scheduled_message_id: int }), response: enqueuedSchema },

  // The user's actions on a row.
  outboxRetry: { request: z.object({ outbox_id: int }), response: ok },
  /** The change is dropped and the server's state shown again. */
  outboxDiscard: { request: z.object({ outbox_id: int }), response: ok },
  /** New arguments for a queued or failed row (the kind's own shape, as `outbox` lists it). */
  outboxEdit: { request: z.object({ outbox_id: int, args: z.record(z.string(), z.unknown()) }), response: ok },
  /** `take_theirs` answers the user's text in `draft`, to keep as a draft. */
  outboxResolveConflict: {
    request: z.object({
      outbox_id: int,
      choice: z.discriminatedUnion('choice', [z.object({ choice: z.literal('keep_mine') }), z.object({ choice: z.literal('take_theirs') }), z.object({ choice: z.literal('edited'), text: z.string() })]),
    }),
    response: z.object({ ok: z.literal(true), draft: z.string().nullable() }),
  },

  // Online only: `OFFLINE` at once when the server is not reachable; nothing is queued.
  /** Delete a topic (administrators), repeating until the server says it is complete. */
  deleteTopic: { request: z.object({ channel_id: id, topic: z.string() }), response: ok },
  sendInvites: {
    request: z.object({
      emails: z.array(z.string().min(1)).min(1),
      channel_ids: z.array(id).default([]),
      invite_as: z.union([z.literal(100), z.literal(200), z.literal(300), z.literal(400), z.literal(600)]).optional(),
      invite_expires_in_minutes: int.positive().nullable().optional(),
      /** Groups the new user joins (the actor must be allowed to add members). */
      group_ids: z.array(id).optional(),
      /** Also the organization's default channels (allowed even when the actor cannot subscribe others). */
      include_realm_default_subscriptions: z.boolean().optional(),
      /** Default true at the server: tell the inviter when the person joins. */
      notify_referrer_on_join: z.boolean().optional(),
      /** Administrators only: the Welcome Bot's custom text (`""` none, null the organization's default). */
      welcome_message_custom_text: z.string().max(8000).nullable().optional(),
    }),
    /**
     * Refusals are `SERVER` with `details.code`; `INVITATION_FAILED` carries `details.details`
     * = `{ errors: [address, reason, deactivated][], sent_invitations, daily_limit_reached, license_limit_reached }`.
     */
    response: ok,
  },
  /**
   * What the invitation form offers: the channels known here with the organization's default ones
   * marked (asked of the server: the stored snapshot does not carry them), and the named groups.
   */
  inviteOptions: {
    request: z.object({}),
    response: z.object({
      channels: z.array(z.object({ channel_id: id, name: z.string(), is_default: z.boolean() })),
      groups: z.array(z.object({ group_id: id, name: z.string(), description: z.string() })),
    }),
  },
  createUser: { request: z.object({ email: z.string().min(3), password: z.string().min(1), full_name: z.string().min(1) }), response: z.object({ user_id: int }) },
  /** A test push to one registered device (`device_id`) or to all of them. */
  sendTestNotification: { request: z.object({ device_id: id.optional() }), response: ok },
  /** Register an APNs device token (deprecated by the server from FL 406, still accepted). */
  registerApnsToken: { request: z.object({ token: z.string().min(1).max(4096), appid: z.string().min(1).max(255) }), response: ok },
  /**
   * The account part of `PATCH /settings`: the name, the email (which only starts a confirmation
   * the user finishes from the new address) and the password (old and new together). Online only:
   * a password must never rest in the outbox, and an email change needs the server at once.
   */
  updateAccount: {
    request: z
      .object({
        full_name: z.string().trim().min(1).max(100).optional(),
        email: z.string().trim().min(3).max(254).optional(),
        old_password: z.string().min(1).max(1024).optional(),
        new_password: z.string().min(1).max(1024).optional(),
      })
      .refine((r) => r.full_name !== undefined || r.email !== undefined || r.new_password !== undefined, 'a name, an email or a new password')
      .refine((r) => (r.old_password === undefined) === (r.new_password === undefined), 'the old and the new password go together'),
    response: ok,
  },
  /**
   * Deactivate a user group (POST /user_groups/{id}/deactivate). Online only: the server refuses
   * (`CANNOT_DEACTIVATE_GROUP_IN_USE`, with `objections`) while a channel, another group or the realm
   * uses the group in a permission or as a subgroup, which the device cannot know for channels and
   * groups it does not hold; the user needs that answer while deciding, not later in the outbox.
   */
  deactivateUserGroup: { request: z.object({ user_group_id: id }), response: ok },
} as const;

export const outboxRowSchema = z.object({
  outbox_id: int,
  kind: z.string(),
  /** What the row changes, e.g. `message:42`, `snippet:tmp-3`, `conversation:channel:5:lunch`. */
  target: z.string(),
  state: z.enum(OUTBOX_ROW_STATES),
  args: z.unknown(),
  attempts: int,
  /** UNIX ms; null when not waiting. */
  next_attempt_at: int.nullable(),
  /** UNIX ms after which it fails (realm edit and move limits). */
  deadline_at: int.nullable(),
  last_error: outboxErrorSchema.nullable(),
  /** For a content conflict: the three texts (the UI offers keep mine / take theirs / edit). */
  conflict: z.object({ base: z.string(), ours: z.string(), theirs: z.string() }).nullable(),
  created_at: int,
  updated_at: int,
});
export type OutboxRowView = z.output<typeof outboxRowSchema>;

export const outboxCountsSchema = z.object({ pending: int.nonnegative(), failed: int.nonnegative(), conflict: int.nonnegative() });
export type OutboxCounts = z.output<typeof outboxCountsSchema>;

export const outboxQueries = {
  /** Rows not yet finished, oldest first; `include_finished` adds done and discarded ones kept for review. */
  outbox: { request: z.object({ include_finished: z.boolean().default(false) }), response: z.array(outboxRowSchema) },
  outboxCounts: { request: z.object({}), response: outboxCountsSchema },
  /**
   * The raw Markdown to start an edit from: a pending edit's text (what the user sees), else the
   * device's copy (the user's own editable messages are kept), else the server's. Offline with no
   * copy: `OFFLINE` with the reason in words.
   */
  messageRawContent: { request: z.object({ message_id: id }), response: z.object({ raw_content: z.string(), source: z.enum(['pending', 'cache', 'server', 'outbox']) }) },
} as const;

/** Everything above, for the contract's operation table. */
export const outboxOperations = { ...outboxQueries, ...outboxCommands } as const;
