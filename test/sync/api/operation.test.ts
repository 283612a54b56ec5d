import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { endpoint, fillPath, operation, responseTable } from '../../../sync/api/operation.js';
import { deleteSavedSnippet, getSavedSnippets, savedSnippetResponses } from '../../../sync/api/routes/saved-snippets.js';
import { emptySuccess } from '../../../sync/api/schemas/envelope.js';

describe('fillPath', () => {
  it('encodes each path parameter as one segment', () => {
    expect(fillPath('/messages/{message_id}/reactions', { message_id: 42 })).toBe('/messages/42/reactions');
    expect(fillPath('/navigation_views/{fragment}', { fragment: 'a/b c' })).toBe('/navigation_views/a%2Fb%20c');
  });

  it('keeps `/` separators when asked', () => {
    expect(fillPath('/navigation_views/{fragment}', { fragment: 'narrow/is/alerted' }, true)).toBe('/navigation_views/narrow/is/alerted');
  });

  it('refuses a template parameter without a value', () => {
    expect(() => fillPath('/streams/{stream_id}/members', {})).toThrow('no value for path parameter stream_id');
  });
});

describe('operation and responseTable', () => {
  it('a binding carries its endpoint, and the table is keyed "METHOD /path/{param}"', () => {
    expect(deleteSavedSnippet.endpoint).toMatchObject({ method: 'DELETE', path: '/saved_snippets/{saved_snippet_id}' });
    expect(getSavedSnippets.endpoint.schema).toBe(savedSnippetResponses['GET /saved_snippets']);
    expect(Object.keys(savedSnippetResponses)).toEqual([
      'GET /saved_snippets',
      'POST /saved_snippets',
      'PATCH /saved_snippets/{saved_snippet_id}',
      'DELETE /saved_snippets/{saved_snippet_id}',
    ]);
  });

  it('refuses an operation declared twice', () => {
    const a = operation({ method: 'GET', path: '/x', schema: emptySuccess });
    const b = endpoint({ method: 'GET', path: '/x', schema: z.object({}) });
    expect(() => responseTable(a, b)).toThrow('GET /x declared twice');
  });
});
