/**
 * GET /users/me/{stream_id}/topics (OpenAPI get-stream-topics; Zulip's get_topics_backend): one
 * entry per topic with its newest message id, newest first, honouring the user's access.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRealm } from '../../server/model/realm.js';
import { startTestServer, type TestServer } from './harness.js';
import { channelId, sendAs, uniqueTopic } from './messages-util.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

type Topic = { name: string; max_id: number };
const topicsOf = async (who: string, channel: string, extra: Record<string, boolean> = {}) => {
  const r = await t.as(who).get(`/users/me/${channelId(t, channel)}/topics`, extra);
  expect(r.json.result, JSON.stringify(r.json)).toBe('success');
  return r.json.topics as Topic[];
};
const send = async (who: string, channel: string, topic: string, content = 'hi') => {
  const r = await sendAs(t, who, { type: 'stream', to: channelId(t, channel), topic, content });
  expect(r.json.result, JSON.stringify(r.json)).toBe('success');
  return r.json.id as number;
};

describe('GET /users/me/{stream_id}/topics', () => {
  it('lists every topic once with its newest message id, most recent first, exactly {name, max_id}', async () => {
    const a = uniqueTopic('alpha');
    const b = uniqueTopic('beta');
    const a1 = await send('hamlet', 'Scotland', a);
    const b1 = await send('othello', 'Scotland', b);
    const a2 = await send('iago', 'Scotland', a);
    const r = await t.as('iago').get(`/users/me/${channelId(t, 'Scotland')}/topics`);
    expect(Object.keys(r.json).sort()).toEqual(['msg', 'result', 'topics']);
    const topics = r.json.topics as Topic[];
    for (const x of topics) expect(Object.keys(x).sort()).toEqual(['max_id', 'name']);
    expect(topics.slice(0, 2)).toEqual([
      { name: a, max_id: a2 },
      { name: b, max_id: b1 },
    ]);
    expect(a1).toBeLessThan(b1);
    const ids = topics.map((x) => x.max_id);
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
    const all = t.server.state.db.prepare('SELECT COUNT(DISTINCT lower(topic)) FROM messages WHERE channel_id = ?').pluck().get(channelId(t, 'Scotland'));
    expect(topics).toHaveLength(all as number);
  });

  it('spellings differing in case are one topic, named as its most recent message spells it', async () => {
    const base = uniqueTopic('case');
    await send('hamlet', 'Verona', base.toUpperCase());
    const last = await send('hamlet', 'Verona', base);
    const topics = await topicsOf('hamlet', 'Verona');
    expect(topics.filter((x) => x.name.toLowerCase() === base.toLowerCase())).toEqual([{ name: base, max_id: last }]);
  });

  it('the empty topic is realm_empty_topic_display_name unless allow_empty_topic_name', async () => {
    const id = await send('hamlet', 'Verona', '');
    const display = getRealm(t.server.state).empty_topic_display_name;
    expect(display).not.toBe('');
    expect((await topicsOf('hamlet', 'Verona'))[0]).toEqual({ name: display, max_id: id });
    expect((await topicsOf('hamlet', 'Verona', { allow_empty_topic_name: true }))[0]).toEqual({ name: '', max_id: id });
  });

  it('a private channel with protected history lists only topics of messages the user received', async () => {
    const before = uniqueTopic('before');
    await send('iago', 'core team', before);
    const sub = await t.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name: 'core team' }], principals: [t.userId('othello')] });
    expect(sub.json.result, JSON.stringify(sub.json)).toBe('success');
    const after = uniqueTopic('after');
    const afterId = await send('iago', 'core team', after);
    const seen = await topicsOf('othello', 'core team');
    expect(seen).toEqual([{ name: after, max_id: afterId }]);
    expect((await topicsOf('iago', 'core team')).map((x) => x.name)).toEqual(expect.arrayContaining([before, after]));
  });

  it('a private channel the user cannot access, or no channel at all, is BAD_REQUEST "Invalid channel ID"', async () => {
    for (const [who, id] of [
      ['cordelia', channelId(t, 'core team')],
      ['hamlet', 999_999],
    ] as const) {
      const r = await t.as(who).get(`/users/me/${id}/topics`);
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ result: 'error', msg: 'Invalid channel ID', code: 'BAD_REQUEST' });
    }
  });

  it('a guest sees the topics of public channels only when subscribed', async () => {
    expect((await t.as('polonius').get(`/users/me/${channelId(t, 'Verona')}/topics`)).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
    expect((await topicsOf('polonius', 'Denmark')).length).toBeGreaterThan(0);
  });
});
