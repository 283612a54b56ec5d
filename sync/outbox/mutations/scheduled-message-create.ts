/**
 * `create_scheduled_message` v1: schedule a message (possibly offline) under a temporary id, shown
 * at once in the scheduled list under the negative local id `-N` (as offline snippets are). Later
 * edits and a delete of it queue behind it (same entity) and fold into it while it is queued: an
 * offline create-then-delete sends nothing.
 *
 * A create the server refused (its time passed while the device was offline: "must be in the
 * future") never holds the message hostage: a later edit (a new time, a new text) folds into the
 * failed create, which goes again as changed, and "Send now" folds into it too: the create then
 * carries `send_now_at` and is sent as an ordinary message (POST /messages), once, instead of being
 * scheduled (docs/sync-design.md "Scheduled messages created offline").
 *
 * Verify after a lost answer: a scheduled message with our recipient, delivery time and content
 * (as the server stores it: trailing whitespace dropped) is ours, and is adopted. Sent now: our
 * message in the conversation since the user asked (send_message's check) is ours.
 */
import * as z from 'zod';
import { createScheduledMessage, getScheduledMessages, sendMessage } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { deleteScheduledMessage as deleteLocal, getScheduledMessages as localScheduled, putScheduledMessage } from '../../db/queries/personal.js';
import type { ChangeCollector } from '../../db/changes.js';
import { answer, queuedCommand } from '../commands.js';
import { SCHEDULED_MESSAGE, withoutBase } from './shared.js';
import { enqueuedSchema } from '../../protocol/outbox.js';
import { storedContent, storedTopic } from '../normalize.js';
import { plainTextHtml } from './message-content-edit.js';
import { localSnippetId as localObjectId } from './snippet-local.js';
import { verifySent, type SendTarget } from './message-send.js';

export const scheduledRecipient = z.lazy(() => z.union([
  z.object({ type: z.literal('channel'), to: z.number().int(), topic: z.string() }),
  z.object({ type: z.literal('direct'), to: z.array(z.number().int()).min(1) }),
]));

export const scheduledCreateArgs = z.lazy(() => z.object({
  /** `tmp-N` from `OutboxStore.newTempId()`. */
  tmp_id: z.string().regex(/^tmp-\d+$/),
  recipient: scheduledRecipient,
  content: z.string().min(1),
  /** UNIX seconds. */
  scheduled_delivery_timestamp: z.number().int(),
  /**
   * The user asked to send it now (UNIX seconds) before it was ever created: it is sent as an
   * ordinary message instead (added in place: old rows still parse).
   */
  send_now_at: z.number().int().optional(),
}));
export type ScheduledCreateArgs = z.output<typeof scheduledCreateArgs>;

export const SCHEDULED_CREATE_KIND = 'create_scheduled_message';

/** The same ids, in any order. */
export const sameIds = (x: readonly number[], y: readonly number[]) => {
  const a = [...x].sort((p, q) => p - q);
  const b = [...y].sort((p, q) => p - q);
  return a.length === b.length && a.every((v, i) => v === b[i]);
};

