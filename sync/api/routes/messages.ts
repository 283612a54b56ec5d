/**
 * Messages: spec "PATCH /messages/{message_id}", "GET /messages/{message_id}", "GET /messages",
 * "POST /messages/{message_id}/typing", "POST /streams/{stream_id}/delete_topic",
 * "POST /mark_topic_as_read", and the referenced send / flags / typing / history operations.
 */
import { createHash } from 'node:crypto';
import * as z from 'zod';
import type { ApiConnection, RequestOptions } from '../core.js';
import { endpoint, operation, responseTable, send } from '../operation.js';
import { emptySuccess, int, openIntEnum, success, type EmptySuccess } from '../schemas/envelope.js';
import { detachedUpload, message } from '../schemas/message.js';
import { encodeNarrow, type NarrowTerm, type WireNarrowTerm } from '../schemas/narrow.js';
import { UnsupportedFeatureError } from '../errors.js';

/** The spec's hard maximum of messages per `GET /messages` (num_before + num_after). */
export const MAX_MESSAGES_PER_FETCH = 5000;

// ---- response schemas -----------------------------------------------------------------------

/** `detached_uploads` is FL 285; older servers send nothing, which means none. */
export const updateMessageResponse = z.lazy(() => success({ detached_uploads: z.array(detachedUpload).default([]) }));

export const getMessageResponse = z.lazy(() => success({ message, raw_content: z.string().optional() }));

/**
 * `anchor` is absent when `message_ids` was given. The OpenAPI example omits `found_oldest` and
 * `history_limited` (only `messages` is required there), so the flags default to `false`: "not
 * known to be complete" only costs one more fetch, never a gap.
 */
export const getMessagesResponse = z.lazy(() => success({
  // Real Zulip answers `anchor=newest` with its sentinel 10000000000000000, above 2^53: a plain
  // number, not a safe integer.
  anchor: z.number().optional(),
  found_newest: z.boolean().default(false),
  found_oldest: z.boolean().default(false),
  found_anchor: z.boolean().default(false),
  history_limited: z.boolean().default(false),
  messages: z.array(message),
}));

/** `automatic_new_visibility_policy` (FL 218): 2 unmuted or 3 followed; anything else degrades. */
export const sendMessageResponse = z.lazy(() => success({
  id: int,
  automatic_new_visibility_policy: openIntEnum([2, 3]).optional(),
}));

/** `ignored_because_not_subscribed_channels` (FL 355): only for removing `read`. */
export const updateMessageFlagsResponse = z.lazy(() => success({
  messages: z.array(int),
  ignored_because_not_subscribed_channels: z.array(int).optional(),
}));

export const updateMessageFlagsForNarrowResponse = z.lazy(() => success({
  processed_count: int,
  updated_count: int,
  first_processed_id: int.nullable(),
  last_processed_id: int.nullable(),
  found_oldest: z.boolean(),
  found_newest: z.boolean(),
  ignored_because_not_subscribed_channels: z.array(int).optional(),
}));

/**
 * One edit-history snapshot: the message's state right after that edit (the first is the
 * original). `prev_*` and `content_html_diff` appear only for what that edit changed.
 */
export const messageSnapshot = z.lazy(() => z.object({
  user_id: int.nullable(),
  timestamp: int,
  topic: z.string(),
  content: z.string(),
  rendered_content: z.string(),
  prev_topic: z.string().optional(),
  stream: int.optional(),
  prev_stream: int.optional(),
  prev_content: z.string().optional(),
  prev_rendered_content: z.string().optional(),
  content_html_diff: z.string().optional(),
}));
export type MessageSnapshot = z.output<typeof messageSnapshot>;

export const getMessageHistoryResponse = z.lazy(() => success({ message_history: z.array(messageSnapshot) }));

/**
 * `complete: false` means "repeat the request". Since FL 211 that is a success body; before it the
 * server answered `result: "partially_completed"` (with a `code`), read here as `complete: false`.
 * Before FL 211 a plain success had no `complete` field and meant everything was deleted.
 */
