/**
 * A scheduled message created offline whose time passed before it reached the server: the create
 * is refused ("must be in the future") and must not hold the message hostage. A later edit folds
 * into the failed create (sent again with the new time and text), "Send now" sends it as a message
 * exactly once, a delete annuls it; against the reference server.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getScheduledMessages as localScheduled, putScheduledMessage } from '../../../sync/db/queries/personal.js';
import { ChangeCollector } from '../../../sync/db/changes.js';
import * as edit from '../../../sync/outbox/mutations/scheduled-message-edit.js';
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
  content: string;
  topic?: string;
  scheduled_delivery_timestamp: number;
}
const serverScheduled = async (): Promise<Scheduled[]> => (await env.t.as('iago').get('/scheduled_messages')).json.scheduled_messages as Scheduled[];
const nowS = () => Math.floor(env.t.clock.now() / 1000);

async function sentByIago(narrow: Array<{ operator: string; operand: unknown }>, content: string): Promise<number> {
  const res = await env.t.as('iago').get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow: [...narrow, { operator: 'sender', operand: 'iago@example.com' }], apply_markdown: false });
  return (res.json.messages as Array<{ content: string }>).filter((m) => m.content === content).length;
}

/** A create queued offline for a time that has passed by the time it is sent: refused, failed. */
async function failedCreate(topic: string, content: string): Promise<{ tmp: string; rowId: number; verona: number }> {
  const verona = channelId(env.t, 'Verona');
  const tmp = env.store.newTempId();
  const r = env.store.enqueue(kindOf(env.store, 'create_scheduled_message'), { tmp_id: tmp, recipient: { type: 'channel', to: verona, topic }, content, scheduled_delivery_timestamp: nowS() - 30 }, null);
  await env.drain();
  const row = env.store.get(r.id);
  expect(row?.state).toBe('failed');
  expect(row?.lastError).toMatchObject({ message: expect.stringMatching(/in the future/) });
  return { tmp, rowId: r.id, verona };
}

