/**
 * GET /events and DELETE /events (docs/zulip-behaviour.md "Event queues"): long-poll with
 * heartbeats, acknowledgement by
 * `last_event_id`, BAD_EVENT_QUEUE_ID for unknown, foreign, deleted and expired queues.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Event } from '../../server/events/queues.js';
import { pendingEvents, registerQueue } from './events-helpers.js';
import { startTestServer, type TestServer } from './harness.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** Something that emits exactly one event to `who`: a saved snippet. */
const makeEvent = (who: string, title = 'e') => t.as(who).post('/saved_snippets', { title, content: 'x' });

describe('GET /events', () => {
  it('returns the pending events with the queue_id', async () => {
    const q = await registerQueue(t, 'hamlet');
    await makeEvent('hamlet');
    const r = await t.as('hamlet').get('/events', { queue_id: q, last_event_id: -1 });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ result: 'success', msg: '', queue_id: q });
    expect((r.json.events as Event[]).map((e) => [e.type, e.op, e.id])).toEqual([['saved_snippets', 'add', 0]]);
  });

  it('event ids increase from 0 in each queue', async () => {
    const q = await registerQueue(t, 'hamlet', { event_types: ['saved_snippets'] });
    await makeEvent('hamlet', 'a');
    await makeEvent('hamlet', 'b');
    await makeEvent('hamlet', 'c');
    expect((await pendingEvents(t, 'hamlet', q)).map((e) => e.id)).toEqual([0, 1, 2]);
  });

  it('dont_block answers at once with no events', async () => {
    const q = await registerQueue(t, 'hamlet');
    const started = Date.now();
    const r = await t.as('hamlet').get('/events', { queue_id: q, last_event_id: -1, dont_block: true });
    expect(r.json).toMatchObject({ result: 'success', events: [], queue_id: q });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('a blocking poll waits until an event arrives', async () => {
    const q = await registerQueue(t, 'othello', { event_types: ['saved_snippets'] });
    const poll = t.as('othello').get('/events', { queue_id: q, last_event_id: -1 });
    await new Promise((r) => setTimeout(r, 100));
    await makeEvent('othello', 'wake up');
    const r = await poll;
    expect((r.json.events as Event[]).map((e) => e.type)).toEqual(['saved_snippets']);
  });

  it('with nothing to deliver, a poll answers a heartbeat after the long-poll period', async () => {
    const q = await registerQueue(t, 'othello', { event_types: ['saved_snippets'] });
    const started = Date.now();
    const r = await t.as('othello').get('/events', { queue_id: q, last_event_id: -1 });
    expect(r.json.events).toEqual([{ type: 'heartbeat', id: 0 }]);
    // The harness's long-poll period is 2 s.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
  });

  it('heartbeats reach queues whatever their event_types', async () => {
    const q = await registerQueue(t, 'cordelia', { event_types: ['message'] });
    const r = await t.as('cordelia').get('/events', { queue_id: q, last_event_id: -1 });
    expect((r.json.events as Event[]).map((e) => e.type)).toEqual(['heartbeat']);
  });

  it('events up to last_event_id are acknowledged and not delivered again', async () => {
    const q = await registerQueue(t, 'cordelia', { event_types: ['saved_snippets'] });
    await makeEvent('cordelia', '1');
    await makeEvent('cordelia', '2');
    const first = await t.as('cordelia').get('/events', { queue_id: q, last_event_id: -1, dont_block: true });
    expect((first.json.events as Event[]).map((e) => e.id)).toEqual([0, 1]);
    const after = await t.as('cordelia').get('/events', { queue_id: q, last_event_id: 0, dont_block: true });
    expect((after.json.events as Event[]).map((e) => e.id)).toEqual([1]);
    const none = await t.as('cordelia').get('/events', { queue_id: q, last_event_id: 1, dont_block: true });
    expect(none.json.events).toEqual([]);
  });

  it('events not acknowledged are delivered again', async () => {
    const q = await registerQueue(t, 'cordelia', { event_types: ['saved_snippets'] });
    await makeEvent('cordelia');
    const a = await t.as('cordelia').get('/events', { queue_id: q, last_event_id: -1, dont_block: true });
    const b = await t.as('cordelia').get('/events', { queue_id: q, last_event_id: -1, dont_block: true });
    expect(b.json.events).toEqual(a.json.events);
    expect((b.json.events as Event[]).length).toBe(1);
  });

  it('a queue only receives the event types it registered for', async () => {
    const q = await registerQueue(t, 'iago', { event_types: ['navigation_view'] });
    await makeEvent('iago');
    await t.as('iago').post('/navigation_views', { fragment: 'inbox', is_pinned: true });
    expect((await pendingEvents(t, 'iago', q)).map((e) => e.type)).toEqual(['navigation_view']);
  });

  it('without event_types a queue receives every event type', async () => {
    const q = await registerQueue(t, 'iago');
    await makeEvent('iago');
    await t.as('iago').post('/navigation_views', { fragment: 'recent', is_pinned: true });
    expect((await pendingEvents(t, 'iago', q)).map((e) => e.type)).toEqual(['saved_snippets', 'navigation_view']);
  });

  it('every queue of the user gets the event', async () => {
    const a = await registerQueue(t, 'shiva', { event_types: ['saved_snippets'] });
    const b = await registerQueue(t, 'shiva', { event_types: ['saved_snippets'] });
    await makeEvent('shiva');
    expect((await pendingEvents(t, 'shiva', a)).length).toBe(1);
    expect((await pendingEvents(t, 'shiva', b)).length).toBe(1);
  });

  it('a failed request emits nothing', async () => {
    const q = await registerQueue(t, 'shiva', { event_types: ['saved_snippets'] });
    expect((await t.as('shiva').post('/saved_snippets', { title: '', content: 'x' })).status).toBe(400);
    expect(await pendingEvents(t, 'shiva', q)).toEqual([]);
  });

  it('an unknown queue is 400 BAD_EVENT_QUEUE_ID with the queue_id', async () => {
    const r = await t.as('hamlet').get('/events', { queue_id: 'no-such-queue', last_event_id: -1 });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ result: 'error', code: 'BAD_EVENT_QUEUE_ID', msg: 'Bad event queue ID: no-such-queue', queue_id: 'no-such-queue' });
  });

  it("another user's queue is BAD_EVENT_QUEUE_ID", async () => {
    const q = await registerQueue(t, 'hamlet');
    const r = await t.as('othello').get('/events', { queue_id: q, dont_block: true });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID', queue_id: q });
  });

  it('queue_id is required', async () => {
    const r = await t.as('hamlet').get('/events', { last_event_id: -1 });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'queue_id' });
  });

  it('a queue idle for longer than idleQueueTimeoutSeconds is garbage-collected (BAD_EVENT_QUEUE_ID)', async () => {
    const q = await registerQueue(t, 'desdemona');
    t.clock.advance((t.server.state.config.idleQueueTimeoutSeconds + 1) * 1000);
    const r = await t.as('desdemona').get('/events', { queue_id: q, dont_block: true });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID', queue_id: q });
  });

  it('polling keeps a queue alive', async () => {
    const q = await registerQueue(t, 'desdemona');
    const idleMs = t.server.state.config.idleQueueTimeoutSeconds * 1000;
    for (let i = 0; i < 3; i++) {
      t.clock.advance(idleMs - 1000);
      expect((await t.as('desdemona').get('/events', { queue_id: q, dont_block: true })).json.result).toBe('success');
    }
  });

  it('a newer poll answers the older one with no events', async () => {
    const q = await registerQueue(t, 'polonius', { event_types: ['saved_snippets'] });
    const older = t.as('polonius').get('/events', { queue_id: q, last_event_id: -1 });
    await new Promise((r) => setTimeout(r, 100));
    const newer = t.as('polonius').get('/events', { queue_id: q, last_event_id: -1 });
    expect((await older).json).toMatchObject({ result: 'success', events: [] });
    await makeEvent('polonius');
    expect(((await newer).json.events as Event[]).map((e) => e.type)).toEqual(['saved_snippets']);
  });

  it('a client that disconnects stops its long-poll; the queue stays usable', async () => {
    const q = await registerQueue(t, 'polonius', { event_types: ['saved_snippets'] });
    const abort = new AbortController();
    const auth = `Basic ${Buffer.from(`polonius@example.com:${t.server.apiKey('polonius@example.com')}`).toString('base64')}`;
    const hanging = fetch(`${t.url}/api/v1/events?queue_id=${encodeURIComponent(q)}&last_event_id=-1`, { headers: { authorization: auth }, signal: abort.signal });
    await new Promise((r) => setTimeout(r, 100));
    abort.abort();
    await expect(hanging).rejects.toThrow();
    await makeEvent('polonius');
    expect((await pendingEvents(t, 'polonius', q)).map((e) => e.type)).toEqual(['saved_snippets']);
  });
});

