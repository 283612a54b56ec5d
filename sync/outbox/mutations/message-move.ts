/**
 * `message_move` v1: a topic edit, a move to another channel, or resolve / unresolve (a topic
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
import { z } from 'zod';
import type { ApiConnection } from '../../api/core.js';
import { getMessage, updateMessage } from '../../api/routes/messages.js';
import type { LocalDb } from '../../db/open.js';
import { channelName } from '../../db/queries/channels.js';
import { updateStoredMessage } from '../../db/queries/messages.js';
import { idsInTopic, serverIdsInTopic, topicOfMessage } from '../../db/queries/message-rows.js';
import type { ChangeCollector } from '../../db/changes.js';
import type { OutboxKind, VerifyOutcome } from '../kinds.js';
import { storedTopic, type ServerLimits } from '../normalize.js';

const int = z.number().int().positive();

export const moveArgs = z
  .object({
    message_id: int,
    topic: z.string().optional(),
    stream_id: int.optional(),
    propagate_mode: z.enum(['change_one', 'change_later', 'change_all']),
    send_notification_to_old_thread: z.boolean(),
    send_notification_to_new_thread: z.boolean(),
  })
  .refine((a) => a.topic !== undefined || a.stream_id !== undefined, 'a move changes the topic, the channel or both');
export type MoveArgs = z.infer<typeof moveArgs>;

export const MOVE_KIND = 'message_move';
export const RESOLVED_PREFIX = '✔ ';

export const moveLimitDetails = z.object({
  first_message_id_allowed_to_move: z.number().int().nullable(),
  total_messages_in_topic: z.number().int().optional(),
  total_messages_allowed_to_move: z.number().int().optional(),
});
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

export const messageMove: OutboxKind<MoveArgs, null> = {
  kind: MOVE_KIND,
  version: 1,
  argsSchema: moveArgs,
  baseSchema: z.null(),
  // Shared with content edits of the message, so the user's order between them is kept.
  entityKey: (a) => `message:${a.message_id}`,
  // Moves with propagation reach other messages' entities: they go one at a time, in order.
  serialGroup: 'topic-moves',
  send: (conn, a) => send(conn, a),
  verify: (conn, a, _b, ctx) => verify(conn, a, ctx.limits()),
  local: { apply: (db, a, _b, c) => void applyOptimistic(db, a, c), messageIds: (a) => [a.message_id], undoMessageIds: movedAlong },
};

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
