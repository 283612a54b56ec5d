/**
 * `edit_saved_snippet`: change a snippet's title and/or content. Queued behind its create (same
 * entity key), it folds into the create instead, so an offline snippet is sent once, finished.
 */
import { z } from 'zod';
import { editSavedSnippet } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { putSavedSnippet } from '../../db/queries/personal.js';
import type { ChangeCollector } from '../../db/changes.js';
import { answer, queuedCommand, tempRef } from '../commands.js';
import { oneCall, serverSnippet, verifyByReading, withoutBase } from './shared.js';
import { enqueuedSchema } from '../../protocol/outbox.js';
import { storedSnippetText } from '../normalize.js';
import { snippetCreateArgs } from './saved-snippet-create.js';
import { localSnippet, localSnippetId, serverSnippetId } from './snippet-local.js';

/** `tmp-N` until the create lands; the store rewrites it to the server id (as a string) then. */
export const snippetId = z.union([z.number().int(), z.string()]);

export const snippetEditArgs = z.object({
  saved_snippet_id: snippetId,
  title: z.string().min(1).optional(),
  content: z.string().min(1).optional(),
});
export type SnippetEditArgs = z.output<typeof snippetEditArgs>;

export const savedSnippetEdit = withoutBase({
  kind: 'edit_saved_snippet',
  version: 1,
  argsSchema: snippetEditArgs,
  describe: () => ({ text: 'Edit a saved snippet', link: null }),
  entityKey: (a) => `snippet:${a.saved_snippet_id}`,
  send: oneCall((conn, a) => editSavedSnippet(conn, { savedSnippetId: serverSnippetId(a.saved_snippet_id, 'edit_saved_snippet'), title: a.title, content: a.content })),
  verify: verifyByReading(
    (conn, a) => serverSnippet(conn, serverSnippetId(a.saved_snippet_id, 'edit_saved_snippet')),
    (s, a) => (a.title === undefined || s.title === storedSnippetText(a.title)) && (a.content === undefined || s.content === storedSnippetText(a.content)),
  ),
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
  tempIdFields: ['saved_snippet_id'],
  local: { apply: (db, a, _b, c) => void applyOptimistic(db, a, c), areas: ['saved_snippets'], refetch: ['saved_snippets'] },
});

export function applyOptimistic(db: LocalDb, args: SnippetEditArgs, changes: ChangeCollector): void {
  const id = localSnippetId(args.saved_snippet_id);
  const s = id === undefined ? undefined : localSnippet(db, id);
  if (!s) return;
  putSavedSnippet(db, { ...s, title: args.title ?? s.title, content: args.content ?? s.content });
  changes.touched('saved_snippets');
}

export const savedSnippetEditCommands = {
  editSavedSnippet: queuedCommand({
    request: z.object({ snippet_id: z.number().int(), title: z.string().min(1).optional(), content: z.string().min(1).optional() }),
    response: enqueuedSchema,
    intent(r, ctx) {
      const args = { saved_snippet_id: tempRef(ctx, r.snippet_id), ...(r.title !== undefined ? { title: r.title } : {}), ...(r.content !== undefined ? { content: r.content } : {}) };
      return answer(ctx.outbox.enqueue(savedSnippetEdit, args, null));
    },
  }),
};
