/**
 * The outbox in the engine ↔ UI contract: what a queued command answers (at once, with the outbox
 * row that carries it, online or not; the commands themselves are declared with their kinds, see
 * `outboxCommands`); the outbox view and its badge counts; the user's actions on a row; and the
 * online-only operations, which fail at once with `OFFLINE` when the
 * server cannot be reached and never half-apply.
 *
 * Ids are the ones the UI holds: a message being sent has its local echo's id, a snippet created
 * offline its negative local id; the engine maps them to what the outbox needs.
 */
import * as z from 'zod';

const int = z.number().int();
const id = int.positive();
const ok = z.object({ ok: z.literal(true) });

/** A row's states: the outbox's state machine (sync/outbox/states.ts) uses this very list. */
export const OUTBOX_ROW_STATES = ['queued', 'sending', 'retry_wait', 'done', 'failed', 'conflict', 'unknown', 'verifying', 'discarded'] as const;
export type OutboxRowState = (typeof OUTBOX_ROW_STATES)[number];

/**
 * Why a row failed or conflicts, in the API error union's shape: `kind` (network, timeout, server,
 * rate_limited, unauthorized, api, malformed, conflict, deadline_expired, bad_args, unknown_kind,
 * internal), the server's `code` when it gave one, `message` a sentence for a person (the server's
 * own words where it gave some), and `details` the typed extra fields (e.g. a move's time limit).
 */
export const outboxErrorSchema = z.lazy(() => z.object({
  kind: z.string(),
  code: z.string().nullable(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).nullable(),
}));
export type OutboxError = z.output<typeof outboxErrorSchema>;

/** What every queued command answers: the row (`merged` into an earlier queued one, or `cancelled` with it). */
export const enqueuedSchema = z.object({ outbox_id: int, outcome: z.enum(['added', 'merged', 'cancelled']) });
export type Enqueued = z.output<typeof enqueuedSchema>;

/**
 * What a queued command may answer, for a side that holds no command's own schema (the renderer
 * parses with this; the service has already checked the command's exact response): a row, or the
 * rows of a command that queues several, each possibly with the id the UI now holds.
 */
export const queuedAnswerSchema = z.lazy(() => z.union([enqueuedSchema.extend({}).catchall(int), z.object({ outbox_ids: z.array(int) })]));

/**
 * Where a row's change is, for a link from the outbox panel: a message, a channel (and topic), a
 * user group, the settings tabs of the named settings, the channel list, the scheduled messages.
 */
export const outboxLinkSchema = z.lazy(() => z.discriminatedUnion('to', [
  z.object({ to: z.literal('message'), message_id: int }),
  z.object({ to: z.literal('channel'), channel_id: int, name: z.string(), topic: z.string().optional() }),
  z.object({ to: z.literal('group'), group_id: int, name: z.string().optional() }),
  z.object({ to: z.literal('settings'), settings: z.array(z.string()) }),
  z.object({ to: z.literal('channels') }),
  z.object({ to: z.literal('scheduled') }),
]));
export type OutboxLink = z.output<typeof outboxLinkSchema>;

/**
 * A row in words, as its kind describes it (sync/outbox/mutations/): `text` ("Star 2 messages",
 * "Send a message to #Verona › lunch"), and where that is. Settings are the one thing only the UI
 * can put in words (its settings table): a `settings` link names them and the UI adds their labels.
 */
export const outboxDescriptionSchema = z.object({ text: z.string(), link: outboxLinkSchema.nullable() });
export type OutboxDescription = z.output<typeof outboxDescriptionSchema>;

/**
 * The contract's outbox operations. The queued commands (one per kind of offline change, intent
 * level: edit this message, move these, follow this topic) are not here: each is declared with
 * its kind in sync/outbox/mutations/ and listed in sync/outbox/registry.ts, which derives their
 * table (`QueuedCommands`); the service serves them and the renderer types its calls from it.
 */
