/**
 * `update_message_flags` v1: a personal flag (`read`, `starred`) added to or removed from messages by id
 * (`POST /messages/flags`): reading, "mark as unread from here", starring.
 *
 * Order: one entity per flag, so a star and a later unstar of the same message reach the server
 * in the order the user made them. Queued intents of the same flag and op merge (their ids
 * unite, up to the request's bound); opposite ops are kept apart and sent in order, never
 * cancelled: the user's last action wins whatever the server had before.
 *
 * Exactly once is easy: setting a flag is idempotent. After a lost answer the messages are read
 * back anyway (`verify`), and resent only if some still lack the change.
 */
import * as z from 'zod';
import { getMessages, updateMessageFlags } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { LOCAL_ECHO_MIN_ID, updateStoredMessage } from '../../db/queries/messages.js';
import type { ChangeCollector } from '../../db/changes.js';
import { OutboxIntentError } from '../kinds.js';
import { answer, plural, queuedCommand } from '../commands.js';
import { oneCall, withoutBase } from './shared.js';
import { enqueuedSchema } from '../../protocol/outbox.js';

/** The flags a person sets by hand (the others follow the content). */
export const USER_FLAGS = ['read', 'starred'] as const;
/** Message ids per request: the server takes any number, but one row stays one reasonable request. */
export const MAX_FLAG_MESSAGES = 5000;

export const messageFlagsArgs = z.lazy(() => z.object({
  messages: z.array(z.number().int().positive().lt(LOCAL_ECHO_MIN_ID)).min(1).max(MAX_FLAG_MESSAGES),
  op: z.enum(['add', 'remove']),
  flag: z.enum(USER_FLAGS),
}));
export type MessageFlagsArgs = z.output<typeof messageFlagsArgs>;

export const MESSAGE_FLAGS_KIND = 'update_message_flags';

export const messageFlags = withoutBase({
  kind: MESSAGE_FLAGS_KIND,
  version: 1,
  argsSchema: messageFlagsArgs,
  describe(a) {
    const n = a.messages.length;
    const add = a.op === 'add';
    const text = a.flag === 'starred' ? `${add ? 'Star' : 'Unstar'} ${plural(n, 'message')}` : `Mark ${plural(n, 'message')} as ${add ? 'read' : 'unread'}`;
    const only = n === 1 ? a.messages[0] : undefined;
    return { text, link: only === undefined ? null : { to: 'message', message_id: only } };
  },
  entityKey: (a) => `flags:${a.flag}`,
  // Read and unread marks of overlapping messages must reach the server in the user's order (a
  // topic marked read, then a message in it marked unread): one at a time across these kinds.
  serialGroup: 'read-state',
  send: oneCall(updateMessageFlags),
  async verify(conn, a) {
    if (!conn.supports(300)) return 'not_applied';
    const res = await getMessages(conn, { message_ids: a.messages, narrow: [], apply_markdown: false });
    // A message the server no longer shows us is out of the user's reach either way.
    const done = res.messages.every((m) => m.flags.includes(a.flag) === (a.op === 'add'));
    return done ? 'applied' : 'not_applied';
  },
  coalesce(prev, next) {
    const p = prev.kind === MESSAGE_FLAGS_KIND ? messageFlagsArgs.safeParse(prev.args) : undefined;
    if (!p?.success || p.data.op !== next.args.op || p.data.flag !== next.args.flag) return { action: 'append' };
    const messages = [...new Set([...p.data.messages, ...next.args.messages])].sort((x, y) => x - y);
    if (messages.length > MAX_FLAG_MESSAGES) return { action: 'append' };
    return { action: 'merge', args: { ...p.data, messages }, base: null };
  },
  local: {
    apply: (db, a, _b, c) => applyOptimistic(db, a, c),
    messageIds: (a) => a.messages,
    overManyMessages: true,
    areas: ['unread'],
  },
});

export function applyOptimistic(db: LocalDb, a: MessageFlagsArgs, changes: ChangeCollector): void {
  const add = a.op === 'add';
  let changed = false;
  for (const id of a.messages) {
    updateStoredMessage(
      db,
      id,
      (m) => {
        if (m.flags.includes(a.flag) === add) return undefined;
        changed = true;
        return { ...m, flags: add ? [...m.flags, a.flag] : m.flags.filter((f) => f !== a.flag) };
      },
      changes,
    );
  }
  if (changed && a.flag === 'read') changes.touched('unread');
}

/** The contract's command: star, unstar, mark read or unread, by message id (shown at once; unread counts follow). */
export const messageFlagsCommands = {
  updateMessageFlags: queuedCommand({
    request: z.lazy(() => z.object({ message_ids: z.array(z.number().int().positive()).min(1).max(5000), flag: z.enum(['read', 'starred']), op: z.enum(['add', 'remove']) })),
    response: enqueuedSchema,
    intent(r, ctx) {
      // A message still being sent has no server id: it is read (ours), and is starred once it lands.
      const ids = r.message_ids.filter((id) => id < LOCAL_ECHO_MIN_ID);
      if (ids.length === 0) throw new OutboxIntentError('the message is being sent: change its flags once it has arrived');
      return answer(ctx.outbox.enqueue(messageFlags, { messages: ids, op: r.op, flag: r.flag }, null));
    },
  }),
};
