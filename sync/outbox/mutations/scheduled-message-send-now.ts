/**
 * `send_scheduled_message_now` v1: send a scheduled message at once, as Zulip web does it (the
 * scheduled message is deleted, then its text is sent as an ordinary message). Queued on the
 * scheduled message's entity, so it goes after the message's queued create and edits; the text and
 * the recipient are taken from the local copy when the user asks (edits included). A failed
 * scheduled message may be sent now too: no delivery time is involved.
 *
 * Exactly once. DELETE first, then POST /messages. A DELETE the server refuses because the
 * scheduled message is gone means either an earlier attempt of this row deleted it and lost the
 * send, or the server delivered it at its time meanwhile: a message with our text sent by us since
 * the intent or since the time it was scheduled for, whichever is earlier (send_message's check;
 * the server delivers at that time or later, maybe long before a click made offline), means it is
 * there, and nothing is sent again. A lost answer is
 * verified the same way: still scheduled on the server → not applied; gone and our message found →
 * applied; gone and not found → not applied (the resend's DELETE is refused, then it sends).
 * A POST the server refuses leaves the row failed with the text in it (retry or discard).
 *
 * Asked before the scheduled message was ever created (its create queued, or refused because its
 * time passed offline), it folds into the create, which is then sent as an ordinary message.
 */
import * as z from 'zod';
import { deleteScheduledMessage, isApiError, sendMessage, type ApiConnection, type SendMessageArgs } from '../../api/index.js';
import { OutboxIntentError, type KindContext, type OutboxKind, type VerifyOutcome } from '../kinds.js';
import { answer, dmRecipients, queuedCommand, seconds, tempRef } from '../commands.js';
import { enqueuedSchema } from '../../protocol/outbox.js';
import { getScheduledMessages as localScheduled } from '../../db/queries/personal.js';
import { messageSendBase, sendTarget, verifySent } from './message-send.js';
import { scheduledId } from './scheduled-message-delete.js';
import { SCHEDULED_MESSAGE, serverScheduledId, serverScheduledMessage } from './shared.js';
import { SCHEDULED_CREATE_KIND, scheduledCreateArgs } from './scheduled-message-create.js';

export const scheduledSendNowArgs = z.object({
  /** A server id, or `tmp-N` while its offline create is queued. */
  scheduled_message_id: scheduledId,
  to: sendTarget,
  content: z.string().min(1),
});
export type ScheduledSendNowArgs = z.output<typeof scheduledSendNowArgs>;

/**
 * What the user saw: when they asked (`enqueued_at`) and, from the local copy, the time the message
 * was scheduled for (`scheduled_at`; absent in rows queued before it was recorded).
 */
export const scheduledSendNowBase = z.lazy(() => messageSendBase.extend({ scheduled_at: z.number().int().optional() }));
export type ScheduledSendNowBase = z.output<typeof scheduledSendNowBase>;

export const SCHEDULED_SEND_NOW_KIND = 'send_scheduled_message_now';

function wireArgs(a: ScheduledSendNowArgs): SendMessageArgs {
  if (a.to.type === 'channel') return { type: 'channel', to: a.to.stream_id, topic: a.to.topic, content: a.content };
  return { type: 'direct', to: a.to.user_ids, content: a.content };
}

/** The server's "Scheduled message does not exist" (HTTP 404, or a 400 BAD_REQUEST from older servers). */
const isGone = (e: unknown) => isApiError(e) && e.kind === 'api' && (e.httpStatus === 404 || (e.code === 'BAD_REQUEST' && /does not exist/i.test(e.serverMsg)));

/** Our message already in the conversation since the click or its delivery time (send_message's check; no row of ours claimed any). */
const alreadySent = (conn: ApiConnection, a: ScheduledSendNowArgs, b: ScheduledSendNowBase, ctx: KindContext): Promise<VerifyOutcome> =>
  verifySent(conn, { to: a.to, content: a.content, local_id: '0' }, { enqueued_at: Math.min(b.enqueued_at, b.scheduled_at ?? b.enqueued_at) }, ctx);

export const scheduledMessageSendNow: OutboxKind<ScheduledSendNowArgs, ScheduledSendNowBase, 'send_scheduled_message_now'> = {
  kind: SCHEDULED_SEND_NOW_KIND,
  version: 1,
  argsSchema: scheduledSendNowArgs,
  baseSchema: scheduledSendNowBase,
  describe: () => ({ text: 'Send a scheduled message now', link: { to: 'scheduled' } }),
  entityKey: SCHEDULED_MESSAGE.key,
  tempIdFields: ['scheduled_message_id'],
  // Not created yet (its create queued, or refused for its time): the create is sent as a message
  // instead, once; nothing is unscheduled.
  coalesce(prev, next) {
    const c = prev.kind === SCHEDULED_CREATE_KIND ? scheduledCreateArgs.safeParse(prev.args) : undefined;
    if (!c?.success) return { action: 'append' };
    return { action: 'merge', args: { ...c.data, send_now_at: next.base.enqueued_at }, base: prev.base };
  },
  foldsIntoFailed: true,
  // A refused edit of a scheduled message the server holds: the send takes the text and recipient
  // as the list shows them (that edit included), so the edit is moot rather than in the way.
  supersedesFailed: (prev) => prev.kind === 'update_scheduled_message',
  async send(conn, a, b, ctx) {
    const id = serverScheduledId(a.scheduled_message_id, SCHEDULED_SEND_NOW_KIND);
    try {
      await deleteScheduledMessage(conn, { scheduledMessageId: id });
    } catch (e) {
      if (!isGone(e)) throw e;
      const there = await alreadySent(conn, a, b, ctx);
      if (typeof there === 'object') return { createdId: there.createdId };
    }
    const res = await sendMessage(conn, wireArgs(a));
    return { createdId: res.id };
  },
  async verify(conn, a, b, ctx) {
    const id = serverScheduledId(a.scheduled_message_id, SCHEDULED_SEND_NOW_KIND);
    if ((await serverScheduledMessage(conn, id)) !== undefined) return 'not_applied';
    return alreadySent(conn, a, b, ctx);
  },
  // The scheduled message stays listed (marked) until the server's list drops it.
  local: { apply: () => undefined, areas: ['scheduled_messages'], refetch: ['scheduled_messages'] },
};

/**
 * The contract's command: send a scheduled message at once (Zulip web's way: it is unscheduled
 * and sent as a message), with its text and recipient as the local list shows them. A failed one
 * may be sent now too.
 */
export const scheduledMessageSendNowCommands = {
  sendScheduledMessageNow: queuedCommand({
    request: z.object({ scheduled_message_id: z.number().int() }),
    response: enqueuedSchema,
    intent(r, ctx) {
      const m = localScheduled(ctx.db).find((x) => x.scheduled_message_id === r.scheduled_message_id);
      if (!m) throw new OutboxIntentError('no such scheduled message');
      const ids = Array.isArray(m.to) ? m.to : [m.to];
      const to = m.type === 'stream' ? { type: 'channel' as const, stream_id: ids[0] ?? 0, topic: m.topic ?? '' } : { type: 'direct' as const, user_ids: dmRecipients(ctx.db, ids) };
      const args = { scheduled_message_id: tempRef(ctx, r.scheduled_message_id), to, content: m.content };
      return answer(ctx.outbox.enqueue(scheduledMessageSendNow, args, { enqueued_at: seconds(ctx.outbox.now()), scheduled_at: m.scheduled_delivery_timestamp }));
    },
  }),
};
