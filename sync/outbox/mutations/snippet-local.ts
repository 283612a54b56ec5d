/**
 * Saved snippets in the local cache while their create is still queued. The table's id is an
 * INTEGER primary key, so a snippet created offline (`tmp-N`) is stored under `-N`: negative ids
 * never collide with the server's and readers see the snippet at once.
 */
import type { LocalDb } from '../../db/open.js';
import { deleteSavedSnippet, getSavedSnippets, putSavedSnippet } from '../../db/queries/personal.js';
import type { SavedSnippet } from '../../api/index.js';

const TMP = /^tmp-(\d+)$/;

/** The local row id of a snippet known by server id or temporary id. */
export function localSnippetId(id: number | string): number | undefined {
  if (typeof id === 'number') return id;
  const m = TMP.exec(id);
  if (m) return -Number(m[1]);
  // A temporary id rewritten by the store arrives as the server id in string form.
  return /^\d+$/.test(id) ? Number(id) : undefined;
}

/** The server id a row of `kind` is sent with. */
export function serverSnippetId(id: number | string, kind: string): number {
  const n = localSnippetId(id);
  // Rows are sent only once their create landed (same entity, serial), so a tmp id here is a bug.
  if (n === undefined || n < 0) throw new Error(`${kind}: ${id} is not a server id`);
  return n;
}

export function localSnippet(db: LocalDb, id: number): SavedSnippet | undefined {
  return getSavedSnippets(db).find((s) => s.id === id);
}

/**
 * The create of `tmpId` landed as `createdId`: move the local row to the server id so later
 * optimistic edits (now addressed by server id) find it. Called by the session on `succeeded`.
 */
export function adoptCreatedSnippet(db: LocalDb, tmpId: string, createdId: number): void {
  const local = localSnippetId(tmpId);
  if (local === undefined || local >= 0) return;
  const s = localSnippet(db, local);
  if (!s) return;
  deleteSavedSnippet(db, local);
  if (!localSnippet(db, createdId)) putSavedSnippet(db, { ...s, id: createdId });
}
