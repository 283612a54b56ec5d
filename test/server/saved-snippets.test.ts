/** Saved snippets (spec "POST/PATCH /saved_snippets"; docs/zulip-behaviour.md "Saved snippets"), plain HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowSeconds, pendingEvents, registerQueue, withoutIds } from './events-helpers.js';
import { startTestServer, type TestServer } from './harness.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const create = (who: string, title: string, content: string) => t.as(who).post('/saved_snippets', { title, content });
const list = async (who: string) => (await t.as(who).get('/saved_snippets')).json.saved_snippets as Array<Record<string, unknown>>;

describe('POST /saved_snippets', () => {
  it('creates a snippet and returns saved_snippet_id', async () => {
    const r = await create('hamlet', 'Greeting', 'Hello **there**');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ result: 'success', msg: '', saved_snippet_id: expect.any(Number) });
    const snippets = await list('hamlet');
    expect(snippets).toContainEqual({ id: r.json.saved_snippet_id, title: 'Greeting', content: 'Hello **there**', date_created: nowSeconds(t) });
  });

  it('never reuses the id of a deleted snippet, even the newest (a late DELETE must not hit a newer one)', async () => {
    const a = (await create('othello', 'Temp', 'x')).json.saved_snippet_id as number;
    expect((await t.as('othello').delete(`/saved_snippets/${a}`)).status).toBe(200);
    const b = (await create('othello', 'Next', 'y')).json.saved_snippet_id as number;
    expect(b).toBeGreaterThan(a);
  });

  it('an empty title is BAD_REQUEST "Title cannot be empty."', async () => {
    const r = await create('hamlet', '', 'content');
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Title cannot be empty.' });
  });

  it('a whitespace-only title is empty too', async () => {
    const r = await create('hamlet', '   ', 'content');
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Title cannot be empty.' });
  });

  it('empty content is BAD_REQUEST "Content cannot be empty."', async () => {
    const r = await create('hamlet', 'title', ' ');
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Content cannot be empty.' });
  });

  it.each(['title', 'content'])('%s is required', async (name) => {
    const params: Record<string, string> = { title: 't', content: 'c' };
    delete params[name];
    const r = await t.as('hamlet').post('/saved_snippets', params);
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: name });
  });

  it('title and content are stored stripped', async () => {
    const r = await create('hamlet', '  Padded  ', '\n text \n');
    const s = (await list('hamlet')).find((x) => x.id === r.json.saved_snippet_id);
    expect(s).toMatchObject({ title: 'Padded', content: 'text' });
  });

  it('a title longer than 60 characters is rejected', async () => {
    const r = await create('hamlet', 'x'.repeat(61), 'c');
    expect(r.status).toBe(400);
  });

  it('emits saved_snippets op add with the whole snippet to the user only', async () => {
    const q = await registerQueue(t, 'othello', { event_types: ['saved_snippets'] });
    const other = await registerQueue(t, 'iago', { event_types: ['saved_snippets'] });
    const r = await create('othello', 'Moor', 'content');
    expect(withoutIds(await pendingEvents(t, 'othello', q))).toEqual([
      { type: 'saved_snippets', op: 'add', saved_snippet: { id: r.json.saved_snippet_id, title: 'Moor', content: 'content', date_created: nowSeconds(t) } },
    ]);
    expect(await pendingEvents(t, 'iago', other)).toEqual([]);
  });
});

describe('GET /saved_snippets', () => {
  it("lists only the user's own snippets, in creation order", async () => {
    const a = await create('cordelia', 'A', 'a');
    const b = await create('cordelia', 'B', 'b');
    await create('iago', 'Not hers', 'x');
    expect((await list('cordelia')).map((s) => s.id)).toEqual([a.json.saved_snippet_id, b.json.saved_snippet_id]);
  });
});

describe('PATCH /saved_snippets/{id}', () => {
  it('edits the title and the content', async () => {
    const id = (await create('shiva', 'Old', 'old')).json.saved_snippet_id as number;
    const r = await t.as('shiva').patch(`/saved_snippets/${id}`, { title: 'New', content: 'new' });
    expect(r.json).toEqual({ result: 'success', msg: '' });
    expect((await list('shiva')).find((s) => s.id === id)).toMatchObject({ title: 'New', content: 'new' });
  });

  it('either field alone may be changed; the other is kept', async () => {
    const id = (await create('shiva', 'Keep', 'before')).json.saved_snippet_id as number;
    await t.as('shiva').patch(`/saved_snippets/${id}`, { content: 'after' });
    expect((await list('shiva')).find((s) => s.id === id)).toMatchObject({ title: 'Keep', content: 'after' });
  });

  it('emits saved_snippets op update with the full snippet', async () => {
    const id = (await create('shiva', 'T', 'c')).json.saved_snippet_id as number;
    const q = await registerQueue(t, 'shiva', { event_types: ['saved_snippets'] });
    await t.as('shiva').patch(`/saved_snippets/${id}`, { title: 'T2' });
    expect(withoutIds(await pendingEvents(t, 'shiva', q))).toEqual([
      { type: 'saved_snippets', op: 'update', saved_snippet: { id, title: 'T2', content: 'c', date_created: nowSeconds(t) } },
    ]);
  });

  it('nothing to change succeeds without an event', async () => {
    const id = (await create('shiva', 'Same', 'c')).json.saved_snippet_id as number;
    const q = await registerQueue(t, 'shiva', { event_types: ['saved_snippets'] });
    expect((await t.as('shiva').patch(`/saved_snippets/${id}`)).json.result).toBe('success');
    expect(await pendingEvents(t, 'shiva', q)).toEqual([]);
  });

  it('an empty title or content is BAD_REQUEST', async () => {
    const id = (await create('shiva', 'T', 'c')).json.saved_snippet_id as number;
    expect((await t.as('shiva').patch(`/saved_snippets/${id}`, { title: '' })).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Title cannot be empty.' });
    expect((await t.as('shiva').patch(`/saved_snippets/${id}`, { content: '' })).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Content cannot be empty.' });
  });

  it('a missing snippet is HTTP 404 with code BAD_REQUEST "Saved snippet does not exist."', async () => {
    const r = await t.as('shiva').patch('/saved_snippets/999999', { title: 'x' });
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Saved snippet does not exist.' });
  });

  it("another user's snippet does not exist for the caller", async () => {
    const id = (await create('iago', 'Mine', 'c')).json.saved_snippet_id as number;
    const r = await t.as('shiva').patch(`/saved_snippets/${id}`, { title: 'stolen' });
    expect(r.status).toBe(404);
    expect((await list('iago')).find((s) => s.id === id)).toMatchObject({ title: 'Mine' });
  });
});

describe('DELETE /saved_snippets/{id}', () => {
  it('deletes the snippet and emits saved_snippets op remove', async () => {
    const id = (await create('desdemona', 'Gone', 'c')).json.saved_snippet_id as number;
    const q = await registerQueue(t, 'desdemona', { event_types: ['saved_snippets'] });
    expect((await t.as('desdemona').delete(`/saved_snippets/${id}`)).json).toEqual({ result: 'success', msg: '' });
    expect((await list('desdemona')).some((s) => s.id === id)).toBe(false);
    expect(withoutIds(await pendingEvents(t, 'desdemona', q))).toEqual([{ type: 'saved_snippets', op: 'remove', saved_snippet_id: id }]);
  });

  it('a missing snippet is HTTP 404 BAD_REQUEST', async () => {
    const r = await t.as('desdemona').delete('/saved_snippets/999999');
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Saved snippet does not exist.' });
  });
});

describe('register saved_snippets', () => {
  it('returns the snippets for the saved_snippets fetch key', async () => {
    await create('polonius', 'Advice', 'Neither a borrower nor a lender be');
    const r = await t.as('polonius').post('/register', { fetch_event_types: ['saved_snippets'] });
    expect(r.json.saved_snippets).toEqual(await list('polonius'));
  });
});