export const deleteTopicResponse = z.lazy(() => z.union([
  success({ complete: z.boolean().default(true) }),
  z
    .object({ result: z.literal('partially_completed'), msg: z.string().default(''), code: z.string().optional() })
    .transform((b) => ({ result: b.result, msg: b.msg, code: b.code, complete: false as const })),
]));
export type DeleteTopicResult = z.output<typeof deleteTopicResponse>;

// ---- shared helpers -------------------------------------------------------------------------

/** A message id, or a position the server computes. Sent as a raw string. */
export type MessageAnchor = number | 'newest' | 'oldest' | 'first_unread';
export type FlagOp = 'add' | 'remove';
/** The flags a user can set; the others (mentioned, has_alert_word, ...) follow the content. */
export type MessageFlagName = 'read' | 'starred' | 'collapsed' | (string & {});
export type TypingOp = 'start' | 'stop';
export type PropagateMode = 'change_one' | 'change_later' | 'change_all';

/** SHA-256 hex of raw Markdown, as `prev_content_sha256` wants it (events carry no hash). */
export function contentSha256(rawContent: string): string {
  return createHash('sha256').update(rawContent, 'utf8').digest('hex');
}

/** FL 334: ask for `""` topics rather than the display name, unless the caller says otherwise. */
/** `allow_empty_topic_name` as sent: the caller's choice, else true from FL 334 (where "" is a topic), else absent. */
export function allowEmptyTopicName(conn: ApiConnection, override: boolean | undefined): boolean | undefined {
  return override ?? (conn.supports(334) ? true : undefined);
}

/**
 * The `request` of a read of one object whose answer names topics: the caller's `arg` fills the
 * path's `{param}`, and `allow_empty_topic_name` goes as allowEmptyTopicName says.
 */
export function idWithTopics<const K extends string>(param: string, arg: K) {
  return (args: { readonly [k in K]: number } & { allow_empty_topic_name?: boolean }, conn: ApiConnection) => ({
    path: { [param]: args[arg] },
    params: { allow_empty_topic_name: allowEmptyTopicName(conn, args.allow_empty_topic_name) },
  });
}

function anchorForWire(anchor: MessageAnchor): string {
  if (typeof anchor === 'number' && (!Number.isInteger(anchor) || anchor < 0)) {
    throw new RangeError(`anchor must be a message id (a non-negative integer), got ${anchor}`);
  }
  return String(anchor);
}

function checkCount(name: string, n: number): void {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`${name} must be a non-negative integer, got ${n}`);
}

/** The narrow as sent: topic operands get the same empty-topic handling as every other topic. */
function narrowForWire(conn: ApiConnection, terms: readonly NarrowTerm[]): WireNarrowTerm[] {
  return encodeNarrow(
    terms.map((t) => (t.operator === 'topic' ? { ...t, operand: conn.topicForWire(t.operand) } : t)),
  );
}

// ---- operations -----------------------------------------------------------------------------

interface UpdateMessageCommon {
  /** Path parameter. */
  messageId: number;
  /** The display name of the empty topic is sent as `""`. Resolve a topic with `✔ {topic}` + change_all. */
  topic?: string;
  propagate_mode?: PropagateMode;
  /** Server default false. */
  send_notification_to_old_thread?: boolean;
  /** Server default true. */
  send_notification_to_new_thread?: boolean;
}

/** Content and channel cannot change in one request (spec rule 1), so they are separate shapes. */
export type UpdateMessageArgs = UpdateMessageCommon &
  (
    | {
        content: string;
        /** `contentSha256` of the raw content this edit started from; sent only from FL 379. */
        prev_content_sha256?: string;
        stream_id?: never;
      }
    | { stream_id?: number; content?: never; prev_content_sha256?: never }
  );

/** Spec "PATCH /messages/{message_id}": edit content, or move to another topic and/or channel. */
export const updateMessage = operation({
  method: 'PATCH',
  path: '/messages/{message_id}',
  schema: updateMessageResponse,
  request: ({ messageId, topic, prev_content_sha256, ...rest }: UpdateMessageArgs, conn: ApiConnection) => ({
    path: { message_id: messageId },
    params: {
      ...rest,
      topic: topic === undefined ? undefined : conn.topicForWire(topic),
      prev_content_sha256: conn.supports(379) ? prev_content_sha256 : undefined,
    },
  }),
});

