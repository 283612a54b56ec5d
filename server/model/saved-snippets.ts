/**
 * Saved snippets (FL 297; editing FL 368): a user's reusable message texts. Every change is told to
 * the user's clients with a `saved_snippets` event (docs/zulip-behaviour.md "Saved snippets").
 */
import { seconds } from '../clock.js';
import { emit } from '../events/emit.js';
import { notFound } from '../http/errors.js';
import type { ServerState } from '../state.js';

/** Zulip's SavedSnippet.MAX_TITLE_LENGTH. */
export const MAX_SNIPPET_TITLE_LENGTH = 60;

export interface SavedSnippet {
  id: number;
  title: string;
  content: string;
  date_created: number;
}

export function listSavedSnippets(srv: ServerState, userId: number): SavedSnippet[] {
  return srv.db.prepare('SELECT id, title, content, date_created FROM saved_snippets WHERE user_id = ? ORDER BY id').all(userId) as SavedSnippet[];
}

/** The user's snippet, or 404 BAD_REQUEST "Saved snippet does not exist." (docs/zulip-behaviour.md "Saved snippets"). */
export function requireSavedSnippet(srv: ServerState, userId: number, id: number): SavedSnippet {
  const row = srv.db.prepare('SELECT id, title, content, date_created FROM saved_snippets WHERE id = ? AND user_id = ?').get(id, userId) as
    | SavedSnippet
    | undefined;
  if (!row) throw notFound('Saved snippet does not exist.');
  return row;
}

export function createSavedSnippet(srv: ServerState, userId: number, title: string, content: string): SavedSnippet {
  const date_created = seconds(srv.clock);
  const id = Number(
    srv.db.prepare('INSERT INTO saved_snippets (user_id, title, content, date_created) VALUES (?, ?, ?, ?)').run(userId, title, content, date_created)
      .lastInsertRowid,
  );
  const snippet = { id, title, content, date_created };
  emit(srv, [userId], { type: 'saved_snippets', op: 'add', saved_snippet: snippet });
  return snippet;
}

export function editSavedSnippet(srv: ServerState, userId: number, id: number, changes: { title?: string | undefined; content?: string | undefined }): void {
  const old = requireSavedSnippet(srv, userId, id);
  const next = { ...old, title: changes.title ?? old.title, content: changes.content ?? old.content };
  srv.db.prepare('UPDATE saved_snippets SET title = ?, content = ? WHERE id = ?').run(next.title, next.content, id);
  emit(srv, [userId], { type: 'saved_snippets', op: 'update', saved_snippet: next });
}

export function deleteSavedSnippet(srv: ServerState, userId: number, id: number): void {
  requireSavedSnippet(srv, userId, id);
  srv.db.prepare('DELETE FROM saved_snippets WHERE id = ?').run(id);
  emit(srv, [userId], { type: 'saved_snippets', op: 'remove', saved_snippet_id: id });
}
