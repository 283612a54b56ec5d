/**
 * `update_scheduled_message`: change a scheduled message's content, topic, recipient or delivery
 * time (the arguments of `PATCH /scheduled_messages/{id}`). Queued edits of one scheduled message
 * merge field by field, the last value winning; a recipient change (`type` + `to`) moves as a unit.
 */
import * as z from 'zod';
import { updateScheduledMessage, type UpdateScheduledMessageArgs } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { getScheduledMessages as localScheduled, putScheduledMessage } from '../../db/queries/personal.js';
import type { ChangeCollector } from '../../db/changes.js';
import { answer, dmRecipients, queuedCommand, tempRef } from '../commands.js';
import { objectKind, SCHEDULED_MESSAGE, serverScheduledId } from './shared.js';
import { enqueuedSchema } from '../../protocol/outbox.js';
import { SCHEDULED_CREATE_KIND, sameIds, scheduledCreateArgs, type ScheduledCreateArgs } from './scheduled-message-create.js';
import { scheduledId } from './scheduled-message-delete.js';
import { localSnippetId as localObjectId } from './snippet-local.js';
import { plainTextHtml } from './message-content-edit.js';

const recipient = z.lazy(() => z.union([
  z.object({ type: z.literal('channel'), to: z.number().int(), topic: z.string() }),
  z.object({ type: z.literal('direct'), to: z.array(z.number().int()).min(1) }),
]));

export const scheduledEditArgs = z.lazy(() => z.object({
  /** A server id, or `tmp-N` while its offline create is queued (widened in place: old rows still parse). */
  scheduled_message_id: scheduledId,
  content: z.string().min(1).optional(),
  topic: z.string().optional(),
  scheduled_delivery_timestamp: z.number().int().optional(),
  /** A new recipient: the channel (with topic) or the direct-message users. */
  recipient: recipient.optional(),
}));
export type ScheduledEditArgs = z.output<typeof scheduledEditArgs>;

function wireArgs(a: ScheduledEditArgs): UpdateScheduledMessageArgs {
  const common = { scheduledMessageId: serverScheduledId(a.scheduled_message_id, 'update_scheduled_message'), content: a.content, scheduled_delivery_timestamp: a.scheduled_delivery_timestamp };
  const r = a.recipient;
  if (r?.type === 'channel') return { ...common, type: 'channel', to: r.to, topic: r.topic };
  if (r?.type === 'direct') return { ...common, type: 'direct', to: r.to };
  return { ...common, topic: a.topic };
}

