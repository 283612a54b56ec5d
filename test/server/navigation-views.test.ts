/** Navigation views (spec "POST/PATCH /navigation_views"; docs/zulip-behaviour.md "Navigation views"), plain HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pendingEvents, registerQueue, withoutIds } from './events-helpers.js';
import { startTestServer, type TestServer } from './harness.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const add = (who: string, params: Record<string, string | boolean | null>) => t.as(who).post('/navigation_views', params);
const list = async (who: string) => (await t.as(who).get('/navigation_views')).json.navigation_views as Array<Record<string, unknown>>;
const find = async (who: string, fragment: string) => (await list(who)).find((v) => v.fragment === fragment);

describe('POST /navigation_views', () => {
  it('adds a built-in view without a name (name null)', async () => {
    const r = await add('hamlet', { fragment: 'narrow/is/alerted', is_pinned: true });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ result: 'success', msg: '' });
    expect(await find('hamlet', 'narrow/is/alerted')).toEqual({ fragment: 'narrow/is/alerted', is_pinned: true, name: null });
  });

  it('adds a custom view with a name', async () => {
    await add('hamlet', { fragment: 'narrow/channel/5-Denmark/topic/castle', is_pinned: false, name: 'Castle' });
    expect(await find('hamlet', 'narrow/channel/5-Denmark/topic/castle')).toEqual({
      fragment: 'narrow/channel/5-Denmark/topic/castle',
      is_pinned: false,
      name: 'Castle',
    });
  });

  it('emits navigation_view op add with {fragment, is_pinned, name}', async () => {
    const q = await registerQueue(t, 'othello', { event_types: ['navigation_view'] });
    await add('othello', { fragment: 'inbox', is_pinned: false });
    expect(withoutIds(await pendingEvents(t, 'othello', q))).toEqual([
      { type: 'navigation_view', op: 'add', navigation_view: { fragment: 'inbox', is_pinned: false, name: null } },
    ]);
  });

  it('a blank fragment is BAD_REQUEST "fragment cannot be blank"', async () => {
    const r = await add('hamlet', { fragment: '  ', is_pinned: true, name: 'x' });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'fragment cannot be blank' });
  });

  it('a built-in view cannot have a name', async () => {
    const r = await add('hamlet', { fragment: 'recent', is_pinned: true, name: 'My recent' });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Built-in views cannot have a custom name' });
  });

  it('a custom view needs a name', async () => {
    const r = await add('hamlet', { fragment: 'narrow/sender/9', is_pinned: true });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('BAD_REQUEST');
  });

  it('name null is the same as no name', async () => {
    expect((await add('cordelia', { fragment: 'narrow/is/starred', is_pinned: true, name: null })).json.result).toBe('success');
    expect(await find('cordelia', 'narrow/is/starred')).toMatchObject({ name: null });
  });

  it('a fragment that already exists is BAD_REQUEST "Navigation view already exists."', async () => {
    await add('iago', { fragment: 'drafts', is_pinned: true });
    const r = await add('iago', { fragment: 'drafts', is_pinned: false });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Navigation view already exists.' });
  });

  it('a custom name already used by another view is rejected', async () => {
    await add('iago', { fragment: 'narrow/sender/1', is_pinned: true, name: 'Boss' });
    const r = await add('iago', { fragment: 'narrow/sender/2', is_pinned: true, name: 'Boss' });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Navigation view already exists.' });
  });

  it.each(['fragment', 'is_pinned'])('%s is required', async (name) => {
    const params: Record<string, string | boolean> = { fragment: 'narrow/is/mentioned', is_pinned: true };
    delete params[name];
    const r = await add('shiva', params);
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: name });
  });

  it('views are per user', async () => {
    await add('desdemona', { fragment: 'narrow/is/followed', is_pinned: true });
    expect(await find('polonius', 'narrow/is/followed')).toBeUndefined();
  });
});

describe('PATCH /navigation_views/{fragment}', () => {
  it('updates is_pinned on a fragment containing slashes, emitting op update {fragment, data}', async () => {
    await add('shiva', { fragment: 'narrow/is/mentioned', is_pinned: true });
    const q = await registerQueue(t, 'shiva', { event_types: ['navigation_view'] });
    const r = await t.as('shiva').patch('/navigation_views/narrow/is/mentioned', { is_pinned: false });
    expect(r.json).toEqual({ result: 'success', msg: '' });
    expect(await find('shiva', 'narrow/is/mentioned')).toEqual({ fragment: 'narrow/is/mentioned', is_pinned: false, name: null });
    expect(withoutIds(await pendingEvents(t, 'shiva', q))).toEqual([
      { type: 'navigation_view', op: 'update', fragment: 'narrow/is/mentioned', data: { is_pinned: false } },
    ]);
  });

  it('renames a custom view', async () => {
    await add('shiva', { fragment: 'narrow/channel/3-Verona', is_pinned: true, name: 'Verona' });
    await t.as('shiva').patch('/navigation_views/narrow/channel/3-Verona', { name: 'Fair Verona' });
    expect(await find('shiva', 'narrow/channel/3-Verona')).toMatchObject({ name: 'Fair Verona', is_pinned: true });
  });

  it('a percent-encoded fragment path is decoded', async () => {
    await add('shiva', { fragment: 'narrow/topic/a b', is_pinned: true, name: 'Spaced' });
    const r = await t.as('shiva').patch('/navigation_views/narrow%2Ftopic%2Fa%20b', { is_pinned: false });
    expect(r.json.result).toBe('success');
    expect(await find('shiva', 'narrow/topic/a b')).toMatchObject({ is_pinned: false });
  });

  it('giving a built-in view a custom name is BAD_REQUEST', async () => {
    await add('othello', { fragment: 'recent', is_pinned: true });
    const r = await t.as('othello').patch('/navigation_views/recent', { name: 'Latest' });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Built-in views cannot have a custom name' });
  });

  it('a missing view is NOT_FOUND (HTTP 404), as the spec says', async () => {
    const r = await t.as('othello').patch('/navigation_views/narrow/nothing/here', { is_pinned: true });
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ result: 'error', code: 'NOT_FOUND', msg: 'Navigation view does not exist.' });
  });

  it('renaming to a name another view uses is rejected', async () => {
    await add('cordelia', { fragment: 'narrow/sender/3', is_pinned: true, name: 'Three' });
    await add('cordelia', { fragment: 'narrow/sender/4', is_pinned: true, name: 'Four' });
    const r = await t.as('cordelia').patch('/navigation_views/narrow/sender/4', { name: 'Three' });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Navigation view already exists.' });
  });
});

describe('DELETE /navigation_views/{fragment}', () => {
  it('removes the view and emits op remove {fragment}', async () => {
    await add('desdemona', { fragment: 'narrow/channels/public', is_pinned: true });
    const q = await registerQueue(t, 'desdemona', { event_types: ['navigation_view'] });
    expect((await t.as('desdemona').delete('/navigation_views/narrow/channels/public')).json.result).toBe('success');
    expect(await find('desdemona', 'narrow/channels/public')).toBeUndefined();
    expect(withoutIds(await pendingEvents(t, 'desdemona', q))).toEqual([{ type: 'navigation_view', op: 'remove', fragment: 'narrow/channels/public' }]);
  });

  it('a missing view is NOT_FOUND (HTTP 404)', async () => {
    const r = await t.as('desdemona').delete('/navigation_views/narrow/never');
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('register navigation_views', () => {
  it('returns the views under the navigation_views key in creation order', async () => {
    await add('polonius', { fragment: 'inbox', is_pinned: true });
    await add('polonius', { fragment: 'narrow/dm/1', is_pinned: false, name: 'Boss DMs' });
    const r = await t.as('polonius').post('/register', { fetch_event_types: ['navigation_views'] });
    expect(r.json.navigation_views).toEqual([
      { fragment: 'inbox', is_pinned: true, name: null },
      { fragment: 'narrow/dm/1', is_pinned: false, name: 'Boss DMs' },
    ]);
  });
});
