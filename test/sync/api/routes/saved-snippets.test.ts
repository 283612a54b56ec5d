import { describe, expect, it } from 'vitest';
import { ZulipApiError } from '../../../../sync/api/errors.js';
import {
  createSavedSnippet,
  deleteSavedSnippet,
  editSavedSnippet,
  getSavedSnippets,
} from '../../../../sync/api/routes/saved-snippets.js';
import { fakeServer, ok } from '../fake-transport.js';

describe('saved snippets routes', () => {
  it('createSavedSnippet posts title and content raw in a form body and returns the id', async () => {
    const f = fakeServer();
    f.reply(ok({ saved_snippet_id: 17 }));
    const res = await createSavedSnippet(f.conn, { title: 'Greeting', content: 'Hi **there** & "you"' });
    const req = f.only();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/saved_snippets');
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(req.body).toEqual({ title: 'Greeting', content: 'Hi **there** & "you"' });
    expect(req.query).toEqual({});
    expect(res.saved_snippet_id).toBe(17);
  });

  it('editSavedSnippet sends only the fields given', async () => {
    const f = fakeServer();
    await editSavedSnippet(f.conn, { savedSnippetId: 3, content: 'new' });
    const req = f.only();
    expect(req.method).toBe('PATCH');
    expect(req.path).toBe('/saved_snippets/3');
    expect(req.body).toEqual({ content: 'new' });
  });

  it('getSavedSnippets parses the list', async () => {
    const f = fakeServer();
    f.reply(ok({ saved_snippets: [{ id: 1, title: 't', content: 'c', date_created: 1700000000 }] }));
    const res = await getSavedSnippets(f.conn);
    expect(f.only().method).toBe('GET');
    expect(res.saved_snippets).toEqual([{ id: 1, title: 't', content: 'c', date_created: 1700000000 }]);
  });

  it('deleteSavedSnippet surfaces the 404 BAD_REQUEST as an api error', async () => {
    const f = fakeServer();
    f.reply({ status: 404, json: { result: 'error', msg: 'Saved snippet does not exist.', code: 'BAD_REQUEST' } });
    const err = await deleteSavedSnippet(f.conn, { savedSnippetId: 9 }).catch((e: unknown) => e);
    expect(f.only()).toMatchObject({ method: 'DELETE', path: '/saved_snippets/9', body: {} });
    expect(err).toBeInstanceOf(ZulipApiError);
    expect(err).toMatchObject({ kind: 'api', code: 'BAD_REQUEST', httpStatus: 404 });
  });
});
