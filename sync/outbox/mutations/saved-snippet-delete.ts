/**
 * `delete_saved_snippet`. Behind a still-queued create of the same snippet, the two cancel out:
 * nothing is ever sent for a snippet created and deleted offline.
 */
import { z } from 'zod';
import { deleteSavedSnippet } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { deleteSavedSnippet as deleteLocal } from '../../db/queries/personal.js';
import type { ChangeCollector } from '../../db/changes.js';
import { answer, queuedCommand, tempRef } from '../commands.js';
import { annulsQueued, oneCall, serverSnippet, verifyGone, withoutBase } from './shared.js';
import { enqueuedSchema } from '../../protocol/outbox.js';
import { snippetId } from './saved-snippet-edit.js';
import { localSnippetId, serverSnippetId } from './snippet-local.js';

export const snippetDeleteArgs = z.object({ saved_snippet_id: snippetId });
export type SnippetDeleteArgs = z.output<typeof snippetDeleteArgs>;

export const savedSnippetDelete = withoutBase({
  kind: 'delete_saved_snippet',
  version: 1,
  argsSchema: snippetDeleteArgs,
  describe: () => ({ text: 'Delete a saved snippet', link: null }),
  entityKey: (a) => `snippet:${a.saved_snippet_id}`,
  send: oneCall((conn, a) => deleteSavedSnippet(conn, { savedSnippetId: serverSnippetId(a.saved_snippet_id, 'delete_saved_snippet') })),
  verify: verifyGone((conn, a) => serverSnippet(conn, serverSnippetId(a.saved_snippet_id, 'delete_saved_snippet'))),
  coalesce: annulsQueued('create_saved_snippet'),
  tempIdFields: ['saved_snippet_id'],
  local: { apply: (db, a, _b, c) => void applyOptimistic(db, a, c), areas: ['saved_snippets'], refetch: ['saved_snippets'] },
});

export function applyOptimistic(db: LocalDb, args: SnippetDeleteArgs, changes: ChangeCollector): void {
  const id = localSnippetId(args.saved_snippet_id);
  if (id === undefined) return;
  deleteLocal(db, id);
  changes.touched('saved_snippets');
}

export const savedSnippetDeleteCommands = {
  deleteSavedSnippet: queuedCommand({
    request: z.object({ snippet_id: z.number().int() }),
    response: enqueuedSchema,
    intent: (r, ctx) => answer(ctx.outbox.enqueue(savedSnippetDelete, { saved_snippet_id: tempRef(ctx, r.snippet_id) }, null)),
  }),
};