export const scheduledMessageCreate = withoutBase({
  kind: SCHEDULED_CREATE_KIND,
  version: 1,
  argsSchema: scheduledCreateArgs,
  describe: (a) => ({ text: a.send_now_at === undefined ? 'Schedule a message' : 'Send a scheduled message now', link: { to: 'scheduled' } }),
  // The entity of the scheduled message it creates, which later rows name by this `tmp-N` id.
  entityKey: (a) => SCHEDULED_MESSAGE.key({ scheduled_message_id: a.tmp_id }),
  createsTempIdIn: 'tmp_id',
  async send(conn, a) {
    if (a.send_now_at !== undefined) {
      const t = sendTargetOf(a);
      const res = await sendMessage(conn, t.type === 'channel' ? { type: 'channel', to: t.stream_id, topic: t.topic, content: a.content } : { type: 'direct', to: t.user_ids, content: a.content });
      return { createdId: res.id };
    }
    const r = a.recipient;
    const target = r.type === 'channel' ? { type: 'channel' as const, to: r.to, topic: r.topic } : { type: 'direct' as const, to: r.to };
    const res = await createScheduledMessage(conn, { ...target, content: a.content, scheduled_delivery_timestamp: a.scheduled_delivery_timestamp });
    return { createdId: res.scheduled_message_id };
  },
  async verify(conn, a, _b, ctx) {
    if (a.send_now_at !== undefined) return verifySent(conn, { to: sendTargetOf(a), content: a.content, local_id: '0' }, { enqueued_at: a.send_now_at }, ctx);
    const r = a.recipient;
    const limits = ctx.limits();
    const found = (await getScheduledMessages(conn)).scheduled_messages
      .filter((m) => m.scheduled_delivery_timestamp === a.scheduled_delivery_timestamp && storedContent(m.content, limits) === storedContent(a.content, limits))
      .filter((m) => (r.type === 'channel' ? m.to === r.to && (m.topic ?? '') === storedTopic(r.topic, limits) : Array.isArray(m.to) && sameIds(m.to, r.to)))
      .sort((x, y) => x.scheduled_message_id - y.scheduled_message_id)[0];
    return found ? { status: 'applied', createdId: found.scheduled_message_id } : 'not_applied';
  },
  local: { apply: (db, a, _b, c) => applyOptimistic(db, a, c), areas: ['scheduled_messages'], refetch: ['scheduled_messages'] },
  landed(db, a, createdId, changes) {
    if (typeof createdId !== 'number') return;
    const local = localObjectId(a.tmp_id);
    const m = localScheduled(db).find((x) => x.scheduled_message_id === local);
    if (local === undefined || !m) return;
    deleteLocal(db, local);
    // Sent now: `createdId` is the message's id, and nothing stays scheduled.
    if (a.send_now_at === undefined) putScheduledMessage(db, { ...m, scheduled_message_id: createdId });
    changes.touched('scheduled_messages');
  },
});

/** Where a create sent now goes, as a message send names it. */
function sendTargetOf(a: ScheduledCreateArgs): SendTarget {
  const r = a.recipient;
  return r.type === 'channel' ? { type: 'channel', stream_id: r.to, topic: r.topic } : { type: 'direct', user_ids: r.to };
}

export function applyOptimistic(db: LocalDb, a: ScheduledCreateArgs, changes: ChangeCollector): void {
  const id = localObjectId(a.tmp_id);
  if (id === undefined) return;
  const r = a.recipient;
  putScheduledMessage(db, {
    scheduled_message_id: id,
    ...(r.type === 'channel' ? { type: 'stream', to: r.to, topic: r.topic } : { type: 'private', to: r.to }),
    content: a.content,
    rendered_content: plainTextHtml(a.content),
    scheduled_delivery_timestamp: a.scheduled_delivery_timestamp,
    failed: false,
  });
  changes.touched('scheduled_messages');
}

/** The contract's command. `scheduled_message_id`: a negative local id until the server's id is known. */
export const scheduledMessageCreateCommands = {
  createScheduledMessage: queuedCommand({
    request: z.lazy(() => z.object({
      to: z.discriminatedUnion('type', [
        z.object({ type: z.literal('channel'), channel_id: z.number().int().positive(), topic: z.string() }),
        z.object({ type: z.literal('direct'), user_ids: z.array(z.number().int().positive()).min(1) }),
      ]),
      content: z.string().min(1),
      /** UNIX seconds. */
      scheduled_delivery_timestamp: z.number().int(),
    })),
    response: enqueuedSchema.extend({ scheduled_message_id: z.number().int() }),
    intent(r, ctx) {
      const tmp = ctx.outbox.newTempId();
      const recipient = r.to.type === 'channel' ? { type: 'channel' as const, to: r.to.channel_id, topic: r.to.topic } : { type: 'direct' as const, to: r.to.user_ids };
      const res = ctx.outbox.enqueue(scheduledMessageCreate, { tmp_id: tmp, recipient, content: r.content, scheduled_delivery_timestamp: r.scheduled_delivery_timestamp }, null);
      return { ...answer(res), scheduled_message_id: localObjectId(tmp) ?? 0 };
    },
  }),
};
