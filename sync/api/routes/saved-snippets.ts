/** Saved snippets: spec "POST /saved_snippets", "PATCH /saved_snippets/{saved_snippet_id}", and list/delete. */
import * as z from 'zod';
import { operation, responseTable } from '../operation.js';
import { emptySuccess, int, success } from '../schemas/envelope.js';
import { savedSnippet } from '../schemas/snippets.js';

export const getSavedSnippetsResponse = z.lazy(() => success({ saved_snippets: z.array(savedSnippet) }));
export const createSavedSnippetResponse = success({ saved_snippet_id: int });

/** GET /saved_snippets (referenced operation). */
export const getSavedSnippets = operation({ method: 'GET', path: '/saved_snippets', schema: getSavedSnippetsResponse });

/** Spec "POST /saved_snippets": create a saved snippet; neither title nor content may be empty. */
export const createSavedSnippet = operation({
  method: 'POST',
  path: '/saved_snippets',
  schema: createSavedSnippetResponse,
  request: (args: { title: string; content: string }) => ({ params: { title: args.title, content: args.content } }),
});

/** Spec "PATCH /saved_snippets/{saved_snippet_id}": edit title and/or content (FL 368). */
export const editSavedSnippet = operation({
  method: 'PATCH',
  path: '/saved_snippets/{saved_snippet_id}',
  schema: emptySuccess,
  request: (args: { savedSnippetId: number; title?: string; content?: string }) => ({
    path: { saved_snippet_id: args.savedSnippetId },
    params: { title: args.title, content: args.content },
  }),
});

/** DELETE /saved_snippets/{saved_snippet_id} (referenced operation). */
export const deleteSavedSnippet = operation({
  method: 'DELETE',
  path: '/saved_snippets/{saved_snippet_id}',
  schema: emptySuccess,
  request: (args: { savedSnippetId: number }) => ({ path: { saved_snippet_id: args.savedSnippetId } }),
});

/** Response schemas by OpenAPI operation, for the example-conformance test. */
export const savedSnippetResponses = responseTable(getSavedSnippets, createSavedSnippet, editSavedSnippet, deleteSavedSnippet);
