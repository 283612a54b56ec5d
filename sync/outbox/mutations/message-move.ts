/**
 * `update_message_move` v1: a topic edit, a move to another channel, or resolve / unresolve (a topic
 * edit adding or removing the `✔ ` prefix), with `propagate_mode` and both notification flags
 * exactly as the user chose them.
 *
 * Not coalesced: two queued moves of one message are sent in order. Merging them is not safe:
 * resolve-then-unresolve would become "nothing to change" (an error), and which messages a
 * change_later moves depends on where the first move left the topic.
 *
 * MOVE_MESSAGES_TIME_LIMIT_EXCEEDED fails the row; `partialMoveFrom` turns its details into the
 * partial move the UI offers (change_later from the first message the user may still move).
 */
import * as z from 'zod';
import type { ApiConnection } from '../../api/core.js';
import { getMessage, updateMessage } from '../../api/routes/messages.js';
import type { LocalDb } from '../../db/open.js';
import { channelName } from '../../db/queries/channels.js';
import { updateStoredMessage } from '../../db/queries/messages.js';
import { idsInTopic, serverIdsInTopic, topicOfMessage } from '../../db/queries/message-rows.js';
import type { ChangeCollector } from '../../db/changes.js';
import { OutboxIntentError, type Names, type VerifyOutcome } from '../kinds.js';
import { answer, moveDeadline, notUnsent, queuedCommand } from '../commands.js';
import { withoutBase } from './shared.js';
import { enqueuedSchema } from '../../protocol/outbox.js';
import type { IntentContext } from '../commands.js';
import type { Enqueued } from '../../protocol/outbox.js';
import { getStoredMessage } from '../../db/queries/messages.js';
import { storedTopic, type ServerLimits } from '../normalize.js';

const int = z.number().int().positive();

export const moveArgs = z.lazy(() => z
  .object({
    message_id: int,
    topic: z.string().optional(),
    stream_id: int.optional(),
    propagate_mode: z.enum(['change_one', 'change_later', 'change_all']),
    send_notification_to_old_thread: z.boolean(),
    send_notification_to_new_thread: z.boolean(),
  })
  .refine((a) => a.topic !== undefined || a.stream_id !== undefined, 'a move changes the topic, the channel or both'));
export type MoveArgs = z.infer<typeof moveArgs>;

export const MOVE_KIND = 'update_message_move';
export const RESOLVED_PREFIX = '✔ ';

export const moveLimitDetails = z.lazy(() => z.object({
  first_message_id_allowed_to_move: z.number().int().nullable(),
  total_messages_in_topic: z.number().int().optional(),
  total_messages_allowed_to_move: z.number().int().optional(),
}));
export type MoveLimitDetails = z.infer<typeof moveLimitDetails>;

/** The time-limit details of a failed move row's `last_error`, if that is why it failed. */
export function moveLimitDetailsOf(lastError: unknown): MoveLimitDetails | undefined {
  const holder = z.object({ code: z.literal('MOVE_MESSAGES_TIME_LIMIT_EXCEEDED'), details: z.unknown() }).safeParse(lastError);
  if (!holder.success) return undefined;
  const details = moveLimitDetails.safeParse(holder.data.details);
  return details.success ? details.data : undefined;
}

/** The partial move: the same move, for the messages from the first one still allowed onwards. */
export function partialMoveFrom(details: MoveLimitDetails, args: MoveArgs): MoveArgs | undefined {
  const first = details.first_message_id_allowed_to_move;
  if (first === null) return undefined;
  return { ...args, message_id: first, propagate_mode: 'change_later' };
}

async function send(conn: ApiConnection, a: MoveArgs): Promise<void> {
  await updateMessage(conn, {
    messageId: a.message_id,
    topic: a.topic,
    stream_id: a.stream_id,
    propagate_mode: a.propagate_mode,
    send_notification_to_old_thread: a.send_notification_to_old_thread,
    send_notification_to_new_thread: a.send_notification_to_new_thread,
  });
}

/** Applied when the target message is where the user wanted it (the rest of the topic follows it). */
async function verify(conn: ApiConnection, a: MoveArgs, limits: ServerLimits): Promise<VerifyOutcome> {
  const { message: m } = await getMessage(conn, { messageId: a.message_id, apply_markdown: false, allow_empty_topic_name: true });
  // As stored: trimmed, truncated, the empty topic's names mean "".
  const topicOk = a.topic === undefined || m.subject === storedTopic(a.topic, limits) || m.subject === conn.topicForWire(a.topic);
  const channelOk = a.stream_id === undefined || m.stream_id === a.stream_id;
  return topicOk && channelOk ? 'applied' : 'not_applied';
}

export const messageMove = withoutBase({
  kind: MOVE_KIND,
  version: 1,
  argsSchema: moveArgs,
  describe: (a, names) => ({ text: moveText(a, names), link: { to: 'message', message_id: a.message_id } }),
  // Shared with content edits of the message, so the user's order between them is kept.
  entityKey: (a) => `message:${a.message_id}`,
  // Moves with propagation reach other messages' entities: they go one at a time, in order.
  serialGroup: 'topic-moves',
  send: (conn, a) => send(conn, a),
  verify: (conn, a, _b, ctx) => verify(conn, a, ctx.limits()),
  local: { apply: (db, a, _b, c) => void applyOptimistic(db, a, c), messageIds: (a) => [a.message_id], undoMessageIds: movedAlong },
});

