/**
 * `send_submessage` v1: the user's interaction with a poll or a to-do list (Zulip's widgets on
 * submessages, `POST /submessage`): a vote (+1 or -1), a new option, a new question; a new task, a
 * strike (which toggles the task), a new title. The widget itself comes from the server when a
 * `/poll` or `/todo` message is sent.
 *
 * One entity with the message's other changes (`message:<id>`): interactions reach the server in
 * the order they were made (a vote for an option added offline goes after the option), and the
 * message carries the pending marker meanwhile.
 *
 * Local effect: a copy of the submessage on the cached message under a negative id (`local_id`,
 * handed out per row), so the widget shows the change at once, offline too. The server's copy
 * replaces it: the `submessage` event drops the user's oldest local copy with the same content
 * (sync/engine/handlers/messages.ts), and a fetch brings the server's list, on which the rows
 * still pending are applied again; a row already landed there is not (`landedIn`).
 *
 * Lost answers. The server answers nothing but success, so a row is matched by reading the
 * message's submessages: it landed if the user now has more submessages with its exact content
 * than the device knew of when the user acted (`base.known`, counting the local copies of rows
 * still queued ahead of it, whose server copies replace them). Rows of one message land in order,
 * so a second strike of the same task is told from the first. Never a blind resend.
 *
 * Coalescing while unsent: the same vote twice is one; a vote then its undo is nothing, as two
 * strikes of one task are; a new question or title replaces the queued one. New options and tasks
 * stay.
 */
import * as z from 'zod';
import { getMessage, getOwnUser, sendSubmessage, type Submessage } from '../../api/index.js';
import type { ChangeCollector } from '../../db/changes.js';
import type { LocalDb } from '../../db/open.js';
import { getStoredMessage, LOCAL_ECHO_MIN_ID, updateStoredMessage } from '../../db/queries/messages.js';
import { getAccount } from '../../db/queries/state.js';
import { enqueuedSchema } from '../../protocol/outbox.js';
import { answer, notUnsent, queuedCommand } from '../commands.js';
import { OutboxIntentError, type CoalesceDecision, type OutboxKind, type PendingIntent } from '../kinds.js';

/** Zulip's MAX_IDX for option and task indexes. */
const MAX_IDX = 1000;
const idx = z.lazy(() => z.number().int().min(0).max(MAX_IDX));

/** The widget events the app sends (web/shared/src/poll_data.ts, web/src/todo_widget.ts), keys in Zulip's order. */
export const widgetEventSchema = z.lazy(() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('vote'), key: z.string().min(1), vote: z.union([z.literal(1), z.literal(-1)]) }),
  z.object({ type: z.literal('new_option'), idx, option: z.string().trim().min(1) }),
  z.object({ type: z.literal('question'), question: z.string().trim() }),
  z.object({ type: z.literal('new_task'), key: idx, task: z.string().trim().min(1), desc: z.string().trim(), completed: z.boolean() }),
  z.object({ type: z.literal('strike'), key: z.string().min(1) }),
  z.object({ type: z.literal('new_task_list_title'), title: z.string().trim() }),
]));
export type WidgetEvent = z.output<typeof widgetEventSchema>;

export const submessageSendArgs = z.lazy(() => z.object({
  message_id: z.number().int().positive().lt(LOCAL_ECHO_MIN_ID),
  msg_type: z.literal('widget'),
  /** The JSON text sent, exactly: what the server stores and what verification compares. */
  content: z.string().min(1),
  /** The local copy's id on the cached message (negative). */
  local_id: z.number().int().negative(),
}));
export type SubmessageSendArgs = z.output<typeof submessageSendArgs>;

/** How many of the user's submessages on the message had this content when they acted. */
export const submessageSendBase = z.lazy(() => z.object({ known: z.number().int().min(0) }));
export type SubmessageSendBase = z.output<typeof submessageSendBase>;

export const SUBMESSAGE_SEND_KIND = 'send_submessage';