/** Spec "GET /messages/{message_id}": one message (and the deprecated `raw_content`). */
export const getMessage = operation({
  method: 'GET',
  path: '/messages/{message_id}',
  schema: getMessageResponse,
  request: (args: { messageId: number; apply_markdown?: boolean; allow_empty_topic_name?: boolean }, conn: ApiConnection) => ({
    path: { message_id: args.messageId },
    params: {
      apply_markdown: args.apply_markdown,
      allow_empty_topic_name: allowEmptyTopicName(conn, args.allow_empty_topic_name),
    },
  }),
});

interface GetMessagesCommon {
  narrow?: readonly NarrowTerm[];
  client_gravatar?: boolean;
  apply_markdown?: boolean;
  /** Defaults to true from FL 334. */
  allow_empty_topic_name?: boolean;
}

/** Either a range around an anchor, or explicit ids (FL 300); the server rejects a mix. */
export type GetMessagesArgs = GetMessagesCommon &
  (
    | {
        anchor: MessageAnchor;
        include_anchor?: boolean;
        num_before: number;
        num_after: number;
        message_ids?: never;
      }
    | {
        message_ids: readonly number[];
        anchor?: never;
        include_anchor?: never;
        num_before?: never;
        num_after?: never;
      }
  );

const getMessagesEndpoint = endpoint({ method: 'GET', path: '/messages', schema: getMessagesResponse });

/**
 * Spec "GET /messages": messages matching a narrow. Rejects without a request when
 * num_before + num_after exceeds the hard maximum of 5000, or `message_ids` on a server before FL 300.
 */
export async function getMessages(conn: ApiConnection, args: GetMessagesArgs, opts: RequestOptions = {}) {
  const { narrow, allow_empty_topic_name, ...rest } = args;
  const params = {
    ...rest,
    narrow: narrow === undefined ? undefined : narrowForWire(conn, narrow),
    allow_empty_topic_name: allowEmptyTopicName(conn, allow_empty_topic_name),
  };
  if (args.message_ids !== undefined) {
    if (!conn.supports(300)) {
      throw new UnsupportedFeatureError('GET /messages with message_ids', 300, conn.effectiveFeatureLevel);
    }
    return send(conn, getMessagesEndpoint, { params }, opts);
  }
  checkCount('num_before', args.num_before);
  checkCount('num_after', args.num_after);
  if (args.num_before + args.num_after > MAX_MESSAGES_PER_FETCH) {
    throw new RangeError(
      `num_before + num_after = ${args.num_before + args.num_after} exceeds the maximum of ${MAX_MESSAGES_PER_FETCH} per request`,
    );
  }
  return send(conn, getMessagesEndpoint, { params: { ...params, anchor: anchorForWire(args.anchor) } }, opts);
}

/** Local echo: the server hands `local_id` back as `local_message_id` on `queue_id`'s message event. */
export type LocalEcho = { queue_id: string; local_id: string } | { queue_id?: never; local_id?: never };

export type SendMessageArgs = (
  | {
      type: 'channel';
      /** A channel id (sent as a JSON int), or its name (sent raw; prefer ids: a name that
       * parses as JSON, such as `123`, would be read as an id by the server). */
      to: number | string;
      /** The empty-topic display name is sent as `""`. */
      topic: string;
    }
  | { type: 'direct'; to: readonly number[] | readonly string[] }
) &
  LocalEcho & {
    content: string;
    /** FL 236. */
    read_by_sender?: boolean;
  };

/** POST /messages (referenced operation): send a channel or direct message. */
export const sendMessage = operation({
  method: 'POST',
  path: '/messages',
  schema: sendMessageResponse,
  request: (args: SendMessageArgs, conn: ApiConnection) => {
    let type: string;
    let topic: string | undefined;
    if (args.type === 'channel') {
      type = conn.supports(248) ? 'channel' : 'stream';
      topic = conn.topicForWire(args.topic);
    } else {
      type = conn.supports(174) ? 'direct' : 'private';
      topic = undefined;
    }
    return { params: { ...args, type, topic } };
  },
});

