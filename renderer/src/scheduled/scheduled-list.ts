/**
 * Pure: the scheduled-messages list. Sorted by delivery time (then id); each entry's changes not
 * yet on the server (outbox rows whose target is the message, by server id or by the `tmp-N` its
 * create still carries while the list shows it as `-N`); and what a failed one says.
 */
import type { KindName, OutboxRowOf } from '../../../sync/outbox/registry.js';
import type { OutboxRowView } from '../../../sync/protocol/outbox.js';

/** Outbox rows (unfinished) about one object: `prefix` is `scheduled_message` or `snippet`. */
export function pendingRowsFor(rows: readonly OutboxRowOf[], prefix: string, id: number): OutboxRowOf[] {
  const targets = new Set([`${prefix}:${id}`]);
  if (id < 0) targets.add(`${prefix}:tmp-${-id}`);
  return rows.filter((r) => targets.has(r.target) && r.state !== 'done' && r.state !== 'discarded');
}

/** One word for a row's state, for the "not on the server yet" marker. */
export function pendingLabel(rows: readonly OutboxRowOf[]): string | null {
  if (rows.length === 0) return null;
  if (refusedForTime(rows)) return 'not scheduled';
  if (rows.some((r) => r.state === 'failed' || r.state === 'conflict')) return 'change failed';
  if (rows.some(asksSendNow)) return 'sending now';
  return 'not sent yet';
}

const CREATE_KIND = 'create_scheduled_message' satisfies KindName;

/** A send-now row, or a create the user asked to send now before it was ever scheduled (it carries `send_now_at`). */
function asksSendNow(r: OutboxRowOf): boolean {
  if (r.kind === 'send_scheduled_message_now') return true;
  return r.kind === 'create_scheduled_message' && r.args !== null && r.args.send_now_at !== undefined;
}

/** Whether the user already asked to send it now (a row not finished): the button is not offered twice. */
export const sendingNow = (rows: readonly OutboxRowOf[]): boolean => rows.some((r) => asksSendNow(r) && r.state !== 'failed' && r.state !== 'conflict');

/**
 * Whether the server refused to create it because its time had passed (it was scheduled offline
 * and the time came before the server saw it): the list offers "Send now" and "Pick a new time".
 */
export const refusedForTime = (rows: readonly Pick<OutboxRowView, 'kind' | 'state' | 'last_error'>[]): boolean =>
  rows.some((r) => r.kind === CREATE_KIND && r.state === 'failed' && /in the future/i.test(r.last_error?.message ?? ''));

/** What the list says of a scheduled message whose create was refused for its time. */
export const REFUSED_FOR_TIME_TEXT = 'Its time passed before the server got it, so it was not scheduled. Send it now, or pick a new time; the text is kept.';

/**
 * The people a scheduled direct message goes to, as its picker starts: the others, or oneself
 * for a note to self (as the server lists them).
 */
export function dmPeople(to: number | readonly number[], self: number | null): number[] {
  const ids = [...new Set(Array.isArray(to) ? to : [to])];
  const others = ids.filter((id) => id !== self);
  return others.length > 0 ? others : ids;
}

/** The new recipients when the picked people differ from `before` (order aside), else null. */
export function changedRecipients(before: readonly number[], picked: readonly number[]): number[] | null {
  const a = [...new Set(before)].sort((x, y) => x - y);
  const b = [...new Set(picked)].sort((x, y) => x - y);
  return a.length === b.length && a.every((v, i) => v === b[i]) ? null : [...new Set(picked)];
}

/** The first error of a failed outbox row, as a sentence (null when none failed). */
export function pendingError(rows: readonly OutboxRowOf[]): string | null {
  return rows.find((r) => (r.state === 'failed' || r.state === 'conflict') && r.last_error)?.last_error?.message ?? null;
}

export function sortByDelivery<T extends { scheduled_delivery_timestamp: number; scheduled_message_id: number }>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp || a.scheduled_message_id - b.scheduled_message_id);
}

/** What Zulip web says about a message the server could not send at its time. */
export const FAILED_TEXT = 'Could not be sent at the scheduled time (the Notification Bot’s direct message says why). Edit it with a new time, send it now, or delete it.';

/** A scheduled message to a channel (the server says `stream` or `channel`), not a direct message. */
export const isChannel = (m: { type: string }): boolean => m.type === 'stream' || m.type === 'channel';
