/** update_scheduled_message end to end against the reference server. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getScheduledMessages as localScheduled, putScheduledMessage } from '../../../sync/db/queries/personal.js';
import { ChangeCollector } from '../../../sync/db/changes.js';
import * as scheduled from '../../../sync/outbox/mutations/scheduled-message-edit.js';
import { channelId } from '../../server/harness.js';
import { kindOf, personalEnv, type Env } from './outbox-env.js';

let env: Env;
beforeEach(async () => {
  env = await personalEnv();
});
afterEach(async () => {
  await env.close();
});

interface Scheduled {
  scheduled_message_id: number;
  to: number | number[];
  content: string;
  topic?: string;
  scheduled_delivery_timestamp: number;
}
async function serverScheduled(id: number): Promise<Scheduled | undefined> {
  return ((await env.t.as('iago').get('/scheduled_messages')).json.scheduled_messages as Scheduled[]).find((m) => m.scheduled_message_id === id);
}

describe('update_scheduled_message', () => {
  it('queued edits merge into one PATCH, shown locally at once, verified after a lost answer', async () => {
    const subs = (await env.t.as('iago').get('/users/me/subscriptions')).json.subscriptions as Array<{ stream_id: number }>;
    const stream = subs[0]?.stream_id ?? -1;
    const at = Math.floor(env.t.clock.now() / 1000) + 3600;
    const created = await env.t.as('iago').post('/scheduled_messages', { type: 'stream', to: stream, topic: 'later', content: 'draft', scheduled_delivery_timestamp: at });
    const id = created.json.scheduled_message_id as number;
    const changes = new ChangeCollector();
    putScheduledMessage(env.db, { scheduled_message_id: id, type: 'stream', to: stream, topic: 'later', content: 'draft', rendered_content: '<p>draft</p>', scheduled_delivery_timestamp: at, failed: false });

    const edits = [{ scheduled_message_id: id, content: 'better' }, { scheduled_message_id: id, topic: 'much later', scheduled_delivery_timestamp: at + 60 }, { scheduled_message_id: id, content: 'best' }];
    for (const e of edits) {
      env.store.enqueue(kindOf(env.store, 'update_scheduled_message'), e, null);
      scheduled.applyOptimistic(env.db, e, changes);
    }
    expect(localScheduled(env.db)[0]).toMatchObject({ content: 'best', topic: 'much later', scheduled_delivery_timestamp: at + 60 });
    expect(env.store.all()).toHaveLength(1);

    env.proxy.rule({ method: 'PATCH', path: /^\/api\/v1\/scheduled_messages\// }, { kind: 'drop' }, 1);
    await env.drain();
    expect(env.proxy.counts.drop).toBe(1);
    expect(env.requests(/^PATCH \/api\/v1\/scheduled_messages\//)).toBe(1);
    expect(env.store.all()[0]?.state).toBe('done');
    expect(await serverScheduled(id)).toMatchObject({ content: 'best', topic: 'much later', scheduled_delivery_timestamp: at + 60 });
  });
});

async function schedule(params: Record<string, string | number | number[]>): Promise<number> {
  const at = Math.floor(env.t.clock.now() / 1000) + 3600;
  const created = await env.t.as('iago').post('/scheduled_messages', { ...params, scheduled_delivery_timestamp: at });
  return created.json.scheduled_message_id as number;
}

async function sentByIago(narrow: Array<{ operator: string; operand: unknown }>, content: string): Promise<number> {
  const res = await env.t.as('iago').get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow: [...narrow, { operator: 'sender', operand: 'iago@example.com' }], apply_markdown: false });
  return (res.json.messages as Array<{ content: string }>).filter((m) => m.content === content).length;
}

describe('update_scheduled_message: a direct message\'s recipients', () => {
  it('sends type direct with `to` the user ids, verified after a lost answer', async () => {
    const hamlet = env.t.userId('hamlet');
    const othello = env.t.userId('othello');
    const desdemona = env.t.userId('desdemona');
    const id = await schedule({ type: 'direct', to: [hamlet], content: 'for hamlet' });
    env.store.enqueue(kindOf(env.store, 'update_scheduled_message'), { scheduled_message_id: id, recipient: { type: 'direct', to: [othello, desdemona] } }, null);
    env.proxy.rule({ method: 'PATCH', path: /^\/api\/v1\/scheduled_messages\// }, { kind: 'drop' }, 1);
    await env.drain();
    expect(env.proxy.counts.drop).toBe(1);
    expect(env.requests(/^PATCH \/api\/v1\/scheduled_messages\//)).toBe(1);
    expect(env.store.all()[0]?.state).toBe('done');
    expect(await serverScheduled(id)).toMatchObject({ type: 'private', to: [othello, desdemona].sort((a, b) => a - b), content: 'for hamlet' });
  });

  it('a recipient the server does not know fails visibly, the message keeps its recipients', async () => {
    const hamlet = env.t.userId('hamlet');
    const id = await schedule({ type: 'direct', to: [hamlet], content: 'still hamlet' });
    env.store.enqueue(kindOf(env.store, 'update_scheduled_message'), { scheduled_message_id: id, recipient: { type: 'direct', to: [987654] } }, null);
    await env.drain();
    expect(env.store.all()[0]?.state).toBe('failed');
    expect((await serverScheduled(id))?.to).toEqual([hamlet]);
  });
});

describe('send_scheduled_message_now', () => {
  const base = () => ({ enqueued_at: Math.floor(env.time.now() / 1000) });

  it('unschedules and sends once, even when the send\'s answer is lost', async () => {
    const verona = channelId(env.t, 'Verona');
    const id = await schedule({ type: 'stream', to: verona, topic: 'now please', content: 'send me now' });
    env.store.enqueue(kindOf(env.store, 'send_scheduled_message_now'), { scheduled_message_id: id, to: { type: 'channel', stream_id: verona, topic: 'now please' }, content: 'send me now' }, base());
    env.proxy.rule({ method: 'POST', path: /^\/api\/v1\/messages$/ }, { kind: 'drop' }, 1);
    await env.drain();
    expect(env.proxy.counts.drop).toBe(1);
    expect(env.store.all()[0]?.state).toBe('done');
    expect(env.requests(/^POST \/api\/v1\/messages$/)).toBe(1);
    expect(await serverScheduled(id)).toBeUndefined();
    expect(await sentByIago([{ operator: 'channel', operand: verona }, { operator: 'topic', operand: 'now please' }], 'send me now')).toBe(1);
  });

  it('a direct message goes to its recipients; a lost DELETE answer is verified, not repeated blindly', async () => {
    const hamlet = env.t.userId('hamlet');
    const id = await schedule({ type: 'direct', to: [hamlet], content: 'dm now' });
    env.store.enqueue(kindOf(env.store, 'send_scheduled_message_now'), { scheduled_message_id: id, to: { type: 'direct', user_ids: [hamlet] }, content: 'dm now' }, base());
    env.proxy.rule({ method: 'DELETE', path: /^\/api\/v1\/scheduled_messages\// }, { kind: 'drop' }, 1);
    await env.drain();
    expect(env.store.all()[0]?.state).toBe('done');
    expect(await serverScheduled(id)).toBeUndefined();
    expect(await sentByIago([{ operator: 'dm', operand: [hamlet] }], 'dm now')).toBe(1);
  });

  it('a message the server delivered meanwhile is not sent a second time', async () => {
    const verona = channelId(env.t, 'Verona');
    const id = await schedule({ type: 'stream', to: verona, topic: 'delivered', content: 'only once' });
    env.store.enqueue(kindOf(env.store, 'send_scheduled_message_now'), { scheduled_message_id: id, to: { type: 'channel', stream_id: verona, topic: 'delivered' }, content: 'only once' }, base());
    // As the server's delivery does it: the message is sent and leaves the scheduled list.
    await env.t.as('iago').post('/messages', { type: 'stream', to: verona, topic: 'delivered', content: 'only once' });
    await env.t.as('iago').delete(`/scheduled_messages/${id}`);
    await env.drain();
    expect(env.store.all()[0]?.state).toBe('done');
    expect(env.requests(/^POST \/api\/v1\/messages$/)).toBe(0);
    expect(await sentByIago([{ operator: 'channel', operand: verona }, { operator: 'topic', operand: 'delivered' }], 'only once')).toBe(1);
  });

  it('a message the server delivered at its time, long before the click (the user was offline), is not sent again', async () => {
    const verona = channelId(env.t, 'Verona');
    const at = Math.floor(env.t.clock.now() / 1000) + 3600;
    const created = await env.t.as('iago').post('/scheduled_messages', { type: 'stream', to: verona, topic: 'while away', content: 'delivered at nine', scheduled_delivery_timestamp: at });
    const id = created.json.scheduled_message_id as number;
    // The server delivers it on time; the user, offline, still sees it listed and clicks "Send now" 20 minutes later.
    env.t.clock.advance(3600 * 1000);
    expect(env.t.server.runScheduler()).toBe(1);
    env.t.clock.advance(20 * 60 * 1000);
    env.time.advance(3600 * 1000 + 20 * 60 * 1000);
    const args = { scheduled_message_id: id, to: { type: 'channel', stream_id: verona, topic: 'while away' }, content: 'delivered at nine' };
    env.store.enqueue(kindOf(env.store, 'send_scheduled_message_now'), args, { ...base(), scheduled_at: at });
    await env.drain();
    expect(env.store.all()[0]?.state).toBe('done');
    expect(env.requests(/^POST \/api\/v1\/messages$/)).toBe(0);
    expect(await sentByIago([{ operator: 'channel', operand: verona }, { operator: 'topic', operand: 'while away' }], 'delivered at nine')).toBe(1);
  });

  it('sent early (the click before its time), the earlier copy of the same text still does not count as delivered', async () => {
    const verona = channelId(env.t, 'Verona');
    // The same text posted by hand two hours ago is not the scheduled message.
    await env.t.as('iago').post('/messages', { type: 'stream', to: verona, topic: 'early', content: 'same words' });
    env.t.clock.advance(2 * 3600 * 1000);
    env.time.advance(2 * 3600 * 1000);
    const at = Math.floor(env.t.clock.now() / 1000) + 3600;
    const created = await env.t.as('iago').post('/scheduled_messages', { type: 'stream', to: verona, topic: 'early', content: 'same words', scheduled_delivery_timestamp: at });
    const id = created.json.scheduled_message_id as number;
    const args = { scheduled_message_id: id, to: { type: 'channel', stream_id: verona, topic: 'early' }, content: 'same words' };
    env.store.enqueue(kindOf(env.store, 'send_scheduled_message_now'), args, { ...base(), scheduled_at: at });
    // As in the delivered case, the DELETE finds it gone (here: another device deleted it).
    await env.t.as('iago').delete(`/scheduled_messages/${id}`);
    await env.drain();
    expect(env.store.all()[0]?.state).toBe('done');
    expect(env.requests(/^POST \/api\/v1\/messages$/)).toBe(1);
    expect(await sentByIago([{ operator: 'channel', operand: verona }, { operator: 'topic', operand: 'early' }], 'same words')).toBe(2);
  });
});
