/**
 * `send_submessage` (polls and to-do lists) through the session against the reference server:
 * the pending interaction shows at once on the cached message and survives another user's vote
 * arriving meanwhile; the server's copy replaces the local one; a lost answer is verified by
 * reading the message (never resent blindly), a second strike of one task is told from the
 * first; interactions go in order; a vote and its undo queued offline send nothing.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getStoredMessage } from '../../../sync/db/queries/messages.js';
import { outboxIntents } from '../../../sync/engine/outbox-intents.js';
import { startTestServer, type TestServer } from '../../server/harness.js';
import { until } from '../engine/session-helpers.js';
import { sessionEnv, type SessionEnv } from './session-support.js';
import { ALL_KINDS } from '../../../sync/outbox/registry.js';
import { kindOf, outboxEnv, type Env } from './outbox-env.js';

let t: TestServer;
let env: SessionEnv;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());
beforeEach(async () => {
  env = await sessionEnv(t);
});
afterEach(() => env.close());

const SUBMIT = { method: 'POST', path: '/api/v1/submessage' };
const vote = (key: string, v: 1 | -1) => ({ type: 'vote' as const, key, vote: v });

async function widgetMessage(who: string, content: string): Promise<number> {
  const id = (await t.as(who).post('/messages', { type: 'stream', to: 'Verona', topic: 'widgets', content })).json.id as number;
  await until(() => getStoredMessage(env.s.db, id)?.submessages.length === 1, 10_000, 'the widget cached');
  return id;
}
const cached = (id: number) => getStoredMessage(env.s.db, id)?.submessages ?? [];
async function serverSubs(id: number): Promise<Array<{ sender_id: number; content: string }>> {
  return ((await t.as('hamlet').get(`/messages/${id}`)).json.message as { submessages: Array<{ sender_id: number; content: string }> }).submessages;
}
const hamletsWith = async (id: number, content: string) => (await serverSubs(id)).filter((s) => s.sender_id === t.userId('hamlet') && s.content === content).length;

describe('send_submessage', () => {
  it("shows a pending vote at once, keeps it over another user's vote, and lands it once", async () => {
    const { s, proxy } = env;
    const intents = outboxIntents(s.db, s.outbox);
    const id = await widgetMessage('othello', '/poll Lunch?\nPizza\nSoup');
    proxy.rule(SUBMIT, { kind: 'error500' });
    const r = intents.sendSubmessage({ message_id: id, event: vote('canned,0', 1) });
    const content = JSON.stringify(vote('canned,0', 1));
    expect(cached(id)).toContainEqual(expect.objectContaining({ id: -1, sender_id: t.userId('hamlet'), content }));
    await until(() => s.outbox.store.get(r.outbox_id)?.state === 'retry_wait', 5_000, 'a failed attempt');

    expect((await t.as('cordelia').post('/submessage', { message_id: String(id), msg_type: 'widget', content })).status).toBe(200);
    await until(() => cached(id).some((x) => x.sender_id === t.userId('cordelia')), 10_000, "cordelia's vote cached");
    expect(cached(id).filter((x) => x.content === content).map((x) => x.sender_id)).toEqual(expect.arrayContaining([t.userId('hamlet'), t.userId('cordelia')]));

    proxy.clearRules();
    s.outbox.retryNow();
    await until(() => s.outbox.store.get(r.outbox_id)?.state === 'done', 10_000, 'row done');
    await until(() => cached(id).every((x) => x.id > 0) && cached(id).length === 3, 10_000, "the server's copy replaced the local one");
    expect(await hamletsWith(id, content)).toBe(1);
  });

  it('a lost answer is verified by reading: each of two strikes of one task lands once', async () => {
    const { s, proxy } = env;
    const intents = outboxIntents(s.db, s.outbox);
    const id = await widgetMessage('othello', '/todo Chores\nDishes');
    const strike = { type: 'strike' as const, key: '0,canned' };
    const content = JSON.stringify(strike);
    // Every answer is lost: each row's landing is only known by reading the message back.
    proxy.rule(SUBMIT, { kind: 'drop' }, 2);
    const first = intents.sendSubmessage({ message_id: id, event: strike });
    await until(() => s.outbox.store.get(first.outbox_id)?.state === 'done', 15_000, 'first strike done');
    // The second strike while the first's event may not have arrived: still told apart.
    const second = intents.sendSubmessage({ message_id: id, event: strike });
    expect(second.outcome).toBe('added');
    await until(() => s.outbox.store.get(second.outbox_id)?.state === 'done', 15_000, 'second strike done');
    expect(proxy.counts.drop).toBe(2);
    expect(proxy.log.filter((l) => l.method === 'POST' && l.path === '/api/v1/submessage')).toHaveLength(2);
    expect(await hamletsWith(id, content)).toBe(2);
    await until(() => cached(id).filter((x) => x.content === content && x.id > 0).length === 2 && cached(id).every((x) => x.id > 0), 10_000, 'both cached');
  });

  it('a new option and a vote for it queued offline reach the server in order', async () => {
    const { s, proxy } = env;
    const intents = outboxIntents(s.db, s.outbox);
    const id = await widgetMessage('othello', '/poll Tea?\nYes');
    proxy.rule(SUBMIT, { kind: 'error500' });
    const opt = intents.sendSubmessage({ message_id: id, event: { type: 'new_option', idx: 1, option: 'Coffee' } });
    const mine = intents.sendSubmessage({ message_id: id, event: vote(`${t.userId('hamlet')},1`, 1) });
    expect(cached(id).filter((x) => x.id < 0).map((x) => x.id)).toEqual([-1, -2]);
    await until(() => s.outbox.store.get(opt.outbox_id)?.state === 'retry_wait', 5_000, 'a failed attempt');
    proxy.clearRules();
    s.outbox.retryNow();
    await until(() => s.outbox.store.get(mine.outbox_id)?.state === 'done', 10_000, 'the vote done');
    expect(s.outbox.store.get(opt.outbox_id)?.state).toBe('done');
    const subs = await serverSubs(id);
    expect(subs.map((x) => JSON.parse(x.content) as { type?: string; widget_type?: string }).map((c) => c.type ?? c.widget_type)).toEqual(['poll', 'new_option', 'vote']);
    await until(() => cached(id).every((x) => x.id > 0) && cached(id).length === 3, 10_000, 'the cache is the server');
  });
});

describe('send_submessage coalescing while unsent', () => {
  let store: Env;
  beforeEach(async () => {
    store = await outboxEnv({ kinds: ALL_KINDS, email: 'hamlet@example.com' });
  });
  afterEach(() => store.close());

  const row = (event: object, local_id: number) => ({ message_id: 7, msg_type: 'widget', content: JSON.stringify(event), local_id });
  const enqueue = (event: object, local_id: number) => store.store.enqueue(kindOf(store.store, 'send_submessage'), row(event, local_id), { known: 0 });

  it('the same vote twice is one, a vote then its undo is nothing, two strikes of a task are nothing', () => {
    expect(enqueue(vote('canned,0', 1), -1).outcome).toBe('added');
    expect(enqueue(vote('canned,0', 1), -2).outcome).toBe('merged');
    expect(enqueue(vote('canned,0', -1), -3).outcome).toBe('cancelled');
    expect(enqueue({ type: 'strike', key: '1,9' }, -4).outcome).toBe('added');
    expect(enqueue({ type: 'strike', key: '1,9' }, -5).outcome).toBe('cancelled');
    expect(store.store.all().filter((r) => r.state === 'queued')).toEqual([]);
  });

  it('a new question replaces the queued one under its local copy; options, tasks and votes for other keys stay', () => {
    enqueue({ type: 'question', question: 'Lunch?' }, -1);
    expect(enqueue({ type: 'question', question: 'Dinner?' }, -2).outcome).toBe('merged');
    expect(enqueue({ type: 'new_option', idx: 1, option: 'Soup' }, -3).outcome).toBe('added');
    expect(enqueue({ type: 'new_option', idx: 2, option: 'Salad' }, -4).outcome).toBe('added');
    expect(enqueue(vote('canned,0', 1), -5).outcome).toBe('added');
    expect(enqueue(vote('canned,1', -1), -6).outcome).toBe('added');
    const queued = store.store.all().filter((r) => r.state === 'queued');
    expect(queued.map((r) => (r.args as { local_id: number }).local_id)).toEqual([-1, -3, -4, -5, -6]);
    expect(JSON.parse((queued[0]!.args as { content: string }).content)).toEqual({ type: 'question', question: 'Dinner?' });
  });
});