/** POST /messages/flags (referenced operation): add or remove a flag on these messages. */
export const updateMessageFlags = operation({
  method: 'POST',
  path: '/messages/flags',
  schema: updateMessageFlagsResponse,
  request: (args: { messages: readonly number[]; op: FlagOp; flag: MessageFlagName }) => ({
    params: { messages: args.messages, op: args.op, flag: args.flag },
  }),
});

export interface UpdateMessageFlagsForNarrowArgs {
  anchor: MessageAnchor;
  include_anchor?: boolean;
  /** The server may lower these to bound its transactions; loop on `found_oldest`/`found_newest`. */
  num_before: number;
  num_after: number;
  narrow: readonly NarrowTerm[];
  op: FlagOp;
  flag: MessageFlagName;
}

const flagsForNarrow = endpoint({ method: 'POST', path: '/messages/flags/narrow', schema: updateMessageFlagsForNarrowResponse });

/** POST /messages/flags/narrow (referenced operation, FL 155): a flag over a range in a narrow. */
export function updateMessageFlagsForNarrow(
  conn: ApiConnection,
  args: UpdateMessageFlagsForNarrowArgs,
  opts: RequestOptions = {},
): Promise<z.output<typeof updateMessageFlagsForNarrowResponse>> {
  // A declared signature: callers loop on its result (`anchor = res.last_processed_id`), which an
  // inferred binding type would make circular.
  const params = { ...args, anchor: anchorForWire(args.anchor), narrow: narrowForWire(conn, args.narrow) };
  return send(conn, flagsForNarrow, { params }, opts);
}

export type ReactionType = 'unicode_emoji' | 'realm_emoji' | 'zulip_extra_emoji';
export interface ReactionArgs {
  messageId: number;
  emoji_name: string;
  /** With `reaction_type`, names the emoji exactly (the name alone is resolved by the server). */
  emoji_code?: string;
  reaction_type?: ReactionType;
}

const reaction = (args: ReactionArgs) => ({
  path: { message_id: args.messageId },
  params: { emoji_name: args.emoji_name, emoji_code: args.emoji_code, reaction_type: args.reaction_type },
});

/** POST /messages/{message_id}/reactions: add the user's emoji reaction (REACTION_ALREADY_EXISTS if there). */
export const addReaction = operation({ method: 'POST', path: '/messages/{message_id}/reactions', schema: emptySuccess, request: reaction });

/** DELETE /messages/{message_id}/reactions: remove it (REACTION_DOES_NOT_EXIST if not there). */
export const removeReaction = operation({ method: 'DELETE', path: '/messages/{message_id}/reactions', schema: emptySuccess, request: reaction });

/** Spec "POST /mark_topic_as_read" (deprecated; prefer updateMessageFlagsForNarrow). */
export const markTopicAsRead = operation({
  method: 'POST',
  path: '/mark_topic_as_read',
  schema: emptySuccess,
  request: (args: { stream_id: number; topic_name: string }, conn: ApiConnection) => ({
    params: { stream_id: args.stream_id, topic_name: conn.topicForWire(args.topic_name) },
  }),
});

/** GET /messages/{message_id}/history (referenced operation): edit snapshots, oldest first. */
export const getMessageHistory = operation({
  method: 'GET',
  path: '/messages/{message_id}/history',
  schema: getMessageHistoryResponse,
  request: idWithTopics('message_id', 'messageId'),
});

/**
 * GET /messages/{message_id}/read_receipts (get-read-receipts, FL 137): who read the message (never
 * its sender, nor users not sending receipts, nor anyone muted either way).
 */
export const getReadReceipts = operation({
  method: 'GET',
  path: '/messages/{message_id}/read_receipts',
  schema: z.lazy(() => success({ user_ids: z.array(z.number().int()) })),
  request: (args: { messageId: number }) => ({ path: { message_id: args.messageId } }),
});

const typing = endpoint({ method: 'POST', path: '/typing', schema: emptySuccess });

