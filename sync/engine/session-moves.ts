/**
 * What the cache must fetch or forget beyond the events' own content (found by the convergence
 * test); the per-user rows themselves are kept by the handlers (update-message-rows.ts).
 *
 *  - Moved INTO a channel we are not subscribed to: the server drops our per-user rows (the
 *    messages become channel history) and sends no further events about them, so a cached copy
 *    would go stale (edits, reactions, deletes unseen). They leave the cache; a channel narrow on
 *    that channel fetches them again as history.
 *  - Moved INTO a subscribed channel while not cached (they were in an unsubscribed channel): the
 *    `update_message` event names ids we have no copy of. They are queued and fetched by id; so
 *    are cached ones moved out of an unsubscribed channel (a copy a channel narrow fetched there
 *    heard of no edit or reaction since).
 *  - A flag change on a message we do not cache (another device starred or un-read channel
 *    history): the server made a per-user row, so the message joins personal history. Queued, and
 *    remembered as having a row (its fetched flags may be exactly `read` + `historical`, which
 *    alone cannot tell). Marking read is left out: it never creates a row (a message without one
 *    counts as read already), so it only names messages that were in personal history anyway.
 *
 * The queue is durable (same transaction as the events) and fetched before the next poll. Runs
 * inside the apply transaction, after STORE's handlers.
 */
import type { ApiConnection, ZulipEvent } from '../api/index.js';
import type { LocalDb } from '../db/open.js';
import { isSubscribed } from '../db/queries/channels.js';
import { deleteMessages, isMessageCached, upsertMessages } from '../db/queries/messages.js';
import { getEngineSetting, setEngineSetting } from '../db/queries/state.js';
import { askRows, fetchByIds } from './backfill.js';
import { ChangeCollector, type StoreChanges } from '../db/changes.js';

const PENDING_FETCH = 'sync.pending_fetch';
/** Queued ids known to have a per-user row (a flag event named them). */
const PENDING_ROWS = 'sync.pending_rows';

function idList(db: LocalDb, name: string): number[] {
  const v = getEngineSetting(db, name);
  return Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : [];
}

function saveList(db: LocalDb, name: string, ids: Iterable<number>): void {
  const list = [...new Set(ids)].sort((a, b) => a - b);
  setEngineSetting(db, name, list.length > 0 ? list : undefined);
}

export function reconcileMoves(db: LocalDb, events: readonly ZulipEvent[], changes: ChangeCollector): void {
  const toFetch = new Set(idList(db, PENDING_FETCH));
  const rows = new Set(idList(db, PENDING_ROWS));
  let touched = false;
  for (const e of events) {
    if (e.type === 'update_message_flags') {
      if (e.op === 'add' && e.flag === 'read') continue;
      for (const id of e.messages) {
        if (isMessageCached(db, id)) continue;
        toFetch.add(id);
        rows.add(id);
        touched = true;
      }
      continue;
    }
    if (e.type !== 'update_message' || e.new_stream_id === undefined) continue;
    touched = true;
    if (!isSubscribed(db, e.new_stream_id)) {
      deleteMessages(db, e.message_ids, changes);
      for (const id of e.message_ids) {
        toFetch.delete(id);
        rows.delete(id);
      }
    } else {
      const fromUnsubscribed = e.stream_id !== undefined && !isSubscribed(db, e.stream_id);
      for (const id of e.message_ids) if (fromUnsubscribed || !isMessageCached(db, id)) toFetch.add(id);
    }
  }
  if (!touched) return;
  saveList(db, PENDING_FETCH, toFetch);
  saveList(db, PENDING_ROWS, [...rows].filter((id) => toFetch.has(id)));
}

/** Fetch the queued ids (batches of 1,000) and store them; clears the queue when done. */
export async function fetchPendingMoves(conn: ApiConnection, db: LocalDb, signal: AbortSignal, onChanges: (c: StoreChanges) => void): Promise<void> {
  const ids = idList(db, PENDING_FETCH);
  for (let i = 0; i < ids.length; i += 1000) {
    const batch = ids.slice(i, i + 1000);
    const messages = await fetchByIds(conn, batch, signal);
    const asked = await askRows(conn, messages, signal);
    const changes = new ChangeCollector();
    db.transaction(() => {
      // Skip any that meanwhile moved out again or were deleted (no longer pending).
      const still = new Set(idList(db, PENDING_FETCH));
      const rows = new Set(idList(db, PENDING_ROWS));
      // By id the server answers from history too: rows are known (a flag event), asked, or derived.
      const knownRows = new Map(asked);
      for (const id of rows) knownRows.set(id, true);
      upsertMessages(db, messages.filter((m) => still.has(m.id)), changes, { knownRows });
      saveList(db, PENDING_FETCH, [...still].filter((id) => !batch.includes(id)));
      saveList(db, PENDING_ROWS, [...rows].filter((id) => !batch.includes(id)));
    })();
    if (!changes.empty) onChanges(changes.freeze());
  }
}

export function hasPendingMoves(db: LocalDb): boolean {
  return idList(db, PENDING_FETCH).length > 0;
}