export const outboxCommands = {
  // The user's actions on a row.
  outboxRetry: { request: z.object({ outbox_id: int }), response: ok },
  /** The change is dropped and the server's state shown again. */
  outboxDiscard: { request: z.object({ outbox_id: int }), response: ok },
  /** New arguments for a queued or failed row (the kind's own shape, as `outbox` lists it). */
  outboxEdit: { request: z.lazy(() => z.object({ outbox_id: int, args: z.record(z.string(), z.unknown()) })), response: ok },
  /** `take_theirs` answers the user's text in `draft`, to keep as a draft. */
  outboxResolveConflict: {
    request: z.lazy(() => z.object({
      outbox_id: int,
      choice: z.discriminatedUnion('choice', [z.object({ choice: z.literal('keep_mine') }), z.object({ choice: z.literal('take_theirs') }), z.object({ choice: z.literal('edited'), text: z.string() })]),
    })),
    response: z.lazy(() => z.object({ ok: z.literal(true), draft: z.string().nullable() })),
  },

  // Online only: `OFFLINE` at once when the server is not reachable; nothing is queued.
  /** Delete a topic (administrators), repeating until the server says it is complete. */
  deleteTopic: { request: z.object({ channel_id: id, topic: z.string() }), response: ok },
  sendInvites: {
    request: z.lazy(() => z.object({
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
    })),
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
    response: z.lazy(() => z.object({
      channels: z.array(z.object({ channel_id: id, name: z.string(), is_default: z.boolean() })),
      groups: z.array(z.object({ group_id: id, name: z.string(), description: z.string() })),
    })),
  },
  createUser: { request: z.lazy(() => z.object({ email: z.string().min(3), password: z.string().min(1), full_name: z.string().min(1) })), response: z.object({ user_id: int }) },
  /** A test push to one registered device (`device_id`) or to all of them. */
  sendTestNotification: { request: z.object({ device_id: id.optional() }), response: ok },
  /** Register an APNs device token (deprecated by the server from FL 406, still accepted). */
  registerApnsToken: { request: z.lazy(() => z.object({ token: z.string().min(1).max(4096), appid: z.string().min(1).max(255) })), response: ok },
  /**
   * The account part of `PATCH /settings`: the name, the email (which only starts a confirmation
   * the user finishes from the new address) and the password (old and new together). Online only:
   * a password must never rest in the outbox, and an email change needs the server at once.
   */
  updateAccount: {
    request: z.lazy(() => z
      .object({
        full_name: z.string().trim().min(1).max(100).optional(),
        email: z.string().trim().min(3).max(254).optional(),
        old_password: z.string().min(1).max(1024).optional(),
        new_password: z.string().min(1).max(1024).optional(),
      })
      .refine((r) => r.full_name !== undefined || r.email !== undefined || r.new_password !== undefined, 'a name, an email or a new password')
      .refine((r) => (r.old_password === undefined) === (r.new_password === undefined), 'the old and the new password go together')),
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

/**
 * A row's `kind` stays a plain string here, and `args` unknown: a database written by a newer app
 * may hold a kind this one does not know, and the user must still see (and discard) it. The typed
 * union of rows by kind is `OutboxRowOf` in sync/outbox/registry.ts, derived from the kinds' list:
 * the engine reads each row's args with its kind's schema (null when it cannot), and the renderer
 * types the `outbox` query's rows with it.
 */
export const outboxRowSchema = z.lazy(() => z.object({
  outbox_id: int,
  kind: z.string(),
  /** What the row changes, e.g. `message:42`, `snippet:tmp-3`, `conversation:channel:5:lunch`. */
  target: z.string(),
  state: z.enum(OUTBOX_ROW_STATES),
  /** As the row's kind reads them; null for a kind or version this app does not know, or args that no longer parse. */
  args: z.unknown(),
  attempts: int,
  /** UNIX ms; null when not waiting. */
  next_attempt_at: int.nullable(),
  /** UNIX ms after which it fails (realm edit and move limits). */
  deadline_at: int.nullable(),
  last_error: outboxErrorSchema.nullable(),
  /**
   * For a content conflict: the three texts (the UI offers keep mine / take theirs / edit), and
   * `merged`, the engine's three-way merge with both versions between marker lines where they
   * collide: the text "Edit a merge" starts from.
   */
  conflict: z.object({ base: z.string(), ours: z.string(), theirs: z.string(), merged: z.string() }).nullable(),
  created_at: int,
  updated_at: int,
  /** What it changes, in words (unknown kinds and unreadable args say so). */
  description: outboxDescriptionSchema,
}));
export type OutboxRowView = z.output<typeof outboxRowSchema>;

export const outboxCountsSchema = z.lazy(() => z.object({ pending: int.nonnegative(), failed: int.nonnegative(), conflict: int.nonnegative() }));
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
