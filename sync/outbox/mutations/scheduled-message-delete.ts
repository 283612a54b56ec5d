/**
 * `delete_scheduled_message` v1: unschedule a message. Queued behind its offline create (same
 * entity), the two annul each other: nothing is sent. A message the server already delivered
 * cannot be unscheduled: that failure is what the user should see (it was sent).
 */
import { z } from 'zod';
import { deleteScheduledMessage } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { deleteScheduledMessage as deleteLocal } from '../../db/queries/personal.js';
import type { ChangeCollector } from '../../db/changes.js';
import { answer, queuedCommand, tempRef } from '../commands.js';
import { annulsQueued, oneCall, serverScheduledMessage, verifyGone, withoutBase } from './shared.js';
import { enqueuedSchema } from '../../protocol/outbox.js';
import { SCHEDULED_CREATE_KIND } from './scheduled-message-create.js';
import { localSnippetId as localObjectId } from './snippet-local.js';

/** A server id, or `tmp-N` until its create lands (the store rewrites it then). */
export const scheduledId = z.union([z.number().int(), z.string().regex(/^tmp-\d+$/)]);

export const scheduledDeleteArgs = z.object({ scheduled_message_id: scheduledId });
export type ScheduledDeleteArgs = z.output<typeof scheduledDeleteArgs>;

export function serverScheduledId(id: number | string, kind: string): number {
  // Rows are sent only once their create landed (same entity, serial), so a tmp id here is a bug.
  if (typeof id !== 'number') throw new Error(`${kind}: ${id} is not a server id`);
  return id;
}

export const scheduledMessageDelete = withoutBase({
  kind: 'delete_scheduled_message',
  version: 1,
  argsSchema: scheduledDeleteArgs,
  describe: () => ({ text: 'Cancel a scheduled message', link: null }),
  entityKey: (a) => `scheduled_message:${a.scheduled_message_id}`,
  tempIdFields: ['scheduled_message_id'],
  send: oneCall((conn, a) => deleteScheduledMessage(conn, { scheduledMessageId: serverScheduledId(a.scheduled_message_id, 'delete_scheduled_message') })),
  verify: verifyGone((conn, a) => serverScheduledMessage(conn, serverScheduledId(a.scheduled_message_id, 'delete_scheduled_message'))),
  coalesce: annulsQueued(SCHEDULED_CREATE_KIND),
  local: { apply: (db, a, _b, c) => applyOptimistic(db, a, c), areas: ['scheduled_messages'], refetch: ['scheduled_messages'] },
});

export function applyOptimistic(db: LocalDb, a: ScheduledDeleteArgs, changes: ChangeCollector): void {
  const id = localObjectId(a.scheduled_message_id);
  if (id === undefined) return;
  deleteLocal(db, id);
  changes.touched('scheduled_messages');
}

export const scheduledMessageDeleteCommands = {
  deleteScheduledMessage: queuedCommand({
    request: z.object({ scheduled_message_id: z.number().int() }),
    response: enqueuedSchema,
    intent: (r, ctx) => answer(ctx.outbox.enqueue(scheduledMessageDelete, { scheduled_message_id: tempRef(ctx, r.scheduled_message_id) }, null)),
  }),
};
