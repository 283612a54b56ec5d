/**
 * A kind added the way a new one is (test/sync/service/added-kind.test.ts): one module declaring
 * the kind and its command, and a list with it. `pin_note` keeps a note pinned on the server
 * (here the `pinned` array, once a real request has reached the server).
 */
import * as z from 'zod';
import { getOwnUser } from '../../../sync/api/index.js';
import { answer, queuedCommand } from '../../../sync/outbox/commands.js';
import type { OutboxKind } from '../../../sync/outbox/kinds.js';
import { enqueuedSchema } from '../../../sync/protocol/outbox.js';

export const pinned: string[] = [];

const pinNoteArgs = z.object({ note: z.string().min(1) });

export const pinNote: OutboxKind<z.output<typeof pinNoteArgs>, null, 'pin_note'> = {
  kind: 'pin_note',
  version: 1,
  argsSchema: pinNoteArgs,
  baseSchema: z.null(),
  entityKey: (a) => `note:${a.note}`,
  describe: (a) => ({ text: `Pin the note “${a.note}”`, link: null }),
  async send(conn, a) {
    // Reaches the server first (a real request through the session's connection), so it waits offline.
    await getOwnUser(conn);
    pinned.push(a.note);
  },
  verify: async (_conn, a) => (pinned.includes(a.note) ? 'applied' : 'not_applied'),
};

export const pinNoteCommands = {
  pinNote: queuedCommand({
    request: z.object({ note: z.string().min(1) }),
    response: enqueuedSchema,
    intent: (r, ctx) => answer(ctx.outbox.enqueue(pinNote, { note: r.note }, null)),
  }),
};
