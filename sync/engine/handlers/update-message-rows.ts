/**
 * Per-user rows and flags after an `update_message` (the reference server's
 * server/model/edit/apply.ts, which follows Zulip's do_update_message):
 *
 *  - The event's `flags` are the recipient's row flags for `message_id`; a recipient without a row
 *    (a subscriber reading channel history) gets `["read"]`, while `GET /messages` reports such a
 *    message as `read` + `historical`. So flags with anything besides `read` prove a row; exactly
 *    `["read"]` is a row only when the rule below says we keep or gain one.
 *  - A channel move deletes the rows of users not subscribed to the destination, and gives
 *    destination subscribers a `read` row when the destination's history is protected (existing
 *    rows stay). Other edits leave rows alone.
 *
 * Difference from real Zulip (noted, mirrored here as the reference server does it): Zulip drops
 * only the rows of the origin channel's subscribers not in the destination, while the reference
 * server also drops those of non-subscribers holding a row (e.g. they starred channel history);
 * with a cache that evicts messages moved into unsubscribed channels, both give the same result
 * except for a move between two channels the user is not subscribed to (he hears no event).
 */
import type { EventOf } from '../../api/index.js';
import { FLAG, flagsToBits, HAS_ROW, NO_ROW_FLAGS } from '../../db/flags.js';
import type { LocalDb } from '../../db/open.js';
import { getChannel } from '../../db/queries/channels.js';
import { setFlagBits, storedFlagRows } from '../../db/queries/message-rows.js';
import type { ChangeCollector } from '../../db/changes.js';

type UpdateMessageEvent = EventOf<'update_message'>;

/** Stored flag bits (with `HAS_ROW`) of the cached ones among `ids`, read before the edit. */
export function storedBits(db: LocalDb, ids: readonly number[]): Map<number, number> {
  const rows = storedFlagRows(db, ids);
  return new Map(rows.map((r) => [r.id, r.flags]));
}

/** Whether we hold a row after the event, given whether we held one before. */
export function rowAfter(db: LocalDb, e: UpdateMessageEvent, before: boolean): boolean {
  if (e.new_stream_id === undefined || e.new_stream_id === e.stream_id) return before;
  const dest = getChannel(db, e.new_stream_id);
  if (dest?.subscription == null) return false;
  return before || !dest.channel.history_public_to_subscribers;
}

/** The flag bits (with `HAS_ROW`) a message ends with; `eventFlags` only for `message_id`. */
export function bitsAfter(db: LocalDb, e: UpdateMessageEvent, stored: number, eventFlags: readonly string[] | undefined): number {
  const before = (stored & HAS_ROW) !== 0;
  if (eventFlags !== undefined) {
    const bits = flagsToBits(eventFlags);
    const row = (bits & ~FLAG.read) !== 0 || rowAfter(db, e, before);
    return row ? bits | HAS_ROW : NO_ROW_FLAGS;
  }
  const row = rowAfter(db, e, before);
  if (row === before) return stored;
  return row ? FLAG.read | HAS_ROW : NO_ROW_FLAGS;
}

/** Write the final flags of every cached message the event names (after the edit itself). */
export function applyRows(db: LocalDb, e: UpdateMessageEvent, before: ReadonlyMap<number, number>, changes: ChangeCollector): void {
  for (const [id, stored] of before) {
    const bits = bitsAfter(db, e, stored, id === e.message_id ? e.flags : undefined);
    if (setFlagBits(db, id, bits)) {
      changes.messageUpdated(id);
      if ((bits & FLAG.read) !== (stored & FLAG.read)) changes.touched('unread');
    }
  }
}
