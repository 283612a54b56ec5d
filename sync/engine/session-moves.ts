/**
 * What a channel move means for a cache that only hears about subscribed channels (found by the
 * convergence test):
 *
 *  - Moved INTO a channel we are not subscribed to: the server drops our per-user rows (the
 *    messages become channel history: `read` + `historical`) and sends no further events about
 *    them, so a cached copy would go stale (edits, reactions, deletes unseen). They leave the cache;
 *    a channel narrow on that channel fetches them again as history.
 *  - Moved INTO a subscribed channel while not cached (they were in an unsubscribed channel): the
 *    `update_message` event names ids we have no copy of. Likewise starring a message we do not
 *    have (another device starred channel history: the server creates a `historical` row). They
 *    are queued durably (same transaction as the events) and fetched by id before the next poll.
 *
 * Runs inside the apply transaction, after STORE's handlers.
 */
import type { ApiConnection, ZulipEvent } from '../api/index.js';
import type { LocalDb } from '../db/open.js';
import { deleteMessages, upsertMessages } from '../db/queries/messages.js';
import { getEngineSetting, setEngineSetting } from '../db/queries/state.js';
import { fetchByIds } from './backfill.js';
import { ChangeCollector, type StoreChanges } from './changes.js';

const PENDING_FETCH = 'sync.pending_fetch';
const HISTORICAL = 64; // FLAG.historical

/**
 * Before the handlers run: which edited messages are channel history for us (`historical`). The
 * `update_message` event's `flags` are the recipient's flags for `message_id`, and a recipient
 * without a per-user row gets them without `historical` (the reference server sends `[]`-like
 * flags there); the handler copies them. `keepHistorical` puts the bit back.
 */
export function historicalBefore(db: LocalDb, events: readonly ZulipEvent[]): number[] {
  const get = db.prepare('SELECT flags FROM messages WHERE id = ?').pluck();
  const out: number[] = [];
  for (const e of events) {
    if (e.type !== 'update_message') continue;
    const f = get.get(e.message_id) as number | undefined;
    if (f !== undefined && (f & 64) !== 0) out.push(e.message_id);
  }
  return out;
}

export function keepHistorical(db: LocalDb, ids: readonly number[], changes: ChangeCollector): void {
  // Only the historical bit: `read` follows the event (a historical row may be unread).
  const fix = db.prepare(`UPDATE messages SET flags = flags | ${HISTORICAL} WHERE id = ? AND (flags & ${HISTORICAL}) = 0`);
  for (const id of ids) if (fix.run(id).changes > 0) changes.messageUpdated(id);
}

function pending(db: LocalDb): number[] {
  const v = getEngineSetting(db, PENDING_FETCH);
  return Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : [];
}

export function reconcileMoves(db: LocalDb, events: readonly ZulipEvent[], changes: ChangeCollector): void {
  const toFetch = new Set(pending(db));
  const subscribed = db.prepare('SELECT 1 FROM subscriptions WHERE channel_id = ?').pluck();
  const cached = db.prepare('SELECT 1 FROM messages WHERE id = ?').pluck();
  let touched = false;
  for (const e of events) {
    if (e.type === 'update_message_flags' && e.op === 'add' && e.flag === 'starred') {
      for (const id of e.messages) if (cached.get(id) === undefined && !toFetch.has(id)) {
        toFetch.add(id);
        touched = true;
      }
      continue;
    }
    if (e.type !== 'update_message' || e.new_stream_id === undefined) continue;
    touched = true;
    if (subscribed.get(e.new_stream_id) === undefined) {
      deleteMessages(db, e.message_ids, changes);
      for (const id of e.message_ids) toFetch.delete(id);
    } else {
      for (const id of e.message_ids) if (cached.get(id) === undefined) toFetch.add(id);
    }
  }
  if (touched) setEngineSetting(db, PENDING_FETCH, toFetch.size > 0 ? [...toFetch].sort((a, b) => a - b) : undefined);
}

/** Fetch the queued ids (batches of 1,000) and store them; clears the queue when done. */
export async function fetchPendingMoves(conn: ApiConnection, db: LocalDb, signal: AbortSignal, onChanges: (c: StoreChanges) => void): Promise<void> {
  const ids = pending(db);
  for (let i = 0; i < ids.length; i += 1000) {
    const batch = ids.slice(i, i + 1000);
    const messages = await fetchByIds(conn, batch, signal);
    const changes = new ChangeCollector();
    db.transaction(() => {
      // Skip any that meanwhile moved out again or were deleted (no longer pending).
      const still = new Set(pending(db));
      upsertMessages(db, messages.filter((m) => still.has(m.id)), changes);
      const left = [...still].filter((id) => !batch.includes(id));
      setEngineSetting(db, PENDING_FETCH, left.length > 0 ? left : undefined);
    })();
    if (!changes.empty) onChanges(changes.freeze());
  }
}

export function hasPendingMoves(db: LocalDb): boolean {
  return pending(db).length > 0;
}
