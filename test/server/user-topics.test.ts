/** POST /user_topics (spec "POST /user_topics"; docs/zulip-behaviour.md "Topic preferences"), over plain HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userTopicPolicy } from '../../server/model/user-topics.js';
import { nowSeconds, pendingEvents, registerQueue } from './events-helpers.js';
import { startTestServer, type TestServer } from './harness.js';

let t: TestServer;
let verona: number;
let denmark: number;
let coreTeam: number;
beforeAll(async () => {
  t = await startTestServer();
  const id = (name: string) => t.server.state.db.prepare('SELECT id FROM channels WHERE name = ?').pluck().get(name) as number;
  verona = id('Verona');
  denmark = id('Denmark');
  coreTeam = id('core team');
});
afterAll(() => t.close());

const register = (who: string, extra: Record<string, Record<string, boolean>> = {}) => registerQueue(t, who, { event_types: ['user_topic'], ...extra });
const events = (who: string, queueId: string) => pendingEvents(t, who, queueId);

const policy = (who: string, channelId: number, topic: string) => userTopicPolicy(t.server.state, t.userId(who), channelId, topic);

describe('POST /user_topics', () => {
  it('sets each visibility policy 1 (muted), 2 (unmuted), 3 (followed)', async () => {
    for (const p of [1, 2, 3] as const) {
      const r = await t.as('hamlet').post('/user_topics', { stream_id: verona, topic: 'policies', visibility_policy: p });
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ result: 'success', msg: '' });
      expect(policy('hamlet', verona, 'policies')).toBe(p);
    }
  });

  it('visibility_policy 0 removes the policy', async () => {
    await t.as('hamlet').post('/user_topics', { stream_id: verona, topic: 'to remove', visibility_policy: 1 });
    const r = await t.as('hamlet').post('/user_topics', { stream_id: verona, topic: 'to remove', visibility_policy: 0 });
    expect(r.json.result).toBe('success');
    expect(policy('hamlet', verona, 'to remove')).toBe(0);
    const rows = t.server.state.db.prepare('SELECT COUNT(*) FROM user_topics WHERE topic = ?').pluck().get('to remove');
    expect(rows).toBe(0);
  });

  it('succeeds even if the topic has no messages', async () => {
    const r = await t.as('othello').post('/user_topics', { stream_id: verona, topic: 'a topic nobody wrote in', visibility_policy: 3 });
    expect(r.json.result).toBe('success');
    expect(policy('othello', verona, 'a topic nobody wrote in')).toBe(3);
  });

  it('emits a user_topic event {stream_id, topic_name, last_updated, visibility_policy} to the user', async () => {
    const q = await register('cordelia');
    const other = await register('hamlet');
    await t.as('cordelia').post('/user_topics', { stream_id: denmark, topic: 'castle', visibility_policy: 3 });
    const evs = await events('cordelia', q);
    expect(evs).toEqual([
      { type: 'user_topic', stream_id: denmark, topic_name: 'castle', last_updated: nowSeconds(t), visibility_policy: 3, id: 0 },
    ]);
    expect(await events('hamlet', other)).toEqual([]);
  });

  it('removal is announced with visibility_policy 0', async () => {
    await t.as('cordelia').post('/user_topics', { stream_id: denmark, topic: 'ghost', visibility_policy: 1 });
    const q = await register('cordelia');
    await t.as('cordelia').post('/user_topics', { stream_id: denmark, topic: 'ghost', visibility_policy: 0 });
    expect((await events('cordelia', q)).map((e) => e.visibility_policy)).toEqual([0]);
  });

  it('setting the current policy again sends no event', async () => {
    await t.as('cordelia').post('/user_topics', { stream_id: denmark, topic: 'same', visibility_policy: 1 });
    const q = await register('cordelia');
    const r = await t.as('cordelia').post('/user_topics', { stream_id: denmark, topic: 'same', visibility_policy: 1 });
    expect(r.json.result).toBe('success');
    expect(await events('cordelia', q)).toEqual([]);
  });

  it('topic names compare case-insensitively (one policy per topic)', async () => {
    await t.as('hamlet').post('/user_topics', { stream_id: verona, topic: 'Balcony', visibility_policy: 1 });
    await t.as('hamlet').post('/user_topics', { stream_id: verona, topic: 'balcony', visibility_policy: 3 });
    expect(policy('hamlet', verona, 'BALCONY')).toBe(3);
  });

  it('the realm_empty_topic_display_name is interpreted as the empty topic', async () => {
    const r = await t.as('hamlet').post('/user_topics', { stream_id: verona, topic: 'general chat', visibility_policy: 3 });
    expect(r.json.result).toBe('success');
    expect(policy('hamlet', verona, '')).toBe(3);
  });

  it('the empty topic is shown as the display name to clients without empty_topic_name, as "" with it', async () => {
    const plain = await register('shiva');
    const capable = await register('shiva', { client_capabilities: { empty_topic_name: true } });
    await t.as('shiva').post('/user_topics', { stream_id: verona, topic: '', visibility_policy: 1 });
    expect((await events('shiva', plain))[0]?.topic_name).toBe('general chat');
    expect((await events('shiva', capable))[0]?.topic_name).toBe('');
  });

  it('a topic longer than max_topic_length is rejected', async () => {
    const r = await t.as('hamlet').post('/user_topics', { stream_id: verona, topic: 'x'.repeat(61), visibility_policy: 1 });
    expect(r.status).toBe(400);
    expect(r.json.result).toBe('error');
  });

  it('a topic of exactly max_topic_length is accepted', async () => {
    const r = await t.as('hamlet').post('/user_topics', { stream_id: verona, topic: 'y'.repeat(60), visibility_policy: 1 });
    expect(r.json.result).toBe('success');
  });

  it('visibility_policy outside 0..3 is rejected', async () => {
    const r = await t.as('hamlet').post('/user_topics', { stream_id: verona, topic: 'x', visibility_policy: 4 });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('REQUEST_VARIABLE_INVALID');
  });

  it.each(['stream_id', 'topic', 'visibility_policy'])('%s is required', async (name) => {
    const params: Record<string, string | number> = { stream_id: verona, topic: 'x', visibility_policy: 1 };
    delete params[name];
    const r = await t.as('hamlet').post('/user_topics', params);
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: name });
  });

  it('an unknown channel is BAD_REQUEST "Invalid channel ID"', async () => {
    const r = await t.as('hamlet').post('/user_topics', { stream_id: 9999, topic: 'x', visibility_policy: 1 });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
  });

  it('a private channel the user cannot access is BAD_REQUEST', async () => {
    const r = await t.as('othello').post('/user_topics', { stream_id: coreTeam, topic: 'secret', visibility_policy: 3 });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
  });

  it('a guest cannot set a policy in a public channel they are not subscribed to', async () => {
    const r = await t.as('polonius').post('/user_topics', { stream_id: verona, topic: 'x', visibility_policy: 1 });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
  });

  it('register returns user_topics for the user_topic fetch key', async () => {
    await t.as('iago').post('/user_topics', { stream_id: verona, topic: 'registered', visibility_policy: 3 });
    const r = await t.as('iago').post('/register', { fetch_event_types: ['user_topic'] });
    expect(r.json.user_topics).toEqual([
      { stream_id: verona, topic_name: 'registered', last_updated: nowSeconds(t), visibility_policy: 3 },
    ]);
  });
});
