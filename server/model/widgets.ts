/**
 * Polls and to-do lists: Zulip's widgets on submessages (zerver/lib/widget.py,
 * zerver/views/submessage.py, zerver/actions/submessage.py, validate_poll_data and
 * validate_todo_data in zerver/lib/validator.py).
 *
 * A message whose first whitespace-delimited token is `/poll` or `/todo` gets, once stored, a
 * `widget` submessage from its sender: `{"widget_type": "poll", "extra_data": {question, options}}`
 * or `{"widget_type": "todo", "extra_data": {task_list_title, tasks: [{task, desc}]}}`. The text
 * after the command on its first line is the question or title; each later non-empty line is an
 * option or a task (one leading `-` or `*` dropped; a task's description follows its first `:`).
 * The message's content is stored as sent.
 *
 * Later interactions (votes, new options, a new question; new tasks, strikes, a new title) are
 * further submessages added with `POST /submessage`, checked as Zulip checks them, and sent as
 * `submessage` events to everyone who hears about changes to the message.
 */
import { emit } from '../events/emit.js';
import { badRequest } from '../http/errors.js';
import type { ServerState } from '../state.js';
import { sql } from '../db/statements.js';
import { accessMessage, messageEventRecipients } from './reactions.js';
import type { MessageRow } from './messages.js';
import type { UserRow } from './users.js';

/** The highest option or task index a client may use (Zulip's MAX_IDX). */
export const MAX_IDX = 1000;

type WidgetType = 'poll' | 'todo';

/** One option or task line: trimmed, one leading list marker dropped. */
const itemOf = (line: string): string => line.trim().replace(/^\s*[-*]?\s*/, '');

/** The widget a message's content declares, as widget.py reads it; null for an ordinary message. */
export function widgetOf(content: string): { widget_type: WidgetType; extra_data: Record<string, unknown> } | null {
  const first = content.split(/\s+/)[0] ?? '';
  const type = first.startsWith('/') ? first.slice(1) : '';
  if (type !== 'poll' && type !== 'todo') return null;
  const [head = '', ...rest] = content.replace(first, '').split(/\r\n|\r|\n/);
  const title = head.trim();
  const items = rest.map(itemOf).filter((s) => s.length > 0);
  if (type === 'poll') return { widget_type: 'poll', extra_data: { question: title, options: items } };
  const tasks = items.map((t) => {
    const at = t.indexOf(':');
    return at < 0 ? { task: t.trim(), desc: '' } : { task: t.slice(0, at).trim(), desc: t.slice(at + 1).trim() };
  });
  return { widget_type: 'todo', extra_data: { task_list_title: title, tasks } };
}

/** Store a submessage and tell everyone who hears about the message (do_add_submessage). */
export function addSubmessage(srv: ServerState, m: Pick<MessageRow, 'id' | 'channel_id'>, senderId: number, msgType: string, content: string): number {
  const info = sql(srv, 'INSERT INTO submessages (message_id, sender_id, msg_type, content) VALUES (?, ?, ?, ?)').run(m.id, senderId, msgType, content);
  const id = Number(info.lastInsertRowid);
  emit(srv, messageEventRecipients(srv, m), { type: 'submessage', msg_type: msgType, message_id: m.id, submessage_id: id, sender_id: senderId, content });
  return id;
}

/** After a send: the widget submessage of a `/poll` or `/todo` message, from its sender. */
export function addWidgetOnSend(srv: ServerState, m: Pick<MessageRow, 'id' | 'channel_id'>, senderId: number, content: string): void {
  const w = widgetOf(content);
  if (w) sql(srv, 'INSERT INTO submessages (message_id, sender_id, msg_type, content) VALUES (?, ?, ?, ?)').run(m.id, senderId, 'widget', JSON.stringify(w));
}

