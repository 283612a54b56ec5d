/** Saved snippets: spec "POST /saved_snippets", "PATCH /saved_snippets/{saved_snippet_id}", and list/delete. */
import { z } from 'zod';
import type { ApiConnection, RequestOptions } from '../core.js';
import { pathSegment } from '../encoding.js';
import { emptySuccess, int, success } from '../schemas/envelope.js';
import { savedSnippet } from '../schemas/snippets.js';

export const getSavedSnippetsResponse = success({ saved_snippets: z.array(savedSnippet) });
export const createSavedSnippetResponse = success({ saved_snippet_id: int });

/** Response schemas by OpenAPI operation, for the example-conformance test. */
export const savedSnippetResponses = {
  'GET /saved_snippets': getSavedSnippetsResponse,
  'POST /saved_snippets': createSavedSnippetResponse,
  'PATCH /saved_snippets/{saved_snippet_id}': emptySuccess,
  'DELETE /saved_snippets/{saved_snippet_id}': emptySuccess,
} as const;

/** GET /saved_snippets (referenced operation). */
export function getSavedSnippets(conn: ApiConnection, opts: RequestOptions = {}) {
  return conn.request({ method: 'GET', path: '/saved_snippets', schema: getSavedSnippetsResponse, ...opts });
}

/** Spec "POST /saved_snippets": create a saved snippet; neither title nor content may be empty. */
export function createSavedSnippet(
  conn: ApiConnection,
  args: { title: string; content: string },
  opts: RequestOptions = {},
) {
  return conn.request({
    method: 'POST',
    path: '/saved_snippets',
    params: { title: args.title, content: args.content },
    schema: createSavedSnippetResponse,
    ...opts,
  });
}

/** Spec "PATCH /saved_snippets/{saved_snippet_id}": edit title and/or content (FL 368). */
export function editSavedSnippet(
  conn: ApiConnection,
  args: { savedSnippetId: number; title?: string; content?: string },
  opts: RequestOptions = {},
) {
  return conn.request({
    method: 'PATCH',
    path: `/saved_snippets/${pathSegment(args.savedSnippetId)}`,
    params: { title: args.title, content: args.content },
    schema: emptySuccess,
    ...opts,
  });
}

/** DELETE /saved_snippets/{saved_snippet_id} (referenced operation). */
export function deleteSavedSnippet(conn: ApiConnection, args: { savedSnippetId: number }, opts: RequestOptions = {}) {
  return conn.request({
    method: 'DELETE',
    path: `/saved_snippets/${pathSegment(args.savedSnippetId)}`,
    schema: emptySuccess,
    ...opts,
  });
}
