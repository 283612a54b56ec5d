/**
 * The kinds the screens need: message flags (by id, and a whole narrow read), reactions, and
 * scheduled messages created and deleted offline, end to end against the reference server through
 * the fault proxy: each lands exactly once, a lost answer is verified by reading, and intents that
 * annul each other send nothing.
 */
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
async function post(streamId: number, topic: string, content: string): Promise<number> {
  const r = await env.t.as('hamlet').post('/messages', { type: 'stream', to: streamId, topic, content });
  return r.json.id as number;
}
async function flagsOf(id: number): Promise<string[]> {
  return ((await env.t.as('iago').get(`/messages/${id}`)).json.message as { flags: string[] }).flags;
}
async function reactionsOf(id: number): Promise<Array<{ emoji_name: string; user_id: number }>> {
  return ((await env.t.as('iago').get(`/messages/${id}`)).json.message as { reactions: Array<{ emoji_name: string; user_id: number }> }).reactions;
}
async function scheduled(): Promise<Array<{ scheduled_message_id: number; content: string; to: number | number[]; topic?: string }>> {
  return (await env.t.as('iago').get('/scheduled_messages')).json.scheduled_messages as Array<{ scheduled_message_id: number; content: string; to: number | number[]; topic?: string }>;
}
const kind = (name: string) => kindOf(env.store, name);
const HEART = { emoji_name: 'heart', emoji_code: '2764', reaction_type: 'unicode_emoji' } as const;

describe('update_message_flags', () => {
  it('stars messages once when the answer is lost; queued stars of the same flag merge', async () => {
    const c = await iagoChannel();
    const a = await post(c.stream_id, 'flags', 'one');
    const b = await post(c.stream_id, 'flags', 'two');
    env.proxy.rule({ method: 'POST', path: '/api/v1/messages/flags' }, { kind: 'drop' }, 1);
    env.store.enqueue(kind('update_message_flags'), { messages: [a], op: 'add', flag: 'starred' }, null);
    env.store.enqueue(kind('update_message_flags'), { messages: [b, a], op: 'add', flag: 'starred' }, null);
    expect(env.store.all().map((r) => r.args)).toEqual([{ messages: [a, b], op: 'add', flag: 'starred' }]);
    await env.drain();
    expect(env.proxy.counts.drop).toBe(1);
    expect(env.requests(/^POST \/api\/v1\/messages\/flags$/)).toBe(1);
    expect(env.store.all()[0]?.state).toBe('done');
    expect(await flagsOf(a)).toContain('starred');
    expect(await flagsOf(b)).toContain('starred');
  });

  it('a star then an unstar are both sent, in order: the last action wins', async () => {
    const c = await iagoChannel();
    const a = await post(c.stream_id, 'flags', 'toggle');
    env.store.enqueue(kind('update_message_flags'), { messages: [a], op: 'add', flag: 'starred' }, null);
    env.store.enqueue(kind('update_message_flags'), { messages: [a], op: 'remove', flag: 'starred' }, null);
    await env.drain();
    expect(env.store.all().map((r) => r.state)).toEqual(['done', 'done']);
    expect(await flagsOf(a)).not.toContain('starred');
  });

  it('mark as unread, and read again', async () => {
    const c = await iagoChannel();
    const a = await post(c.stream_id, 'flags', 'read me');
    env.store.enqueue(kind('update_message_flags'), { messages: [a], op: 'add', flag: 'read' }, null);
    await env.drain();
    expect(await flagsOf(a)).toContain('read');
    env.store.enqueue(kind('update_message_flags'), { messages: [a], op: 'remove', flag: 'read' }, null);
    await env.drain();
    expect(await flagsOf(a)).not.toContain('read');
  });

  it('refuses local echoes and empty lists (nothing written)', () => {
    expect(() => env.store.enqueue(kind('update_message_flags'), { messages: [], op: 'add', flag: 'read' }, null)).toThrow(/bad update_message_flags intent/);
    expect(() => env.store.enqueue(kind('update_message_flags'), { messages: [2 ** 52 + 1], op: 'add', flag: 'read' }, null)).toThrow(/bad update_message_flags intent/);
    expect(env.store.all()).toEqual([]);
  });
});

describe('update_message_flags_for_narrow', () => {
  it('marks a whole channel read through /messages/flags/narrow, once despite a lost answer', async () => {
    const c = await iagoChannel();
    for (let i = 0; i < 4; i++) await post(c.stream_id, `narrow read ${i % 2}`, `m${i}`);
    const unread = async () =>
      ((await env.t.as('iago').get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow: [{ operator: 'channel', operand: c.stream_id }, { operator: 'is', operand: 'unread' }] })).json.messages as unknown[]).length;
    expect(await unread()).toBeGreaterThanOrEqual(4);
    env.proxy.rule({ method: 'POST', path: '/api/v1/messages/flags/narrow' }, { kind: 'drop' }, 1);
    env.store.enqueue(kind('update_message_flags_for_narrow'), { narrow: [{ operator: 'channel', operand: c.stream_id }] }, null);
    env.store.enqueue(kind('update_message_flags_for_narrow'), { narrow: [{ operator: 'channel', operand: c.stream_id }] }, null);
    expect(env.store.all()).toHaveLength(1);
    await env.drain();
    expect(env.proxy.counts.drop).toBe(1);
    expect(env.requests(/^POST \/api\/v1\/messages\/flags\/narrow/)).toBe(1);
    expect(env.store.all()[0]?.state).toBe('done');
    expect(await unread()).toBe(0);
  });
});