describe('DELETE /events', () => {
  it('deletes the queue; later polls are BAD_EVENT_QUEUE_ID', async () => {
    const q = await registerQueue(t, 'hamlet');
    const r = await t.as('hamlet').delete('/events', { queue_id: q });
    expect(r.json).toEqual({ result: 'success', msg: '' });
    const after = await t.as('hamlet').get('/events', { queue_id: q, dont_block: true });
    expect(after.json).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID', queue_id: q });
  });

  it('answers an open long-poll of the deleted queue', async () => {
    const q = await registerQueue(t, 'hamlet', { event_types: ['saved_snippets'] });
    const poll = t.as('hamlet').get('/events', { queue_id: q, last_event_id: -1 });
    await new Promise((r) => setTimeout(r, 100));
    await t.as('hamlet').delete('/events', { queue_id: q });
    expect((await poll).json).toMatchObject({ result: 'success', events: [] });
  });

  it('an unknown queue is 400 BAD_EVENT_QUEUE_ID', async () => {
    const r = await t.as('hamlet').delete('/events', { queue_id: 'nope' });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID', queue_id: 'nope' });
  });

  it("another user's queue cannot be deleted", async () => {
    const q = await registerQueue(t, 'hamlet');
    expect((await t.as('othello').delete('/events', { queue_id: q })).json).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID' });
    expect((await t.as('hamlet').get('/events', { queue_id: q, dont_block: true })).json.result).toBe('success');
  });

  it('queue_id is required', async () => {
    const r = await t.as('hamlet').delete('/events');
    expect(r.json).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'queue_id' });
  });
});