describe('a scheduled message whose create was refused for its time', () => {
  it('an edit with a new time folds into the failed create, which is sent again with it', async () => {
    const { tmp, rowId } = await failedCreate('late', 'first text');
    const at = nowS() + 3600;
    const res = env.store.enqueue(kindOf(env.store, 'update_scheduled_message'), { scheduled_message_id: tmp, content: 'second text', scheduled_delivery_timestamp: at }, null);
    expect(res).toEqual({ outcome: 'merged', id: rowId });
    expect(env.store.all().filter((r) => r.state !== 'done' && r.state !== 'discarded').map((r) => [r.kind, r.state])).toEqual([['create_scheduled_message', 'queued']]);
    await env.drain();
    expect(env.store.get(rowId)?.state).toBe('done');
    expect(env.requests(/^POST \/api\/v1\/scheduled_messages$/)).toBe(2);
    expect((await serverScheduled()).filter((m) => m.topic === 'late')).toMatchObject([{ content: 'second text', scheduled_delivery_timestamp: at }]);
  });

  it('edits queued behind it while it was being sent fold in too, in order', async () => {
    const verona = channelId(env.t, 'Verona');
    const tmp = env.store.newTempId();
    const create = env.store.enqueue(kindOf(env.store, 'create_scheduled_message'), { tmp_id: tmp, recipient: { type: 'channel', to: verona, topic: 'behind' }, content: 'one', scheduled_delivery_timestamp: nowS() - 30 }, null);
    // In flight when the edit came: the edit queued behind it.
    env.store.apply({ id: create.id }, 'send', { attempts: 1 });
    const waiting = env.store.enqueue(kindOf(env.store, 'update_scheduled_message'), { scheduled_message_id: tmp, content: 'two' }, null);
    expect(waiting.outcome).toBe('added');
    env.store.apply({ id: create.id }, 'permanent', { lastError: { kind: 'api', message: 'Scheduled delivery time must be in the future.' } });
    const at = nowS() + 7200;
    expect(env.store.enqueue(kindOf(env.store, 'update_scheduled_message'), { scheduled_message_id: tmp, scheduled_delivery_timestamp: at }, null)).toEqual({ outcome: 'merged', id: create.id });
    expect(env.store.get(waiting.id)?.state).toBe('discarded');
    await env.drain();
    expect(env.store.get(create.id)?.state).toBe('done');
    expect((await serverScheduled()).filter((m) => m.topic === 'behind')).toMatchObject([{ content: 'two', scheduled_delivery_timestamp: at }]);
  });

  it('“Send now” sends it as a message exactly once, even when the answer is lost', async () => {
    const { tmp, rowId, verona } = await failedCreate('now instead', 'send it now');
    const res = env.store.enqueue(
      kindOf(env.store, 'send_scheduled_message_now'),
      { scheduled_message_id: tmp, to: { type: 'channel', stream_id: verona, topic: 'now instead' }, content: 'send it now' },
      { enqueued_at: nowS() },
    );
    expect(res).toEqual({ outcome: 'merged', id: rowId });
    env.proxy.rule({ method: 'POST', path: /^\/api\/v1\/messages$/ }, { kind: 'drop' }, 1);
    await env.drain();
    expect(env.proxy.counts.drop).toBe(1);
    expect(env.store.get(rowId)?.state).toBe('done');
    expect(env.requests(/^POST \/api\/v1\/messages$/)).toBe(1);
    expect(env.requests(/^POST \/api\/v1\/scheduled_messages$/)).toBe(1);
    expect(await sentByIago([{ operator: 'channel', operand: verona }, { operator: 'topic', operand: 'now instead' }], 'send it now')).toBe(1);
    expect((await serverScheduled()).some((m) => m.content === 'send it now')).toBe(false);
    // Done: the list no longer holds it.
    expect(env.store.all().filter((r) => r.state !== 'done' && r.state !== 'discarded')).toEqual([]);
  });

  it('“Send now” of a create still queued offline sends one message and schedules nothing', async () => {
    const verona = channelId(env.t, 'Verona');
    const tmp = env.store.newTempId();
    const create = env.store.enqueue(kindOf(env.store, 'create_scheduled_message'), { tmp_id: tmp, recipient: { type: 'channel', to: verona, topic: 'never scheduled' }, content: 'straight out', scheduled_delivery_timestamp: nowS() + 3600 }, null);
    const res = env.store.enqueue(kindOf(env.store, 'send_scheduled_message_now'), { scheduled_message_id: tmp, to: { type: 'channel', stream_id: verona, topic: 'never scheduled' }, content: 'straight out' }, { enqueued_at: nowS() });
    expect(res).toEqual({ outcome: 'merged', id: create.id });
    await env.drain();
    expect(env.requests(/^POST \/api\/v1\/scheduled_messages$/)).toBe(0);
    expect(await sentByIago([{ operator: 'channel', operand: verona }, { operator: 'topic', operand: 'never scheduled' }], 'straight out')).toBe(1);
  });

  it('a delete annuls it: nothing is sent', async () => {
    const { tmp, rowId } = await failedCreate('gone', 'never mind');
    expect(env.store.enqueue(kindOf(env.store, 'delete_scheduled_message'), { scheduled_message_id: tmp }, null)).toEqual({ outcome: 'cancelled', id: rowId });
    expect(env.store.get(rowId)?.state).toBe('discarded');
    await env.drain();
    expect(env.requests(/^POST \/api\/v1\/scheduled_messages$/)).toBe(1);
    expect(env.requests(/^DELETE /)).toBe(0);
  });
});

describe('an edit of a scheduled message, offline', () => {
  it('shows its new text in the list at once (the rendered text too)', () => {
    putScheduledMessage(env.db, { scheduled_message_id: 7, type: 'stream', to: 1, topic: 't', content: 'old', rendered_content: '<p>old</p>', scheduled_delivery_timestamp: nowS() + 60, failed: false });
    edit.applyOptimistic(env.db, { scheduled_message_id: 7, content: 'new words' }, new ChangeCollector());
    expect(localScheduled(env.db)[0]).toMatchObject({ content: 'new words', rendered_content: '<p>new words</p>' });
  });
});

