/**
 * `delete_saved_snippet`. Behind a still-queued create of the same snippet, the two cancel out:
 * nothing is ever sent for a snippet created and deleted offline.
 */
import * as z from 'zod';
import { deleteSavedSnippet } from '../../api/index.js';
import { queues, tempRef } from '../commands.js';
import { annulsQueued, forgetsLocal, objectKind, SAVED_SNIPPET } from './shared.js';
import { snippetId } from './saved-snippet-edit.js';
import { serverSnippetId } from './snippet-local.js';

export const snippetDeleteArgs = z.object({ saved_snippet_id: snippetId });

export const savedSnippetDelete = objectKind(SAVED_SNIPPET, {
  kind: 'delete_saved_snippet',
  version: 1,
  argsSchema: snippetDeleteArgs,
  describe: () => ({ text: 'Delete a saved snippet', link: null }),
  send: (conn, a) => deleteSavedSnippet(conn, { savedSnippetId: serverSnippetId(a.saved_snippet_id, 'delete_saved_snippet') }),
  shows: 'gone',
  coalesce: annulsQueued('create_saved_snippet'),
  apply: forgetsLocal(SAVED_SNIPPET),
});

export const savedSnippetDeleteCommands = {
  deleteSavedSnippet: queues(savedSnippetDelete, z.object({ snippet_id: z.number().int() }), (r, ctx) => ({ saved_snippet_id: tempRef(ctx, r.snippet_id) })),
};
