/** mark_topic_as_read and subscribe end to end against the reference server. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { kindOf, personalEnv, type Env } from './outbox-env.js';

let env: Env;
beforeEach(async () => {
  env = await personalEnv();
});
afterEach(async () => {
  await env.close();
});

async function iagoChannel(): Promise<{ stream_id: number; name: string }> {
  const subs = (await env.t.as('iago').get('/users/me/subscriptions')).json.subscriptions as Array<{ stream_id: number; name: string }>;
  const c = subs[0];
  if (!c) throw new Error('iago has no subscriptions');
  return c;
}
async function unreadIn(streamId: number, topic: string): Promise<number> {
  const narrow = [
    { operator: 'channel', operand: streamId },
    { operator: 'topic', operand: topic },
    { operator: 'is', operand: 'unread' },
  ];
  const r = await env.t.as('iago').get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow });
  return (r.json.messages as unknown[]).length;
}

describe('mark_topic_as_read', () => {
  it('marks the topic read once, even when the answer is lost', async () => {
    const c = await iagoChannel();
    for (let i = 0; i < 3; i++) await env.t.as('hamlet').post('/messages', { type: 'stream', to: c.stream_id, topic: 'unread here', content: `m${i}` });
    expect(await unreadIn(c.stream_id, 'unread here')).toBe(3);
    env.proxy.rule({ method: 'POST', path: '/api/v1/mark_topic_as_read' }, { kind: 'drop' }, 1);
    env.store.enqueue(kindOf(env.store, 'mark_topic_as_read'), { stream_id: c.stream_id, topic_name: 'unread here' }, null);
    env.store.enqueue(kindOf(env.store, 'mark_topic_as_read'), { stream_id: c.stream_id, topic_name: 'Unread Here' }, null);
    expect(env.store.all()).toHaveLength(1);
    await env.drain();
    expect(env.proxy.counts.drop).toBe(1);
    expect(env.requests(/^POST \/api\/v1\/mark_topic_as_read/)).toBe(1);
    expect(env.store.all()[0]?.state).toBe('done');
    expect(await unreadIn(c.stream_id, 'unread here')).toBe(0);
  });
});

describe('subscribe', () => {
  it('subscribes by name, creating a missing channel, verified after a lost answer', async () => {
    env.proxy.rule({ method: 'POST', path: '/api/v1/users/me/subscriptions' }, { kind: 'drop' }, 1);
    env.store.enqueue(kindOf(env.store, 'subscribe'), { subscriptions: [{ name: 'offline plans' }] }, null);
    await env.drain();
    expect(env.proxy.counts.drop).toBe(1);
    expect(env.requests(/^POST \/api\/v1\/users\/me\/subscriptions/)).toBe(1);
    expect(env.store.all()[0]?.state).toBe('done');
    const subs = (await env.t.as('iago').get('/users/me/subscriptions')).json.subscriptions as Array<{ name: string }>;
    expect(subs.filter((s) => s.name === 'offline plans')).toHaveLength(1);
  });
});
