/** The refusals the app checks before queuing a navigation view (renderer/src/navviews) are this server's own words. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_WORDS } from '../../renderer/src/navviews/nav-views.js';
import { startTestServer, type TestServer } from './harness.js';

describe('the words are the server’s own (reference server)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('each refusal checked before queuing is what POST / PATCH /navigation_views answers', async () => {
    const msg = async (r: Promise<{ json: Record<string, unknown> }>) => (await r).json['msg'];
    const othello = t.as('othello');
    expect(await msg(othello.post('/navigation_views', { fragment: '  ', is_pinned: true, name: 'x' }))).toBe(SERVER_WORDS.blankFragment);
    expect(await msg(othello.post('/navigation_views', { fragment: 'narrow/is/starred', is_pinned: true, name: 'My stars' }))).toBe(SERVER_WORDS.builtInNamed);
    expect(await msg(othello.post('/navigation_views', { fragment: 'narrow/is/dm', is_pinned: true }))).toBe(SERVER_WORDS.customNeedsName);
    expect((await othello.post('/navigation_views', { fragment: 'narrow/is/dm', is_pinned: true, name: 'DMs' })).json['result']).toBe('success');
    expect(await msg(othello.post('/navigation_views', { fragment: 'narrow/is/private', is_pinned: true, name: 'DMs' }))).toBe(SERVER_WORDS.exists);
    expect(await msg(othello.patch('/navigation_views/narrow/is/dm', { name: ' ' }))).toBe(SERVER_WORDS.blankName);
    expect(await msg(othello.patch('/navigation_views/recent', { name: 'Latest' }))).toBe(SERVER_WORDS.builtInNamed);
  });
});
