/**
 * `edit_saved_snippet`: change a snippet's title and/or content. Queued behind its create (same
 * entity key), it folds into the create instead, so an offline snippet is sent once, finished.
 */
import * as z from 'zod';
import { editSavedSnippet } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { putSavedSnippet } from '../../db/queries/personal.js';
import type { ChangeCollector } from '../../db/changes.js';
import { queues, tempRef } from '../commands.js';
import { objectKind, SAVED_SNIPPET } from './shared.js';
import { storedSnippetText } from '../normalize.js';
import { snippetCreateArgs } from './saved-snippet-create.js';
import { localSnippet, localSnippetId, serverSnippetId } from './snippet-local.js';

/** `tmp-N` until the create lands; the store rewrites it to the server id (as a string) then. */
export const snippetId = z.lazy(() => z.union([z.number().int(), z.string()]));

export const snippetEditArgs = z.lazy(() => z.object({
  saved_snippet_id: snippetId,
  title: z.string().min(1).optional(),
  content: z.string().min(1).optional(),
}));
export type SnippetEditArgs = z.output<typeof snippetEditArgs>;

export const savedSnippetEdit = objectKind(SAVED_SNIPPET, {
  kind: 'edit_saved_snippet',
  version: 1,
  argsSchema: snippetEditArgs,
  describe: () => ({ text: 'Edit a saved snippet', link: null }),
  send: (conn, a) => editSavedSnippet(conn, { savedSnippetId: serverSnippetId(a.saved_snippet_id, 'edit_saved_snippet'), title: a.title, content: a.content }),
  shows: (s, a) => (a.title === undefined || s.title === storedSnippetText(a.title)) && (a.content === undefined || s.content === storedSnippetText(a.content)),
  coalesce(prev, next) {
    const n = next.args;
    if (prev.kind === 'create_saved_snippet') {
      const p = snippetCreateArgs.safeParse(prev.args);
      if (!p.success) return { action: 'append' };
      return { action: 'merge', args: { ...p.data, title: n.title ?? p.data.title, content: n.content ?? p.data.content }, base: prev.base };
    }
    if (prev.kind === 'edit_saved_snippet') {
      const p = snippetEditArgs.safeParse(prev.args);
      if (!p.success) return { action: 'append' };
      return { action: 'merge', args: { ...p.data, title: n.title ?? p.data.title, content: n.content ?? p.data.content }, base: null };
    }
    return { action: 'append' };
  },
  apply: applyOptimistic,
});

export function applyOptimistic(db: LocalDb, args: SnippetEditArgs, changes: ChangeCollector): void {
  const id = localSnippetId(args.saved_snippet_id);
  const s = id === undefined ? undefined : localSnippet(db, id);
  if (!s) return;
  putSavedSnippet(db, { ...s, title: args.title ?? s.title, content: args.content ?? s.content });
  changes.touched('saved_snippets');
}

export const savedSnippetEditCommands = {
  editSavedSnippet: queues(savedSnippetEdit, z.lazy(() => z.object({ snippet_id: z.number().int(), title: z.string().min(1).optional(), content: z.string().min(1).optional() })), (r, ctx) => ({
    saved_snippet_id: tempRef(ctx, r.snippet_id),
    ...(r.title !== undefined ? { title: r.title } : {}),
    ...(r.content !== undefined ? { content: r.content } : {}),
  })),
};