/** `POST /submessage` (process_submessage). */
export function processSubmessage(srv: ServerState, user: UserRow, messageId: number, msgType: string, content: string): void {
  const m = accessMessage(srv, user, messageId);
  // The first submessage on a message must come from its sender (verify_submessage_sender).
  if (m.sender_id !== user.id && !sql(srv, 'SELECT 1 FROM submessages WHERE message_id = ? AND sender_id = ?').get(m.id, m.sender_id)) {
    throw badRequest('You cannot attach a submessage to this message.');
  }
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch {
    throw badRequest('Invalid json for submessage');
  }
  const type = widgetTypeOf(srv, m.id);
  const author = m.sender_id === user.id;
  if (type === 'poll') validatePollData(data, author);
  if (type === 'todo') validateTodoData(data, author);
  addSubmessage(srv, m, user.id, msgType, content);
}

/** The widget type of the message's first submessage (get_widget_type), if it declares one. */
function widgetTypeOf(srv: ServerState, messageId: number): string | undefined {
  const first = sql(srv, 'SELECT content FROM submessages WHERE message_id = ? ORDER BY id LIMIT 1').pluck().get(messageId) as string | undefined;
  if (first === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(first);
    return isObject(v) && typeof v.widget_type === 'string' ? v.widget_type : undefined;
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

type Check = (name: string, v: unknown) => void;
const str: Check = (name, v) => {
  if (typeof v !== 'string') throw badRequest(`${name} is not a string`);
};
const int: Check = (name, v) => {
  if (typeof v !== 'number' || !Number.isInteger(v)) throw badRequest(`${name} is not an integer`);
};
const bool: Check = (name, v) => {
  if (typeof v !== 'boolean') throw badRequest(`${name} is not a boolean`);
};
const idx: Check = (name, v) => {
  int(name, v);
  if ((v as number) < 0 || (v as number) > MAX_IDX) throw badRequest(`${name} is not in the range 0 to ${MAX_IDX}`);
};

/** check_dict_only: exactly these keys, each checked. */
function dictOnly(what: string, data: Record<string, unknown>, keys: Record<string, Check>): void {
  for (const [k, check] of Object.entries(keys)) {
    if (!(k in data)) throw badRequest(`${what} is missing key ${k}`);
    check(`${what}["${k}"]`, data[k]);
  }
  const extra = Object.keys(data).filter((k) => !(k in keys));
  if (extra.length > 0) throw badRequest(`Unexpected arguments: ${extra.join(', ')}`);
}

function typed(what: string, data: unknown): Record<string, unknown> & { type: string } {
  if (!isObject(data)) throw badRequest(`${what} is not a dict`);
  if (!('type' in data)) throw badRequest(`${what} is missing key type`);
  str(`${what}["type"]`, data.type);
  return data as Record<string, unknown> & { type: string };
}

/** validate_poll_data: a vote (+1 or -1), a new option, or (the author only) a new question. */
export function validatePollData(raw: unknown, isAuthor: boolean): void {
  const d = typed('poll data', raw);
  if (d.type === 'vote') {
    dictOnly('poll data', d, { type: str, key: str, vote: int });
    if (d.vote !== 1 && d.vote !== -1) throw badRequest('Invalid poll data["vote"]');
    return;
  }
  if (d.type === 'question') {
    if (!isAuthor) throw badRequest("You can't edit a question unless you are the author.");
    dictOnly('poll data', d, { type: str, question: str });
    return;
  }
  if (d.type === 'new_option') {
    dictOnly('poll data', d, { type: str, option: str, idx });
    return;
  }
  throw badRequest(`Unknown type for poll data: ${d.type}`);
}

/** validate_todo_data: a new task, a strike (toggle), or (the author only) a new title. */
export function validateTodoData(raw: unknown, isAuthor: boolean): void {
  const d = typed('todo data', raw);
  if (d.type === 'new_task_list_title') {
    if (!isAuthor) throw badRequest("You can't edit the task list title unless you are the author.");
    dictOnly('todo data', d, { type: str, title: str });
    return;
  }
  if (d.type === 'new_task') {
    dictOnly('todo data', d, { type: str, key: idx, task: str, desc: str, completed: bool });
    return;
  }
  if (d.type === 'strike') {
    dictOnly('todo data', d, { type: str, key: str });
    return;
  }
  throw badRequest(`Unknown type for todo data: ${d.type}`);
}
