/**
 * The outbox's side of the local store, as the session needs it: re-applying pending rows over
 * server changes (rebase), the conversations' landed ids, and reading the server's state back when a row is dropped. Database work runs in the
 * caller's transaction; only `refreshFromServer` touches the network (and holds no transaction
 * across it).
 */
import { isApiError, type ApiConnection } from '../api/index.js';
import type { LocalDb } from '../db/open.js';
import { LOCAL_ECHO_MIN_ID, upsertMessages } from '../db/queries/messages.js';
import { storeRegisterSnapshot } from '../db/queries/snapshot.js';
import { allLiveRows, doneRowsOf, liveRowsTouching, type LiveOutboxRow } from '../db/queries/outbox.js';
import { KINDS_OVER_MANY_MESSAGES, kindsForAreas, localEffectOf } from '../outbox/registry.js';
import { landedIdOf, MESSAGE_SEND_KIND, retireEchoes } from '../outbox/mutations/message-send.js';
import { readState } from '../outbox/mutations/read-state.js';
import type { OutboxRow } from '../outbox/store.js';
import { fetchByIds } from './backfill.js';
import { ChangeCollector } from '../db/changes.js';

export { landedIdOf, retireEchoes };

/** Messages re-read per request when undoing (the server's recommended batch). */
const REFRESH_BATCH = 1000;

function reapplyRows(db: LocalDb, rows: readonly LiveOutboxRow[], changes: ChangeCollector): number {
  for (const r of rows) localEffectOf(r.kind)?.apply(db, JSON.parse(r.args), JSON.parse(r.base), changes);
  return rows.length;
}

/**
 * Server changes may have overwritten optimistic effects: re-apply the live rows on the messages
 * and areas `changes` names (only those: a targeted query, not every pending row). Returns how
 * many rows were re-applied.
 */
export function reapplyTouched(db: LocalDb, changes: ChangeCollector): number {
  const ids = [...changes.added, ...changes.updated].filter((id) => id < LOCAL_ECHO_MIN_ID);
  const kinds = kindsForAreas(changes.areas);
  if (ids.length === 0 && kinds.length === 0) return 0;
  const many = ids.length > 0 ? KINDS_OVER_MANY_MESSAGES : [];
  const rows = liveRowsTouching(db, ids, [...kinds, ...many]);
  // Rows over many messages are re-applied only when they name a touched one (or an area asks).
  const touched = new Set(ids);
  const byArea = new Set(kinds);
  const wanted = rows.filter((r) => byArea.has(r.kind) || !many.includes(r.kind) || (localEffectOf(r.kind)?.messageIds(JSON.parse(r.args)) ?? []).some((id) => touched.has(id)));
  return reapplyRows(db, wanted, changes);
}

/** Every live row, in order (start, cache resets). */
export function reapplyAll(db: LocalDb, changes: ChangeCollector): number {
  return reapplyRows(db, allLiveRows(db), changes);
}

/** Server ids the done send rows of a conversation landed as (except `localId`'s own). */
export function claimedIds(db: LocalDb, entityKey: string, localId: string): Set<number> {
  const rows = doneRowsOf(db, MESSAGE_SEND_KIND, entityKey);
  const out = new Set<number>();
  for (const r of rows) {
    const landed = String(r.id) === localId ? undefined : landedIdOf(r.history);
    if (landed !== undefined) out.add(landed);
  }
  return out;
}

/** What must be re-read from the server to undo a dropped row's effect. */
export interface Undo {
  readonly messageIds: readonly number[];
  readonly refetch: readonly string[];
}

export function undoOf(db: LocalDb, row: Pick<OutboxRow, 'kind' | 'args'>): Undo | undefined {
  const e = localEffectOf(row.kind);
  if (!e || row.kind === MESSAGE_SEND_KIND) return undefined;
  const messageIds = [...new Set([...e.messageIds(row.args), ...e.undoMessageIds(db, row.args)])];
  return messageIds.length > 0 || e.refetch.length > 0 ? { messageIds, refetch: e.refetch } : undefined;
}

/**
 * Read the server's state of what `undos` name, store it, and re-apply the rows still pending on
 * it. Throws the API error when the server cannot be read (the caller keeps the undo for later).
 */
export async function refreshFromServer(conn: ApiConnection, db: LocalDb, undos: readonly Undo[], changes: ChangeCollector): Promise<void> {
  const ids = [...new Set(undos.flatMap((u) => u.messageIds))].filter((id) => id < LOCAL_ECHO_MIN_ID);
  const keys = [...new Set(undos.flatMap((u) => u.refetch))];
  let messages: Awaited<ReturnType<typeof fetchByIds>> = [];
  if (conn.supports(300)) for (let i = 0; i < ids.length; i += REFRESH_BATCH) messages = [...messages, ...(await fetchByIds(conn, ids.slice(i, i + REFRESH_BATCH)))];
  const snapshot = keys.length > 0 ? await readState(conn, keys) : undefined;
  db.transaction(() => {
    // A message the server no longer returns stays as cached: its deletion event says so.
    if (messages.length > 0) upsertMessages(db, messages, changes);
    if (snapshot) storeRegisterSnapshot(db, snapshot, changes);
    for (const id of ids) changes.messageUpdated(id);
    reapplyTouched(db, changes);
  })();
}

/** Transient failures (offline) keep an undo for later; anything else is logged and dropped. */
export function isRetryable(e: unknown): boolean {
  return isApiError(e) && e.transient;
}
