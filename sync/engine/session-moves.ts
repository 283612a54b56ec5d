/**
 * What a channel move means for a cache that only hears about subscribed channels (found by the
 * convergence test):
 *
 *  - Moved INTO a channel we are not subscribed to: the server drops our per-user rows (the
 *    messages become channel history: `read` + `historical`) and sends no further events about
 *    them, so a cached copy would go stale (edits, reactions, deletes unseen). They leave the cache;
 *    a channel narrow on that channel fetches them again as history.
 *  - Moved INTO a subscribed channel while not cached (they were in an unsubscribed channel): the
 *    `update_message` event names ids we have no copy of. They are queued durably (same
 *    transaction as the events) and fetched by id before the next poll.
 *
 * Runs inside the apply transaction, after STORE's handlers.
 */
import { getMessages, type ApiConnection, type ZulipEvent } from '../api/index.js';
import type { LocalDb } from '../db/open.js';
import { deleteMessages, upsertMessages } from '../db/queries/messages.js';
import { getEngineSetting, setEngineSetting } from '../db/queries/state.js';
import { FETCH_FORMAT } from './backfill.js';
import { ChangeCollector, type StoreChanges } from './changes.js';

const PENDING_FETCH = 'sync.pending_fetch';

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
    const res = await getMessages(conn, { message_ids: batch, narrow: [], ...FETCH_FORMAT }, { signal });
    const changes = new ChangeCollector();
    db.transaction(() => {
      // Skip any that meanwhile moved out again or were deleted (no longer pending).
      const still = new Set(pending(db));
      upsertMessages(db, res.messages.filter((m) => still.has(m.id)), changes);
      const left = [...still].filter((id) => !batch.includes(id));
      setEngineSetting(db, PENDING_FETCH, left.length > 0 ? left : undefined);
    })();
    if (!changes.empty) onChanges(changes.freeze());
  }
}

export function hasPendingMoves(db: LocalDb): boolean {
  return pending(db).length > 0;
}
