/**
 * A message's poll or to-do list, folded from its submessages as Zulip web does
 * (web/shared/src/poll_data.ts, web/src/todo_widget.ts): the first submessage declares the widget
 * (`widget_type`, `extra_data`), the rest are its events in id order. The user's pending ones
 * (negative ids, the outbox's local copies) come after every server one, oldest first, and what
 * they add or change is marked pending. Malformed events are skipped, never fatal.
 */
import type { LocalSubmessage } from '../../../sync/protocol/messages.js';

export interface PollOption {
  /** `"<sender_id>,<idx>"`, or `"canned,<idx>"` for the options written with `/poll`. */
  readonly key: string;
  readonly text: string;
  readonly voters: readonly number[];
  /** Added, or voted on by the user, in a change not yet on the server. */
  readonly pending: boolean;
}

export interface Poll {
  readonly kind: 'poll';
  readonly authorId: number;
  readonly question: string;
  readonly questionPending: boolean;
  readonly options: readonly PollOption[];
  /** The `idx` of the user's next new option. */
  readonly nextIdx: number;
}

export interface TodoTask {
  /** `"<idx>,<sender_id>"`, or `"<idx>,canned"` for the tasks written with `/todo`. */
  readonly key: string;
  readonly task: string;
  readonly desc: string;
  readonly completed: boolean;
  readonly pending: boolean;
}

export interface Todo {
  readonly kind: 'todo';
  readonly authorId: number;
  readonly title: string;
  readonly titlePending: boolean;
  readonly tasks: readonly TodoTask[];
  /** The `key` (index) of the user's next new task. */
  readonly nextKey: number;
}

export type Widget = Poll | Todo;

/** Zulip's MAX_IDX. */
const MAX_IDX = 1000;

type Obj = Record<string, unknown>;
const parse = (s: string): Obj | undefined => {
  try {
    const v: unknown = JSON.parse(s);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
  } catch {
    return undefined;
  }
};
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const isIdx = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_IDX;

/** Server submessages by id, then the pending ones in the order they were made (-1, -2, ...). */
export function inOrder(subs: readonly LocalSubmessage[]): LocalSubmessage[] {
  const server = subs.filter((s) => s.id > 0).sort((a, b) => a.id - b.id);
  const pending = subs.filter((s) => s.id < 0).sort((a, b) => b.id - a.id);
  return [...server, ...pending];
}

/** The widget the message carries, or null (no submessages, or a widget this app does not show). */
export function widgetOf(subs: readonly LocalSubmessage[] | undefined, ownUserId: number | null): Widget | null {
  if (subs === undefined || subs.length === 0) return null;
  const [first, ...events] = inOrder(subs).filter((s) => s.msg_type === 'widget');
  const decl = first === undefined ? undefined : parse(first.content);
  const extra = decl?.extra_data;
  const data = typeof extra === 'object' && extra !== null ? (extra as Obj) : {};
  if (first === undefined || decl === undefined) return null;
  if (decl.widget_type === 'poll') return pollOf(first.sender_id, data, events, ownUserId);
  if (decl.widget_type === 'todo') return todoOf(first.sender_id, data, events, ownUserId);
  return null;
}

