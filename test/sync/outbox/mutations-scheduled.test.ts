/** scheduled_message_edit end to end against the reference server. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getScheduledMessages as localScheduled, putScheduledMessage } from '../../../sync/db/queries/personal.js';
import { ChangeCollector } from '../../../sync/engine/changes.js';
import * as scheduled from '../../../sync/outbox/mutations/scheduled-message-edit.js';
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
  content: string;
  topic?: string;
  scheduled_delivery_timestamp: number;
}
async function serverScheduled(id: number): Promise<Scheduled | undefined> {
  return ((await env.t.as('iago').get('/scheduled_messages')).json.scheduled_messages as Scheduled[]).find((m) => m.scheduled_message_id === id);
}

describe('scheduled_message_edit', () => {
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
      env.store.enqueue(kindOf(env.store, 'scheduled_message_edit'), e, null);
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
