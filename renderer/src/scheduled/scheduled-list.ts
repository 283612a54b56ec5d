/**
 * Pure: the scheduled-messages list. Sorted by delivery time (then id); each entry's changes not
 * yet on the server (outbox rows whose target is the message, by server id or by the `tmp-N` its
 * create still carries while the list shows it as `-N`); and what a failed one says.
 */
import type { OutboxRowView } from '../../../sync/protocol/outbox.js';

/** Outbox rows (unfinished) about one object: `prefix` is `scheduled_message` or `snippet`. */
export function pendingRowsFor(rows: readonly OutboxRowView[], prefix: string, id: number): OutboxRowView[] {
  const targets = new Set([`${prefix}:${id}`]);
  if (id < 0) targets.add(`${prefix}:tmp-${-id}`);
  return rows.filter((r) => targets.has(r.target) && r.state !== 'done' && r.state !== 'discarded');
}

/** One word for a row's state, for the "not on the server yet" marker. */
export function pendingLabel(rows: readonly OutboxRowView[]): string | null {
  if (rows.length === 0) return null;
  if (rows.some((r) => r.state === 'failed' || r.state === 'conflict')) return 'change failed';
  return 'not sent yet';
}

/** The first error of a failed outbox row, as a sentence (null when none failed). */
export function pendingError(rows: readonly OutboxRowView[]): string | null {
  return rows.find((r) => (r.state === 'failed' || r.state === 'conflict') && r.last_error)?.last_error?.message ?? null;
}

export function sortByDelivery<T extends { scheduled_delivery_timestamp: number; scheduled_message_id: number }>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp || a.scheduled_message_id - b.scheduled_message_id);
}

/** What Zulip web says about a message the server could not send at its time. */
export const FAILED_TEXT = 'Could not be sent at the scheduled time (the Notification Bot’s direct message says why). Edit it with a new time to send it, or delete it.';
