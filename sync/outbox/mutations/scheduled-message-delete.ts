/**
 * `delete_scheduled_message` v1: unschedule a message. Queued behind its offline create (same
 * entity), the two annul each other: nothing is sent. A message the server already delivered
 * cannot be unscheduled: that failure is what the user should see (it was sent).
 */
import * as z from 'zod';
import { deleteScheduledMessage } from '../../api/index.js';
import { queues, tempRef } from '../commands.js';
import { annulsQueued, forgetsLocal, objectKind, SCHEDULED_MESSAGE, serverScheduledId } from './shared.js';
import { SCHEDULED_CREATE_KIND } from './scheduled-message-create.js';

/** A server id, or `tmp-N` until its create lands (the store rewrites it then). */
export const scheduledId = z.lazy(() => z.union([z.number().int(), z.string().regex(/^tmp-\d+$/)]));

export const scheduledDeleteArgs = z.object({ scheduled_message_id: scheduledId });

export const scheduledMessageDelete = objectKind(SCHEDULED_MESSAGE, {
  kind: 'delete_scheduled_message',
  version: 1,
  argsSchema: scheduledDeleteArgs,
  describe: () => ({ text: 'Cancel a scheduled message', link: null }),
  send: (conn, a) => deleteScheduledMessage(conn, { scheduledMessageId: serverScheduledId(a.scheduled_message_id, 'delete_scheduled_message') }),
  shows: 'gone',
  coalesce: annulsQueued(SCHEDULED_CREATE_KIND),
  // Behind a refused create it annuls that too: nothing was ever scheduled.
  foldsIntoFailed: true,
  apply: forgetsLocal(SCHEDULED_MESSAGE),
});

export const scheduledMessageDeleteCommands = {
  deleteScheduledMessage: queues(scheduledMessageDelete, z.object({ scheduled_message_id: z.number().int() }), (r, ctx) => ({ scheduled_message_id: tempRef(ctx, r.scheduled_message_id) })),
};