/**
 * A move in words, by what it takes along: a whole topic renamed in its channel ("Rename the topic
 * to …", resolving being a rename to "✔ …"), a whole topic moved, this and the later messages, or
 * one message; and where to.
 */
export function moveText(a: MoveArgs, names: Names): string {
  const topic = a.topic === undefined ? undefined : a.topic === '' ? 'general chat' : a.topic;
  if (a.propagate_mode === 'change_all' && a.stream_id === undefined && topic !== undefined) {
    return topic.startsWith(RESOLVED_PREFIX) ? `Resolve the topic “${topic.slice(RESOLVED_PREFIX.length)}”` : `Rename the topic to “${topic}”`;
  }
  const channel = a.stream_id === undefined ? undefined : `#${names.channel(a.stream_id) ?? `channel ${a.stream_id}`}`;
  const where = channel === undefined ? `the topic “${topic ?? ''}”` : topic === undefined ? channel : `${channel} › ${topic}`;
  const what = { change_all: 'the topic', change_later: 'this and later messages', change_one: 'a message' }[a.propagate_mode];
  return `Move ${what} to ${where}`;
}

/**
 * Move the cached copies at once: the target, and with change_later / change_all the cached
 * messages of its topic (later ones only for change_later), as the server will. Topics compare by
 * their key (`messages.topic_key`), as the server's do. Returns the ids moved.
 */
export function applyOptimistic(db: LocalDb, a: MoveArgs, changes: ChangeCollector): number[] {
  const target = topicOfMessage(db, a.message_id);
  if (!target || target.channel_id === null) return [];
  let ids = [a.message_id];
  if (a.propagate_mode !== 'change_one') {
    const siblings = idsInTopic(db, target.channel_id, target.topic_key);
    ids = siblings.filter((id) => a.propagate_mode === 'change_all' || id >= a.message_id);
  }
  const newName = a.stream_id === undefined ? undefined : channelName(db, a.stream_id);
  const moved: number[] = [];
  for (const id of ids) {
    const ok = updateStoredMessage(
      db,
      id,
      (m) => ({
        ...m,
        ...(a.topic !== undefined ? { subject: a.topic } : {}),
        ...(a.stream_id !== undefined ? { stream_id: a.stream_id, display_recipient: newName ?? m.display_recipient } : {}),
      }),
      changes,
    );
    if (ok) moved.push(id);
  }
  return moved;
}

/** On undo: the optimistic move took the cached rest of the topic along; re-read where it put them. */
function movedAlong(db: LocalDb, a: MoveArgs): number[] {
  const at = topicOfMessage(db, a.message_id);
  if (!at || at.channel_id === null) return [];
  return serverIdsInTopic(db, at.channel_id, at.topic_key);
}

const moveRequest = z.lazy(() => z
  .object({
    message_id: z.number().int().positive(),
    topic: z.string().optional(),
    channel_id: z.number().int().positive().optional(),
    propagate_mode: z.enum(['change_one', 'change_later', 'change_all']).default('change_one'),
    send_notification_to_old_thread: z.boolean().default(false),
    send_notification_to_new_thread: z.boolean().default(true),
  })
  .refine((r) => r.topic !== undefined || r.channel_id !== undefined, 'a move changes the topic, the channel or both'));

function enqueueMove(ctx: IntentContext, r: z.output<typeof moveRequest>): Enqueued {
  notUnsent(r.message_id);
  const args = {
    message_id: r.message_id,
    ...(r.topic !== undefined ? { topic: r.topic } : {}),
    ...(r.channel_id !== undefined ? { stream_id: r.channel_id } : {}),
    propagate_mode: r.propagate_mode,
    send_notification_to_old_thread: r.send_notification_to_old_thread,
    send_notification_to_new_thread: r.send_notification_to_new_thread,
  };
  return answer(ctx.outbox.enqueue(messageMove, args, null, { deadlineAt: moveDeadline(ctx.db, r.message_id, r.channel_id !== undefined, r.propagate_mode) }));
}

/**
 * The contract's commands: a move (topic, channel or both), and resolving a topic, which is a move
 * of the whole topic to its name with (or without) the `✔ ` prefix.
 */
export const messageMoveCommands = {
  updateMessageMove: queuedCommand({
    request: moveRequest,
    response: enqueuedSchema,
    intent: (r, ctx) => enqueueMove(ctx, r),
  }),
  /** Resolve (`✔ ` prefix) or unresolve the topic of `message_id`, for the whole topic. */
  resolveTopic: queuedCommand({
    request: z.lazy(() => z.object({ message_id: z.number().int().positive(), resolved: z.boolean() })),
    response: enqueuedSchema,
    intent(r, ctx) {
      notUnsent(r.message_id);
      const m = getStoredMessage(ctx.db, r.message_id);
      if (!m || m.type !== 'stream') throw new OutboxIntentError('resolveTopic needs a cached channel message');
      const bare = m.subject.startsWith(RESOLVED_PREFIX) ? m.subject.slice(RESOLVED_PREFIX.length) : m.subject;
      const topic = r.resolved ? RESOLVED_PREFIX + bare : bare;
      if (topic === m.subject) throw new OutboxIntentError(r.resolved ? 'the topic is already resolved' : 'the topic is not resolved');
      return enqueueMove(ctx, { message_id: r.message_id, topic, propagate_mode: 'change_all', send_notification_to_old_thread: false, send_notification_to_new_thread: true });
    },
  }),
};
