/**
 * `update_message_flags_for_narrow` v1: every message of a narrow becomes read (`POST /messages/flags/narrow`,
 * FL 155): "mark channel as read", "mark all as read", a DM conversation, a search. The server
 * bounds each request, so `send` walks the narrow from its oldest message in batches, resuming
 * after `last_processed_id`, until `found_newest`.
 *
 * Idempotent: queued intents for the same narrow merge, and a resend after a failed verify only
 * marks read what is still unread (messages that arrived since included: the user asked for the
 * whole narrow). Verify asks for an unread message left in the narrow.
 *
 * Offline, the cached messages of the narrow show as read at once (the local store compiles the
 * narrow as it does for views); unread counts follow.
 */
import * as z from 'zod';
import { getMessages, narrowTermSchema, updateMessageFlagsForNarrow, type MessageAnchor } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { updateStoredMessage } from '../../db/queries/messages.js';
import { unreadServerIdsWhere } from '../../db/queries/message-rows.js';
import { getAccount } from '../../db/queries/state.js';
import type { ChangeCollector } from '../../db/changes.js';
import { compileLocalNarrow } from '../../db/narrow/compile.js';
import { OutboxIntentError } from '../kinds.js';
import { answer, atChannel, queuedCommand } from '../commands.js';
import { newestWins, withoutBase } from './shared.js';
import { enqueuedSchema } from '../../protocol/outbox.js';

export const markNarrowReadArgs = z.object({ narrow: z.array(narrowTermSchema).max(20) });
export type MarkNarrowReadArgs = z.output<typeof markNarrowReadArgs>;

export const MARK_NARROW_READ_KIND = 'update_message_flags_for_narrow';
/** Messages per request (Zulip web asks for 1,000 at a time). */
const BATCH = 1000;
/** Requests per attempt: 500,000 messages; a longer narrow finishes on the next attempt. */
const MAX_ROUNDS = 500;

const unread = { operator: 'is', operand: 'unread' } as const;

export const markNarrowRead = withoutBase({
  kind: MARK_NARROW_READ_KIND,
  version: 1,
  argsSchema: markNarrowReadArgs,
  describe(a, names) {
    if (a.narrow.length === 0) return { text: 'Mark all messages as read', link: null };
    const ch = a.narrow.find((t) => t.operator === 'channel' || t.operator === 'stream');
    if (ch && a.narrow.length === 1) {
      if (typeof ch.operand !== 'number') return { text: 'Mark a channel as read', link: null };
      return atChannel(names, ch.operand, undefined, (channel) => `Mark ${channel} as read`);
    }
    return { text: 'Mark a conversation as read', link: null };
  },
  entityKey: (a) => `narrow_read:${JSON.stringify(a.narrow)}`,
  // Read and unread marks of overlapping messages must reach the server in the user's order (a
  // topic marked read, then a message in it marked unread): one at a time across these kinds.
  serialGroup: 'read-state',
  async send(conn, a) {
    let anchor: MessageAnchor = 'oldest';
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const res = await updateMessageFlagsForNarrow(conn, { anchor, include_anchor: round === 0, num_before: 0, num_after: BATCH, narrow: [...a.narrow, unread], op: 'add', flag: 'read' });
      if (res.found_newest || res.last_processed_id === null) return;
      anchor = res.last_processed_id;
    }
    throw new Error(`update_message_flags_for_narrow: more than ${MAX_ROUNDS * BATCH} unread messages; the rest goes on the next attempt`);
  },
  async verify(conn, a) {
    const res = await getMessages(conn, { anchor: 'newest', num_before: 1, num_after: 0, narrow: [...a.narrow, unread] });
    return res.messages.length === 0 ? 'applied' : 'not_applied';
  },
  coalesce: newestWins(MARK_NARROW_READ_KIND),
  local: { apply: (db, a, _b, c) => applyOptimistic(db, a, c), areas: ['unread'], refetch: ['message', 'update_message_flags'] },
});

export function applyOptimistic(db: LocalDb, a: MarkNarrowReadArgs, changes: ChangeCollector): void {
  const self = getAccount(db)?.user_id ?? undefined;
  if (self === undefined) return;
  let n;
  try {
    n = compileLocalNarrow(db, a.narrow, self);
  } catch {
    return; // a narrow the local store cannot answer: the server's events will say
  }
  const ids = unreadServerIdsWhere(db, n);
  for (const id of ids) updateStoredMessage(db, id, (m) => (m.flags.includes('read') ? undefined : { ...m, flags: [...m.flags, 'read'] }), changes);
  if (ids.length > 0) changes.touched('unread');
}

/** The contract's command: every message of a narrow (a channel, a DM conversation, everything: `[]`) becomes read. */
export const markNarrowReadCommands = {
  updateMessageFlagsForNarrow: queuedCommand({
    request: z.lazy(() => z.object({ narrow: z.array(z.object({ operator: z.string(), operand: z.union([z.string(), z.number().int(), z.array(z.number().int())]), negated: z.boolean().optional() })).max(20) })),
    response: enqueuedSchema,
    intent(r, ctx) {
      const args = markNarrowReadArgs.safeParse({ narrow: r.narrow });
      if (!args.success) throw new OutboxIntentError(`markNarrowRead: ${z.prettifyError(args.error)}`);
      return answer(ctx.outbox.enqueue(markNarrowRead, args.data, null));
    },
  }),
};