describe('add_or_remove_reaction', () => {
  it('adds a reaction exactly once when the answer is lost', async () => {
    const c = await iagoChannel();
    const a = await post(c.stream_id, 'reactions', 'react to me');
    env.proxy.rule({ method: 'POST', path: new RegExp(`^/api/v1/messages/${a}/reactions`) }, { kind: 'drop' }, 1);
    env.store.enqueue(kind('add_or_remove_reaction'), { message_id: a, op: 'add', ...HEART }, null);
    await env.drain();
    expect(env.proxy.counts.drop).toBe(1);
    expect(env.store.all()[0]?.state).toBe('done');
    expect((await reactionsOf(a)).filter((r) => r.emoji_name === 'heart')).toHaveLength(1);
  });

  it('a toggle back while queued annuls both; a reaction already there counts as done', async () => {
    const c = await iagoChannel();
    const a = await post(c.stream_id, 'reactions', 'toggle');
    env.store.enqueue(kind('add_or_remove_reaction'), { message_id: a, op: 'add', ...HEART }, null);
    const r = env.store.enqueue(kind('add_or_remove_reaction'), { message_id: a, op: 'remove', ...HEART }, null);
    expect(r.outcome).toBe('cancelled');
    await env.drain();
    expect(env.requests(/reactions/)).toBe(0);
    // Made on the phone meanwhile: the queued add finds it there and is done, not failed.
    expect((await env.t.as('iago').post(`/messages/${a}/reactions`, HEART)).status).toBe(200);
    env.store.enqueue(kind('add_or_remove_reaction'), { message_id: a, op: 'add', ...HEART }, null);
    await env.drain();
    expect(env.store.all().at(-1)?.state).toBe('done');
    expect((await reactionsOf(a)).filter((x) => x.emoji_name === 'heart')).toHaveLength(1);
    env.store.enqueue(kind('add_or_remove_reaction'), { message_id: a, op: 'remove', ...HEART }, null);
    await env.drain();
    expect(await reactionsOf(a)).toEqual([]);
  });
});

describe('scheduled messages created and deleted offline', () => {
  const later = () => Math.floor(env.time.now() / 1000) + 3600;

  it('a create lands once after a lost answer, its queued edit folded in; a later delete removes it', async () => {
    const c = await iagoChannel();
    const before = (await scheduled()).length;
    const tmp = env.store.newTempId();
    const at = later();
    env.proxy.rule({ method: 'POST', path: '/api/v1/scheduled_messages' }, { kind: 'drop' }, 1);
    env.store.enqueue(kind('create_scheduled_message'), { tmp_id: tmp, recipient: { type: 'channel', to: c.stream_id, topic: 'plans' }, content: 'see you at 9', scheduled_delivery_timestamp: at }, null);
    env.store.enqueue(kind('update_scheduled_message'), { scheduled_message_id: tmp, content: 'see you at 10  ' }, null);
    expect(env.store.all()).toHaveLength(1);
    await env.drain();
    expect(env.proxy.counts.drop).toBe(1);
    expect(env.requests(/^POST \/api\/v1\/scheduled_messages$/)).toBe(1);
    const mine = (await scheduled()).filter((m) => m.content.startsWith('see you at'));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ content: 'see you at 10', to: c.stream_id, topic: 'plans' });
    expect((await scheduled()).length).toBe(before + 1);
    // The stale temporary id still reaches it.
    env.store.enqueue(kind('delete_scheduled_message'), { scheduled_message_id: tmp }, null);
    expect(env.store.all().at(-1)?.args).toEqual({ scheduled_message_id: mine[0]!.scheduled_message_id });
    env.proxy.rule({ method: 'DELETE', path: /^\/api\/v1\/scheduled_messages\// }, { kind: 'drop' }, 1);
    await env.drain();
    expect(env.store.all().map((r) => r.state)).toEqual(['done', 'done']);
    expect((await scheduled()).length).toBe(before);
  });

  it('create then delete while offline sends nothing', async () => {
    const c = await iagoChannel();
    const tmp = env.store.newTempId();
    env.store.enqueue(kind('create_scheduled_message'), { tmp_id: tmp, recipient: { type: 'channel', to: c.stream_id, topic: 'x' }, content: 'never mind', scheduled_delivery_timestamp: later() }, null);
    const r = env.store.enqueue(kind('delete_scheduled_message'), { scheduled_message_id: tmp }, null);
    expect(r.outcome).toBe('cancelled');
    await env.drain();
    expect(env.requests(/scheduled_messages/)).toBe(0);
  });
});