const eventOf = (content: string): WidgetEvent | undefined => {
  try {
    const r = widgetEventSchema.safeParse(JSON.parse(content));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
};

/** How many of `self`'s submessages carry `content` (leaving out the local copy `exceptId`). */
const countMine = (subs: readonly Submessage[], self: number, content: string, exceptId?: number): number =>
  subs.filter((s) => s.sender_id === self && s.id !== exceptId && s.content === content).length;

/** Whether the row's submessage is among `subs` (the server's list, or the cache with local copies). */
export function landedIn(subs: readonly Submessage[], self: number, a: SubmessageSendArgs, b: SubmessageSendBase): boolean {
  return countMine(subs, self, a.content, a.local_id) > b.known;
}

const DESCRIBE: Record<WidgetEvent['type'], string> = {
  vote: 'Vote in a poll',
  new_option: 'Add a poll option',
  question: 'Change a poll question',
  new_task: 'Add a task',
  strike: 'Check off a task',
  new_task_list_title: 'Rename a to-do list',
};

export const submessageSend: OutboxKind<SubmessageSendArgs, SubmessageSendBase, 'send_submessage'> = {
  kind: SUBMESSAGE_SEND_KIND,
  version: 1,
  argsSchema: submessageSendArgs,
  baseSchema: submessageSendBase,
  describe(a) {
    const e = eventOf(a.content);
    const text = e === undefined ? 'Change a poll or to-do list' : e.type === 'vote' && e.vote === -1 ? 'Remove a vote in a poll' : DESCRIBE[e.type];
    return { text, link: { to: 'message', message_id: a.message_id } };
  },
  entityKey: (a) => `message:${a.message_id}`,
  async send(conn, a) {
    await sendSubmessage(conn, { message_id: a.message_id, msg_type: a.msg_type, content: a.content });
  },
  async verify(conn, a, b) {
    const self = (await getOwnUser(conn)).user_id;
    const { message } = await getMessage(conn, { messageId: a.message_id, apply_markdown: false });
    return landedIn(message.submessages, self, a, b) ? 'applied' : 'not_applied';
  },
  coalesce: coalesceSubmessage,
  local: {
    apply: (db, a, b, c) => applyOptimistic(db, a, b, c),
    messageIds: (a) => [a.message_id],
  },
};

function coalesceSubmessage(prev: PendingIntent, next: { readonly args: SubmessageSendArgs; readonly base: SubmessageSendBase }): CoalesceDecision {
  const p = prev.kind === SUBMESSAGE_SEND_KIND ? submessageSendArgs.safeParse(prev.args) : undefined;
  const a = p?.success ? eventOf(p.data.content) : undefined;
  const b = eventOf(next.args.content);
  if (!p?.success || a === undefined || b === undefined) return { action: 'append' };
  // Zulip's votes set or clear the voter: the same vote twice is one; a vote and its undo, nothing.
  if (a.type === 'vote' && b.type === 'vote' && a.key === b.key) return a.vote === b.vote ? { action: 'merge', args: p.data, base: prev.base } : { action: 'cancel' };
  // A strike toggles: two of one task annul each other.
  if (a.type === 'strike' && b.type === 'strike' && a.key === b.key) return { action: 'cancel' };
  // The newest question or title is the one the user wants; the local copy keeps its id.
  const renames = (a.type === 'question' && b.type === 'question') || (a.type === 'new_task_list_title' && b.type === 'new_task_list_title');
  if (renames) return { action: 'merge', args: { ...next.args, local_id: p.data.local_id }, base: next.base };
  return { action: 'append' };
}

/** The row's local copy on the cached message, unless the server's copy is already there. */
function applyOptimistic(db: LocalDb, a: SubmessageSendArgs, b: SubmessageSendBase, changes: ChangeCollector): void {
  const self = getAccount(db)?.user_id ?? undefined;
  if (self === undefined) return;
  updateStoredMessage(
    db,
    a.message_id,
    (m) => {
      const copy = m.submessages.find((s) => s.id === a.local_id);
      if (copy?.content === a.content) return undefined;
      const others = m.submessages.filter((s) => s.id !== a.local_id);
      if (copy === undefined && landedIn(others, self, a, b)) return undefined;
      return { ...m, submessages: [...others, { id: a.local_id, message_id: m.id, sender_id: self, msg_type: a.msg_type, content: a.content }] };
    },
    changes,
  );
}

/** The server's copy of one of the user's submessages arrived: it replaces their oldest local copy with that content. */
export function withoutLocalCopy(subs: readonly Submessage[], arrived: Pick<Submessage, 'sender_id' | 'msg_type' | 'content'>): Submessage[] {
  const local = subs.filter((s) => s.id < 0 && s.sender_id === arrived.sender_id && s.msg_type === arrived.msg_type && s.content === arrived.content).sort((x, y) => y.id - x.id)[0];
  return local === undefined ? [...subs] : subs.filter((s) => s !== local);
}

/** The contract's command: an interaction with a poll or a to-do list on a message the device holds. */
export const submessageSendCommands = {
  sendSubmessage: queuedCommand({
    request: z.lazy(() => z.object({ message_id: z.number().int().positive(), event: widgetEventSchema })),
    response: enqueuedSchema,
    intent(r, ctx) {
      notUnsent(r.message_id);
      const m = getStoredMessage(ctx.db, r.message_id);
      const self = getAccount(ctx.db)?.user_id ?? undefined;
      if (m === undefined || self === undefined) throw new OutboxIntentError('the message is not on this device');
      const content = JSON.stringify(r.event);
      const local_id = Math.min(0, ...m.submessages.map((s) => s.id)) - 1;
      const args: SubmessageSendArgs = { message_id: r.message_id, msg_type: 'widget', content, local_id };
      return answer(ctx.outbox.enqueue(submessageSend, args, { known: countMine(m.submessages, self, content) }));
    },
  }),
};