export const scheduledMessageEdit = objectKind(SCHEDULED_MESSAGE, {
  kind: 'update_scheduled_message',
  version: 1,
  argsSchema: scheduledEditArgs,
  describe: () => ({ text: 'Change a scheduled message', link: { to: 'scheduled' } }),
  // A refused create or edit (a time that passed offline) goes again with this change in it.
  foldsIntoFailed: true,
  send: (conn, a) => updateScheduledMessage(conn, wireArgs(a)),
  // Gone (sent or deleted meanwhile): not applied.
  shows(m, a, conn) {
    const topic = a.recipient?.type === 'channel' ? a.recipient.topic : a.topic;
    return (
      (a.content === undefined || m.content === a.content) &&
      (topic === undefined || m.topic === conn.topicForWire(topic) || m.topic === topic) &&
      (a.scheduled_delivery_timestamp === undefined || m.scheduled_delivery_timestamp === a.scheduled_delivery_timestamp) &&
      (a.recipient === undefined || (typeof a.recipient.to === 'number' ? m.to === a.recipient.to : Array.isArray(m.to) && sameIds(m.to, a.recipient.to)))
    );
  },
  coalesce(prev, next) {
    const n = next.args;
    if (prev.kind === SCHEDULED_CREATE_KIND) {
      // Still queued: the create goes out finished.
      const c = scheduledCreateArgs.safeParse(prev.args);
      if (!c.success) return { action: 'append' };
      const recipient = n.recipient ?? (n.topic !== undefined && c.data.recipient.type === 'channel' ? { ...c.data.recipient, topic: n.topic } : c.data.recipient);
      const merged: ScheduledCreateArgs = { ...c.data, recipient, content: n.content ?? c.data.content, scheduled_delivery_timestamp: n.scheduled_delivery_timestamp ?? c.data.scheduled_delivery_timestamp };
      // Asked to be sent now, then given a new time: the newer wish wins, it is scheduled again.
      if (n.scheduled_delivery_timestamp !== undefined) delete merged.send_now_at;
      return { action: 'merge', args: merged, base: prev.base };
    }
    const p = prev.kind === 'update_scheduled_message' ? scheduledEditArgs.safeParse(prev.args) : undefined;
    if (!p?.success) return { action: 'append' };
    const merged: ScheduledEditArgs = {
      scheduled_message_id: p.data.scheduled_message_id,
      content: n.content ?? p.data.content,
      topic: n.recipient ? undefined : (n.topic ?? p.data.topic),
      scheduled_delivery_timestamp: n.scheduled_delivery_timestamp ?? p.data.scheduled_delivery_timestamp,
      recipient: n.recipient ?? p.data.recipient,
    };
    // A plain topic change after a channel change retargets that channel's topic.
    if (!n.recipient && n.topic !== undefined && merged.recipient?.type === 'channel') merged.recipient = { ...merged.recipient, topic: n.topic };
    return { action: 'merge', args: merged, base: null };
  },
  apply: applyOptimistic,
});

export function applyOptimistic(db: LocalDb, args: ScheduledEditArgs, changes: ChangeCollector): void {
  const local = localObjectId(args.scheduled_message_id);
  const m = localScheduled(db).find((x) => x.scheduled_message_id === local);
  if (!m) return;
  const r = args.recipient;
  putScheduledMessage(db, {
    ...m,
    content: args.content ?? m.content,
    // The list shows the rendered text: a new text shows at once, not once the server answers.
    rendered_content: args.content !== undefined ? plainTextHtml(args.content) : m.rendered_content,
    scheduled_delivery_timestamp: args.scheduled_delivery_timestamp ?? m.scheduled_delivery_timestamp,
    ...(r?.type === 'channel' ? { type: 'stream', to: r.to, topic: r.topic } : r?.type === 'direct' ? { type: 'private', to: r.to, topic: undefined } : { topic: args.topic ?? m.topic }),
  });
  changes.touched('scheduled_messages');
}

export const scheduledMessageEditCommands = {
  updateScheduledMessage: queuedCommand({
    request: z.lazy(() => z.object({
      /** A server id, or the negative local id `createScheduledMessage` answered. */
      scheduled_message_id: z.number().int(),
      content: z.string().min(1).optional(),
      topic: z.string().optional(),
      scheduled_delivery_timestamp: z.number().int().optional(),
      recipient: z
        .discriminatedUnion('type', [
          z.object({ type: z.literal('channel'), channel_id: z.number().int().positive(), topic: z.string() }),
          z.object({ type: z.literal('direct'), user_ids: z.array(z.number().int().positive()).min(1) }),
        ])
        .optional(),
    })),
    response: enqueuedSchema,
    intent(r, ctx) {
      const rc = r.recipient;
      const recipient = rc === undefined ? undefined : rc.type === 'channel' ? { type: 'channel' as const, to: rc.channel_id, topic: rc.topic } : { type: 'direct' as const, to: dmRecipients(ctx.db, rc.user_ids) };
      const args = {
        scheduled_message_id: tempRef(ctx, r.scheduled_message_id),
        content: r.content,
        topic: r.topic,
        scheduled_delivery_timestamp: r.scheduled_delivery_timestamp,
        recipient,
      };
      return answer(ctx.outbox.enqueue(scheduledMessageEdit, args, null));
    },
  }),
};
