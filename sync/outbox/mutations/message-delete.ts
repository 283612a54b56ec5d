/**
 * `delete_message` v1: delete a message (`DELETE /messages/{id}`), as the realm's policy allows
 * (the server decides; the UI offers it by `sync/engine/message-permissions.ts`).
 *
 * Queued on the message's own entity (`message:<id>`), behind its edits and moves: they go first,
 * and the message is shown with a "deleting" marker meanwhile rather than removed at once, so a
 * refusal (the time limit passed while offline, the policy changed) or a Discard leaves it where it
 * was, with the server's reason on it. It leaves the cache when the server's `delete_message`
 * event arrives (the engine's event handler), as for a deletion made elsewhere.
 *
 * A message already gone (deleted elsewhere, or by an earlier attempt whose answer was lost: the
 * server says "Invalid message(s)") is the user's wish reached, not a failure. Verify: read the
 * message; gone means applied.
 */
import * as z from 'zod';
import { deleteMessage, getMessage, isApiError } from '../../api/index.js';
import { LOCAL_ECHO_MIN_ID } from '../../db/queries/messages.js';
import { answer, notUnsent, queuedCommand } from '../commands.js';
import { newestWins, withoutBase } from './shared.js';
import { enqueuedSchema } from '../../protocol/outbox.js';

export const messageDeleteArgs = z.lazy(() => z.object({ message_id: z.number().int().positive().lt(LOCAL_ECHO_MIN_ID) }));
export type MessageDeleteArgs = z.output<typeof messageDeleteArgs>;

export const MESSAGE_DELETE_KIND = 'delete_message';

/** The server no longer has the message (or never let us see it): Zulip's answer for both. */
export const isInvalidMessage = (e: unknown): boolean => isApiError(e) && e.kind === 'api' && e.code === 'BAD_REQUEST' && /invalid message/i.test(e.serverMsg);

export const messageDelete = withoutBase({
  kind: MESSAGE_DELETE_KIND,
  version: 1,
  argsSchema: messageDeleteArgs,
  describe: (a) => ({ text: 'Delete a message', link: { to: 'message', message_id: a.message_id } }),
  entityKey: (a) => `message:${a.message_id}`,
  async send(conn, a) {
    try {
      await deleteMessage(conn, { messageId: a.message_id });
    } catch (e) {
      if (isInvalidMessage(e)) return;
      throw e;
    }
  },
  async verify(conn, a) {
    try {
      await getMessage(conn, { messageId: a.message_id, apply_markdown: false });
      return 'not_applied';
    } catch (e) {
      if (isInvalidMessage(e)) return 'applied';
      throw e;
    }
  },
  // A second delete of the same message while the first waits: one is enough.
  coalesce: newestWins(MESSAGE_DELETE_KIND),
  local: {
    // Nothing changes before the server agrees: the row's marker says "deleting" on the message.
    apply: () => undefined,
    messageIds: (a) => [a.message_id],
  },
});

/** The contract's command: delete a message (confirmed by the user first; queued offline). */
export const messageDeleteCommands = {
  deleteMessage: queuedCommand({
    request: z.lazy(() => z.object({ message_id: z.number().int().positive() })),
    response: enqueuedSchema,
    intent(r, ctx) {
      notUnsent(r.message_id);
      return answer(ctx.outbox.enqueue(messageDelete, r, null));
    },
  }),
};
