/**
 * The outbox's side of the local store, as the session needs it: re-applying pending rows over
 * server changes (rebase), retiring local echoes of sent messages, adopting snippets created
 * offline, and reading the server's state back when a row is dropped. Database work runs in the
 * caller's transaction; only `refreshFromServer` touches the network (and holds no transaction
 * across it).
 */
import { isApiError, type ApiConnection } from '../api/index.js';
import type { LocalDb } from '../db/open.js';
import { getStoredMessage, LOCAL_ECHO_MIN_ID, upsertMessages } from '../db/queries/messages.js';
import { storeRegisterSnapshot } from '../db/queries/snapshot.js';
import { cachedStatement } from '../db/queries/statements.js';
import { kindsForAreas, localEffectOf } from '../outbox/local-effects.js';
import { localIdOfEcho, MESSAGE_SEND_KIND, removeEcho } from '../outbox/mutations/message-send.js';
import { readState } from '../outbox/mutations/read-state.js';
import { adoptCreatedSnippet } from '../outbox/mutations/snippet-local.js';
import type { OutboxRow } from '../outbox/store.js';
import { fetchByIds } from './backfill.js';
import { ChangeCollector } from './changes.js';

interface LiveRow {
  id: number;
  kind: string;
  args: string;
  base: string;
}

const LIVE = "state NOT IN ('done', 'discarded')";
/** Messages re-read per request when undoing (the server's recommended batch). */
const REFRESH_BATCH = 1000;

function reapplyRows(db: LocalDb, rows: readonly LiveRow[], changes: ChangeCollector): number {
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
  const rows = cachedStatement(
    db,
    `SELECT id, kind, args, base FROM outbox WHERE ${LIVE}
       AND (entity_key IN (SELECT 'message:' || value FROM json_each(?)) OR kind IN (SELECT value FROM json_each(?)))
     ORDER BY id`,
  ).all(JSON.stringify(ids), JSON.stringify(kinds)) as LiveRow[];
  return reapplyRows(db, rows, changes);
}

/** Every live row, in order (start, cache resets). */
export function reapplyAll(db: LocalDb, changes: ChangeCollector): number {
  return reapplyRows(db, cachedStatement(db, `SELECT id, kind, args, base FROM outbox WHERE ${LIVE} ORDER BY id`).all() as LiveRow[], changes);
}

/** The server id a finished send row landed as (from its history), if it says. */
export function landedIdOf(historyJson: string): number | undefined {
  const history: unknown = JSON.parse(historyJson);
  if (!Array.isArray(history)) return undefined;
  for (const h of history) {
    if (typeof h !== 'object' || h === null || !('note' in h)) continue;
    const note: unknown = h.note;
    if (typeof note === 'object' && note !== null && 'created_id' in note && typeof note.created_id === 'number') return note.created_id;
  }
  return undefined;
}

/** Server ids the done send rows of a conversation landed as (except `localId`'s own). */
export function claimedIds(db: LocalDb, entityKey: string, localId: string): Set<number> {
  const rows = cachedStatement(db, `SELECT id, history FROM outbox WHERE kind = '${MESSAGE_SEND_KIND}' AND entity_key = ? AND state = 'done'`).all(entityKey) as Array<{
    id: number;
    history: string;
  }>;
  const out = new Set<number>();
  for (const r of rows) {
    const landed = String(r.id) === localId ? undefined : landedIdOf(r.history);
    if (landed !== undefined) out.add(landed);
  }
  return out;
}

/**
 * Echoes whose send is over: the echoed event named them (`localEchoes`), the row was discarded
 * or pruned, or it landed and the real message is cached now. Cheap when nothing is being sent:
 * one primary-key range probe.
 */
export function retireEchoes(db: LocalDb, echoed: ReadonlyArray<{ local_message_id: string }>, changes: ChangeCollector): void {
  for (const e of echoed) if (/^[1-9]\d*$/.test(e.local_message_id)) removeEcho(db, e.local_message_id, changes);
  const echoes = cachedStatement(db, 'SELECT id FROM messages WHERE id > ?').pluck().all(LOCAL_ECHO_MIN_ID) as number[];
  for (const echoId of echoes) {
    const localId = localIdOfEcho(echoId);
    if (localId === undefined) continue;
    const row = cachedStatement(db, 'SELECT state, history FROM outbox WHERE id = ?').get(Number(localId)) as { state: string; history: string } | undefined;
    if (row && row.state !== 'done' && row.state !== 'discarded') continue;
    const landed = row?.state === 'done' ? landedIdOf(row.history) : undefined;
    // Landed but not cached yet: the echo stays until the real message arrives.
    if (landed !== undefined && !getStoredMessage(db, landed)) continue;
    removeEcho(db, localId, changes);
  }
}

/** A create landed (inside the pusher's `succeeded` transaction): local copies follow it. */
export function onLanded(db: LocalDb, entityKey: string, createdId: number | string, changes: ChangeCollector): void {
  const tmp = /^snippet:(tmp-\d+)$/.exec(entityKey);
  if (tmp?.[1] !== undefined && typeof createdId === 'number') {
    adoptCreatedSnippet(db, tmp[1], createdId);
    changes.touched('saved_snippets');
  }
  if (entityKey.startsWith('conversation:')) retireEchoes(db, [], changes);
}

/** What must be re-read from the server to undo a dropped row's effect. */
export interface Undo {
  readonly messageIds: readonly number[];
  readonly refetch: readonly string[];
}

export function undoOf(db: LocalDb, row: Pick<OutboxRow, 'kind' | 'args'>): Undo | undefined {
  const e = localEffectOf(row.kind);
  if (!e || row.kind === MESSAGE_SEND_KIND) return undefined;
  let messageIds = e.messageIds(row.args);
  if (row.kind === 'message_move' && messageIds[0] !== undefined) {
    // The optimistic move took the cached rest of the topic along: re-read where it put them.
    const at = cachedStatement(db, 'SELECT channel_id, topic FROM messages WHERE id = ?').get(messageIds[0]) as { channel_id: number | null; topic: string } | undefined;
    if (at && at.channel_id !== null) {
      const moved = cachedStatement(db, 'SELECT id FROM messages WHERE channel_id = ? AND topic = ? COLLATE NOCASE AND id < ?').pluck().all(at.channel_id, at.topic, LOCAL_ECHO_MIN_ID) as number[];
      messageIds = [...new Set([...messageIds, ...moved])];
    }
  }
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
