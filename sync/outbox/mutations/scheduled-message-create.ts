/**
 * `create_scheduled_message` v1: schedule a message (possibly offline) under a temporary id, shown
 * at once in the scheduled list under the negative local id `-N` (as offline snippets are). Later
 * edits and a delete of it queue behind it (same entity) and fold into it while it is queued: an
 * offline create-then-delete sends nothing.
 *
 * Verify after a lost answer: a scheduled message with our recipient, delivery time and content
 * (as the server stores it: trailing whitespace dropped) is ours, and is adopted.
 */
import { z } from 'zod';
import { createScheduledMessage, getScheduledMessages } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { deleteScheduledMessage as deleteLocal, getScheduledMessages as localScheduled, putScheduledMessage } from '../../db/queries/personal.js';
import type { ChangeCollector } from '../../db/changes.js';
import { answer, queuedCommand } from '../commands.js';
import { SCHEDULED_MESSAGE, withoutBase } from './shared.js';
import { enqueuedSchema } from '../../protocol/outbox.js';
import { storedContent, storedTopic } from '../normalize.js';
import { plainTextHtml } from './message-content-edit.js';
import { localSnippetId as localObjectId } from './snippet-local.js';

export const scheduledRecipient = z.union([
  z.object({ type: z.literal('channel'), to: z.number().int(), topic: z.string() }),
  z.object({ type: z.literal('direct'), to: z.array(z.number().int()).min(1) }),
]);

export const scheduledCreateArgs = z.object({
  /** `tmp-N` from `OutboxStore.newTempId()`. */
  tmp_id: z.string().regex(/^tmp-\d+$/),
  recipient: scheduledRecipient,
  content: z.string().min(1),
  /** UNIX seconds. */
  scheduled_delivery_timestamp: z.number().int(),
});
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
  describe: () => ({ text: 'Schedule a message', link: null }),
  // The entity of the scheduled message it creates, which later rows name by this `tmp-N` id.
  entityKey: (a) => SCHEDULED_MESSAGE.key({ scheduled_message_id: a.tmp_id }),
  createsTempIdIn: 'tmp_id',
  async send(conn, a) {
    const r = a.recipient;
    const target = r.type === 'channel' ? { type: 'channel' as const, to: r.to, topic: r.topic } : { type: 'direct' as const, to: r.to };
    const res = await createScheduledMessage(conn, { ...target, content: a.content, scheduled_delivery_timestamp: a.scheduled_delivery_timestamp });
    return { createdId: res.scheduled_message_id };
  },
  async verify(conn, a, _b, ctx) {
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
    putScheduledMessage(db, { ...m, scheduled_message_id: createdId });
    changes.touched('scheduled_messages');
  },
});

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
    request: z.object({
      to: z.discriminatedUnion('type', [
        z.object({ type: z.literal('channel'), channel_id: z.number().int().positive(), topic: z.string() }),
        z.object({ type: z.literal('direct'), user_ids: z.array(z.number().int().positive()).min(1) }),
      ]),
      content: z.string().min(1),
      /** UNIX seconds. */
      scheduled_delivery_timestamp: z.number().int(),
    }),
    response: enqueuedSchema.extend({ scheduled_message_id: z.number().int() }),
    intent(r, ctx) {
      const tmp = ctx.outbox.newTempId();
      const recipient = r.to.type === 'channel' ? { type: 'channel' as const, to: r.to.channel_id, topic: r.to.topic } : { type: 'direct' as const, to: r.to.user_ids };
      const res = ctx.outbox.enqueue(scheduledMessageCreate, { tmp_id: tmp, recipient, content: r.content, scheduled_delivery_timestamp: r.scheduled_delivery_timestamp }, null);
      return { ...answer(res), scheduled_message_id: localObjectId(tmp) ?? 0 };
    },
  }),
};