function pollOf(authorId: number, data: Obj, events: readonly LocalSubmessage[], me: number | null): Poll {
  let question = str(data.question) ?? '';
  let questionPending = false;
  let nextIdx = 1;
  const options = new Map<string, { text: string; voters: Set<number>; pending: boolean }>();
  const add = (key: string, text: string, pending: boolean) => {
    // /poll itself does not stop duplicates; the clients hide them.
    if ([...options.values()].some((o) => o.text === text)) return;
    options.set(key, { text, voters: new Set(), pending });
  };
  const canned = Array.isArray(data.options) ? data.options : [];
  canned.forEach((o, i) => typeof o === 'string' && add(`canned,${i}`, o, false));
  for (const s of events) {
    const e = parse(s.content);
    const pending = s.id < 0;
    if (e?.type === 'new_option' && isIdx(e.idx) && str(e.option) !== undefined) {
      add(`${s.sender_id},${e.idx}`, e.option as string, pending);
      if (s.sender_id === me && e.idx >= nextIdx) nextIdx = e.idx + 1;
    } else if (e?.type === 'question' && s.sender_id === authorId && str(e.question) !== undefined) {
      question = e.question as string;
      questionPending = pending;
    } else if (e?.type === 'vote' && typeof e.key === 'string') {
      const o = options.get(e.key);
      if (o === undefined) continue;
      if (e.vote === 1) o.voters.add(s.sender_id);
      else if (e.vote === -1) o.voters.delete(s.sender_id);
      else continue;
      if (pending) o.pending = true;
    }
  }
  return { kind: 'poll', authorId, question, questionPending, nextIdx, options: [...options].map(([key, o]) => ({ key, text: o.text, voters: [...o.voters], pending: o.pending })) };
}

function todoOf(authorId: number, data: Obj, events: readonly LocalSubmessage[], me: number | null): Todo {
  let title = str(data.task_list_title) ?? '';
  let titlePending = false;
  let nextKey = 1;
  const tasks = new Map<string, { task: string; desc: string; completed: boolean; pending: boolean }>();
  const add = (key: string, task: string, desc: string, completed: boolean, pending: boolean) => {
    // A task name already in the list is not added again (web's name_in_use).
    if ([...tasks.values()].some((t) => t.task === task)) return;
    tasks.set(key, { task, desc, completed, pending });
  };
  const canned = Array.isArray(data.tasks) ? data.tasks : [];
  canned.forEach((t, i) => {
    const o = typeof t === 'object' && t !== null ? (t as Obj) : {};
    const task = str(o.task);
    if (task !== undefined) add(`${i},canned`, task, str(o.desc) ?? '', false, false);
  });
  for (const s of events) {
    const e = parse(s.content);
    const pending = s.id < 0;
    if (e?.type === 'new_task' && isIdx(e.key) && str(e.task) !== undefined) {
      add(`${e.key},${s.sender_id}`, e.task as string, str(e.desc) ?? '', e.completed === true, pending);
      if (s.sender_id === me && e.key >= nextKey) nextKey = e.key + 1;
    } else if (e?.type === 'strike' && typeof e.key === 'string') {
      const t = tasks.get(e.key);
      if (t === undefined) continue;
      t.completed = !t.completed;
      if (pending) t.pending = true;
    } else if (e?.type === 'new_task_list_title' && s.sender_id === authorId && str(e.title) !== undefined) {
      title = e.title as string;
      titlePending = pending;
    }
  }
  return { kind: 'todo', authorId, title, titlePending, nextKey, tasks: [...tasks].map(([key, t]) => ({ key, ...t })) };
}

/** The vote a click on an option sends: +1, or -1 when the user has voted for it (poll_data's vote_event). */
export const voteFor = (o: PollOption, me: number | null): 1 | -1 => (me !== null && o.voters.includes(me) ? -1 : 1);

/** A vote button's accessible name: what it does, then the count it shows ("Vote for Pizza, 1 vote"). */
export const voteLabel = (o: PollOption): string => `Vote for ${o.text}, ${o.voters.length} ${o.voters.length === 1 ? 'vote' : 'votes'}`;

/** Who voted for an option, by full name, as Zulip lists them after the option. */
export const voterNames = (o: PollOption, name: (id: number) => string | undefined): string => o.voters.map((v) => name(v) ?? 'Unknown user').join(', ');

/** What a composer's preview says about a `/poll` or `/todo` message (the server makes the widget), or null. */
export function slashWidgetHint(text: string): string | null {
  const first = text.trimStart().split(/\s/)[0];
  if (first === '/poll') return 'Sends a poll: the question after /poll, then one option on each line.';
  if (first === '/todo') return 'Sends a to-do list: the title after /todo, then one task on each line (a description after a colon).';
  return null;
}