describe('a send now that waited behind a create then refused for its time', () => {
  async function sendNowBehindRefusedCreate(topic: string, content: string) {
    const verona = channelId(env.t, 'Verona');
    const tmp = env.store.newTempId();
    const create = env.store.enqueue(kindOf(env.store, 'create_scheduled_message'), { tmp_id: tmp, recipient: { type: 'channel', to: verona, topic }, content, scheduled_delivery_timestamp: nowS() - 30 }, null);
    env.store.apply({ id: create.id }, 'send', { attempts: 1 });
    const sendNow = env.store.enqueue(kindOf(env.store, 'send_scheduled_message_now'), { scheduled_message_id: tmp, to: { type: 'channel', stream_id: verona, topic }, content }, { enqueued_at: nowS() });
    expect(sendNow.outcome).toBe('added');
    env.store.apply({ id: create.id }, 'permanent', { lastError: { kind: 'api', message: 'Scheduled delivery time must be in the future.' } });
    return { tmp, verona, create: create.id, sendNow: sendNow.id };
  }

  it('a new time folds both in: scheduled again at that time, nothing sent now', async () => {
    const { tmp, create, sendNow } = await sendNowBehindRefusedCreate('changed mind', 'later after all');
    const at = nowS() + 3600;
    expect(env.store.enqueue(kindOf(env.store, 'update_scheduled_message'), { scheduled_message_id: tmp, scheduled_delivery_timestamp: at }, null)).toEqual({ outcome: 'merged', id: create });
    expect(env.store.get(sendNow)?.state).toBe('discarded');
    await env.drain();
    expect(env.requests(/^POST \/api\/v1\/messages$/)).toBe(0);
    expect((await serverScheduled()).filter((m) => m.topic === 'changed mind')).toMatchObject([{ content: 'later after all', scheduled_delivery_timestamp: at }]);
  });

  it('send now again: one message', async () => {
    const { tmp, verona, create } = await sendNowBehindRefusedCreate('again', 'now, really');
    const res = env.store.enqueue(kindOf(env.store, 'send_scheduled_message_now'), { scheduled_message_id: tmp, to: { type: 'channel', stream_id: verona, topic: 'again' }, content: 'now, really' }, { enqueued_at: nowS() });
    expect(res).toEqual({ outcome: 'merged', id: create });
    await env.drain();
    expect(env.requests(/^POST \/api\/v1\/messages$/)).toBe(1);
    expect(await sentByIago([{ operator: 'channel', operand: verona }, { operator: 'topic', operand: 'again' }], 'now, really')).toBe(1);
  });
});

describe('an edit of a server-held scheduled message refused for its time', () => {
  it('a later edit with a new time folds into it and goes', async () => {
    const verona = channelId(env.t, 'Verona');
    const created = await env.t.as('iago').post('/scheduled_messages', { type: 'stream', to: verona, topic: 'held', content: 'held text', scheduled_delivery_timestamp: nowS() + 3600 });
    const id = created.json.scheduled_message_id as number;
    const first = env.store.enqueue(kindOf(env.store, 'update_scheduled_message'), { scheduled_message_id: id, content: 'edited', scheduled_delivery_timestamp: nowS() - 30 }, null);
    await env.drain();
    expect(env.store.get(first.id)?.state).toBe('failed');
    const at = nowS() + 7200;
    expect(env.store.enqueue(kindOf(env.store, 'update_scheduled_message'), { scheduled_message_id: id, scheduled_delivery_timestamp: at }, null)).toEqual({ outcome: 'merged', id: first.id });
    await env.drain();
    expect(env.store.get(first.id)?.state).toBe('done');
    expect((await serverScheduled()).find((m) => m.scheduled_message_id === id)).toMatchObject({ content: 'edited', scheduled_delivery_timestamp: at });
  });
});

describe('send now of a server-held scheduled message whose edit was refused', () => {
  it('supersedes the refused edit: sent once, with the edited text the list shows', async () => {
    const verona = channelId(env.t, 'Verona');
    const created = await env.t.as('iago').post('/scheduled_messages', { type: 'stream', to: verona, topic: 'held now', content: 'held text', scheduled_delivery_timestamp: nowS() + 3600 });
    const id = created.json.scheduled_message_id as number;
    const first = env.store.enqueue(kindOf(env.store, 'update_scheduled_message'), { scheduled_message_id: id, content: 'edited text', scheduled_delivery_timestamp: nowS() - 30 }, null);
    await env.drain();
    expect(env.store.get(first.id)?.state).toBe('failed');
    const res = env.store.enqueue(kindOf(env.store, 'send_scheduled_message_now'), { scheduled_message_id: id, to: { type: 'channel', stream_id: verona, topic: 'held now' }, content: 'edited text' }, { enqueued_at: nowS() });
    expect(res.outcome).toBe('added');
    expect(env.store.get(first.id)?.state).toBe('discarded');
    await env.drain();
    expect(env.store.get(res.id)?.state).toBe('done');
    expect(await sentByIago([{ operator: 'channel', operand: verona }, { operator: 'topic', operand: 'held now' }], 'edited text')).toBe(1);
    expect((await serverScheduled()).some((m) => m.scheduled_message_id === id)).toBe(false);
  });
});