export type SetTypingStatusArgs =
  | { op: TypingOp; type: 'direct'; to: readonly number[] }
  | { op: TypingOp; type: 'channel'; stream_id: number; topic: string };

/**
 * POST /typing (referenced operation). Direct typing is `direct` from FL 174 (`private` before);
 * channel typing is `channel` from FL 248 (`stream` before) and needs `stream_id` + `topic`, which
 * FL 215 introduced. Typing is ephemeral, so channel typing on an older server sends nothing and
 * resolves to `undefined` rather than failing.
 */
export async function setTypingStatus(
  conn: ApiConnection,
  args: SetTypingStatusArgs,
  opts: RequestOptions = {},
): Promise<EmptySuccess | undefined> {
  if (args.type === 'direct') {
    return send(conn, typing, { params: { type: conn.supports(174) ? 'direct' : 'private', op: args.op, to: args.to } }, opts);
  }
  if (!conn.supports(215)) return undefined;
  const params = {
    type: conn.supports(248) ? 'channel' : 'stream',
    op: args.op,
    stream_id: args.stream_id,
    topic: conn.topicForWire(args.topic),
  };
  return send(conn, typing, { params }, opts);
}

const editTyping = endpoint({ method: 'POST', path: '/messages/{message_id}/typing', schema: emptySuccess });
/** FL 351-360's spelling of `editTyping`, with the message id in the body. */
const legacyEditTyping = endpoint({ method: 'POST', path: '/message_edit_typing', schema: emptySuccess });

/**
 * Spec "POST /messages/{message_id}/typing": typing status while editing a message. FL 361+ uses
 * this path; FL 351-360 had `POST /message_edit_typing` with `message_id` in the body; older servers
 * have no such notification, and since typing is ephemeral nothing is sent (resolves `undefined`).
 */
export async function setTypingStatusForMessageEdit(
  conn: ApiConnection,
  args: { messageId: number; op: TypingOp },
  opts: RequestOptions = {},
): Promise<EmptySuccess | undefined> {
  if (conn.supports(361)) {
    return send(conn, editTyping, { path: { message_id: args.messageId }, params: { op: args.op } }, opts);
  }
  if (conn.supports(351)) {
    return send(conn, legacyEditTyping, { params: { message_id: args.messageId, op: args.op } }, opts);
  }
  return undefined;
}

/**
 * Spec "POST /streams/{stream_id}/delete_topic" (administrators): deletes in batches, newest first.
 * Repeat while the result has `complete: false`.
 */
export const deleteTopic = operation({
  method: 'POST',
  path: '/streams/{stream_id}/delete_topic',
  schema: deleteTopicResponse,
  request: (args: { streamId: number; topic_name: string }, conn: ApiConnection) => ({
    path: { stream_id: args.streamId },
    params: { topic_name: conn.topicForWire(args.topic_name) },
  }),
});

/** DELETE /messages/{message_id}: delete a message, as the realm's policy allows ("Invalid message(s)" once gone). */
export const deleteMessage = operation({
  method: 'DELETE',
  path: '/messages/{message_id}',
  schema: emptySuccess,
  request: (args: { messageId: number }) => ({ path: { message_id: args.messageId } }),
});

/**
 * POST /submessage: add a submessage to a message, as Zulip's widgets do (a poll vote, a new
 * option or task, a strike). `content` is the JSON-encoded widget event; the server checks it
 * against the message's widget and sends a `submessage` event. Zulip's OpenAPI does not document
 * this operation (so it is not in the table below); its route is `rest_path("submessage")`.
 */
export const sendSubmessage = operation({
  method: 'POST',
  path: '/submessage',
  schema: emptySuccess,
  request: (args: { message_id: number; msg_type: string; content: string }) => ({ params: args }),
});

/** Response schemas by OpenAPI operation, for the example-conformance test. */
export const messageResponses = responseTable(
  updateMessage,
  getMessage,
  getMessagesEndpoint,
  sendMessage,
  updateMessageFlags,
  flagsForNarrow,
  markTopicAsRead,
  getMessageHistory,
  getReadReceipts,
  typing,
  editTyping,
  addReaction,
  removeReaction,
  deleteMessage,
  deleteTopic,
);
