/**
 * Scheduled messages (spec "PATCH /scheduled_messages/{id}", docs/zulip-behaviour.md "Scheduled messages"
 * and `scheduled_messages` events): create, list, edit, delete, and delivery by the scheduler.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Event } from '../../server/events/queues.js';
import { nowSeconds, pendingEvents, registerQueue, withoutIds } from './events-helpers.js';
import { startTestServer, type ParamValue, type TestServer } from './harness.js';

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

const later = (s = 3600) => nowSeconds(t) + s;

async function schedule(who: string, params: Record<string, ParamValue | undefined>): Promise<number> {
  const r = await t.as(who).post('/scheduled_messages', { scheduled_delivery_timestamp: later(), ...params });
  expect(r.json.result, JSON.stringify(r.json)).toBe('success');
  return r.json.scheduled_message_id as number;
}

const channelMsg = (who: string, extra: Record<string, ParamValue> = {}) =>
  schedule(who, { type: 'channel', to: verona, topic: 'plans', content: 'Meet at **noon**', ...extra });

async function listOf(who: string) {
  return (await t.as(who).get('/scheduled_messages')).json.scheduled_messages as Array<Record<string, unknown>>;
}
const one = async (who: string, id: number) => (await listOf(who)).find((m) => m.scheduled_message_id === id);

describe('POST /scheduled_messages', () => {
  it('schedules a channel message; GET shows it with type "stream", to = channel id, topic and rendered content', async () => {
    const ts = later(600);
    const id = await schedule('hamlet', { type: 'channel', to: verona, topic: 'plans', content: 'Meet at **noon**', scheduled_delivery_timestamp: ts });
    expect(await one('hamlet', id)).toEqual({
      scheduled_message_id: id,
      type: 'stream',
      to: verona,
      topic: 'plans',
      content: 'Meet at **noon**',
      rendered_content: '<p>Meet at <strong>noon</strong></p>',
      scheduled_delivery_timestamp: ts,
      failed: false,
    });
  });

  it('schedules a direct message; GET shows type "private", to = the recipients, no topic', async () => {
    const id = await schedule('hamlet', { type: 'direct', to: [t.userId('othello'), t.userId('cordelia')], content: 'psst' });
    const m = await one('hamlet', id);
    expect(m).toMatchObject({ type: 'private', to: [t.userId('othello'), t.userId('cordelia')].sort((a, b) => a - b), content: 'psst' });
    expect(m).not.toHaveProperty('topic');
  });

  it.each([
    ['stream', 'stream'],
    ['channel', 'stream'],
    ['private', 'private'],
    ['direct', 'private'],
  ])('type %s is accepted (listed as %s)', async (type, listed) => {
    const to = listed === 'stream' ? verona : [t.userId('othello')];
    const id = await schedule('hamlet', { type, to, topic: 'types', content: 'x' });
    expect((await one('hamlet', id))?.type).toBe(listed);
  });

  it('an unknown type is rejected', async () => {
    const r = await t.as('hamlet').post('/scheduled_messages', { type: 'huddle', to: verona, topic: 't', content: 'x', scheduled_delivery_timestamp: later() });
    expect(r.status).toBe(400);
  });

  it('a note to oneself lists the sender as the recipient', async () => {
    const id = await schedule('hamlet', { type: 'direct', to: [t.userId('hamlet')], content: 'remember' });
    expect((await one('hamlet', id))?.to).toEqual([t.userId('hamlet')]);
  });

  it('the delivery time must be in the future', async () => {
    for (const ts of [nowSeconds(t), nowSeconds(t) - 60]) {
      const r = await t.as('hamlet').post('/scheduled_messages', { type: 'channel', to: verona, topic: 't', content: 'x', scheduled_delivery_timestamp: ts });
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Scheduled delivery time must be in the future.' });
    }
  });

  it('a missing channel is STREAM_DOES_NOT_EXIST with stream_id', async () => {
    const r = await t.as('hamlet').post('/scheduled_messages', { type: 'channel', to: 9999, topic: 't', content: 'x', scheduled_delivery_timestamp: later() });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', stream_id: 9999, msg: "Channel with ID '9999' does not exist" });
  });

  it('an unknown user is BAD_REQUEST', async () => {
    const r = await t.as('hamlet').post('/scheduled_messages', { type: 'direct', to: [9999], content: 'x', scheduled_delivery_timestamp: later() });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid user ID 9999' });
  });

  it('a private channel the sender is not subscribed to is refused', async () => {
    const r = await t.as('othello').post('/scheduled_messages', { type: 'channel', to: coreTeam, topic: 't', content: 'x', scheduled_delivery_timestamp: later() });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('BAD_REQUEST');
  });

  it('"(no topic)" and the empty-topic display name are read as the empty topic', async () => {
    for (const topic of ['(no topic)', 'general chat']) {
      const id = await schedule('hamlet', { type: 'channel', to: verona, topic, content: 'x' });
      expect((await one('hamlet', id))?.topic).toBe('');
    }
  });

  it('empty content is refused', async () => {
    const r = await t.as('hamlet').post('/scheduled_messages', { type: 'channel', to: verona, topic: 't', content: '  ', scheduled_delivery_timestamp: later() });
    expect(r.status).toBe(400);
  });

  it.each(['type', 'to', 'content', 'scheduled_delivery_timestamp'])('%s is required', async (name) => {
    const params: Record<string, ParamValue> = { type: 'channel', to: verona, topic: 't', content: 'x', scheduled_delivery_timestamp: later() };
    delete params[name];
    const r = await t.as('hamlet').post('/scheduled_messages', params);
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: name });
  });

  it('emits scheduled_messages op add with the new message to the sender', async () => {
    const q = await registerQueue(t, 'cordelia', { event_types: ['scheduled_messages'] });
    const id = await channelMsg('cordelia', { to: denmark });
    const evs = await pendingEvents(t, 'cordelia', q);
    expect(withoutIds(evs)).toEqual([{ type: 'scheduled_messages', op: 'add', scheduled_messages: [await one('cordelia', id)] }]);
  });
});

describe('GET /scheduled_messages', () => {
  it("lists the user's undelivered messages ordered by delivery time", async () => {
    const c = await schedule('iago', { type: 'channel', to: verona, topic: 'o', content: 'third', scheduled_delivery_timestamp: later(300) });
    const a = await schedule('iago', { type: 'channel', to: verona, topic: 'o', content: 'first', scheduled_delivery_timestamp: later(100) });
    const b = await schedule('iago', { type: 'channel', to: verona, topic: 'o', content: 'second', scheduled_delivery_timestamp: later(200) });
    const ids = (await listOf('iago')).map((m) => m.scheduled_message_id);
    expect(ids.filter((id) => [a, b, c].includes(id as number))).toEqual([a, b, c]);
  });

  it("does not list other users' messages", async () => {
    const id = await channelMsg('iago');
    expect((await listOf('shiva')).some((m) => m.scheduled_message_id === id)).toBe(false);
  });
});

describe('PATCH /scheduled_messages/{id}', () => {
  it('edits the content (re-rendered) and emits op update with the whole message', async () => {
    const id = await channelMsg('shiva');
    const q = await registerQueue(t, 'shiva', { event_types: ['scheduled_messages'] });
    const r = await t.as('shiva').patch(`/scheduled_messages/${id}`, { content: '*changed*' });
    expect(r.json).toEqual({ result: 'success', msg: '' });
    const m = await one('shiva', id);
    expect(m).toMatchObject({ content: '*changed*', rendered_content: '<p><em>changed</em></p>' });
    expect(withoutIds(await pendingEvents(t, 'shiva', q))).toEqual([{ type: 'scheduled_messages', op: 'update', scheduled_message: m }]);
  });

  it('edits the topic; "(no topic)" is read as the empty topic', async () => {
    const id = await channelMsg('shiva');
    await t.as('shiva').patch(`/scheduled_messages/${id}`, { topic: 'new plans' });
    expect((await one('shiva', id))?.topic).toBe('new plans');
    await t.as('shiva').patch(`/scheduled_messages/${id}`, { topic: '(no topic)' });
    expect((await one('shiva', id))?.topic).toBe('');
  });

  it('moves a channel message to another channel with to', async () => {
    const id = await channelMsg('shiva');
    await t.as('shiva').patch(`/scheduled_messages/${id}`, { to: verona });
    expect(await one('shiva', id)).toMatchObject({ to: verona, topic: 'plans' });
  });

  it('reschedules with a future scheduled_delivery_timestamp', async () => {
    const id = await channelMsg('shiva');
    const ts = later(7200);
    await t.as('shiva').patch(`/scheduled_messages/${id}`, { scheduled_delivery_timestamp: ts });
    expect((await one('shiva', id))?.scheduled_delivery_timestamp).toBe(ts);
  });

  it('a past scheduled_delivery_timestamp is refused', async () => {
    const id = await channelMsg('shiva');
    const r = await t.as('shiva').patch(`/scheduled_messages/${id}`, { scheduled_delivery_timestamp: nowSeconds(t) - 1 });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Scheduled delivery time must be in the future.' });
  });

  it('changing the type requires to', async () => {
    const id = await channelMsg('shiva');
    const r = await t.as('shiva').patch(`/scheduled_messages/${id}`, { type: 'direct' });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('BAD_REQUEST');
  });

  it('switching to a channel requires topic', async () => {
    const id = await schedule('shiva', { type: 'direct', to: [t.userId('iago')], content: 'dm' });
    const r = await t.as('shiva').patch(`/scheduled_messages/${id}`, { type: 'channel', to: verona });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('BAD_REQUEST');
    const ok = await t.as('shiva').patch(`/scheduled_messages/${id}`, { type: 'channel', to: verona, topic: 'now public' });
    expect(ok.json.result).toBe('success');
    expect(await one('shiva', id)).toMatchObject({ type: 'stream', to: verona, topic: 'now public' });
  });

  it('switching to a direct message drops the topic', async () => {
    const id = await channelMsg('shiva');
    await t.as('shiva').patch(`/scheduled_messages/${id}`, { type: 'direct', to: [t.userId('iago')] });
    const m = await one('shiva', id);
    expect(m).toMatchObject({ type: 'private', to: [t.userId('iago')] });
    expect(m).not.toHaveProperty('topic');
  });

  it('the topic is ignored for a direct message', async () => {
    const id = await schedule('shiva', { type: 'direct', to: [t.userId('iago')], content: 'dm' });
    expect((await t.as('shiva').patch(`/scheduled_messages/${id}`, { topic: 'ignored' })).json.result).toBe('success');
    expect(await one('shiva', id)).not.toHaveProperty('topic');
  });

  it('a missing channel is STREAM_DOES_NOT_EXIST with stream_id', async () => {
    const id = await channelMsg('shiva');
    const r = await t.as('shiva').patch(`/scheduled_messages/${id}`, { to: 4242 });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', stream_id: 4242 });
  });

  it('an unknown user is BAD_REQUEST', async () => {
    const id = await schedule('shiva', { type: 'direct', to: [t.userId('iago')], content: 'dm' });
    const r = await t.as('shiva').patch(`/scheduled_messages/${id}`, { to: [9999] });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('BAD_REQUEST');
  });

  it('content longer than max_message_length is cut to the limit, as when sending', async () => {
    const id = await channelMsg('shiva');
    await t.as('shiva').patch(`/scheduled_messages/${id}`, { content: 'a'.repeat(10_050) });
    const content = (await one('shiva', id))?.content as string;
    expect([...content].length).toBeLessThanOrEqual(10_000);
  });

  it('a missing scheduled message is HTTP 404 BAD_REQUEST "Scheduled message does not exist"', async () => {
    const r = await t.as('shiva').patch('/scheduled_messages/999999', { content: 'x' });
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Scheduled message does not exist' });
  });

  it("another user's scheduled message does not exist for the caller", async () => {
    const id = await channelMsg('iago');
    const r = await t.as('shiva').patch(`/scheduled_messages/${id}`, { content: 'x' });
    expect(r.status).toBe(404);
  });

  it('nothing to change is BAD_REQUEST', async () => {
    const id = await channelMsg('shiva');
    const r = await t.as('shiva').patch(`/scheduled_messages/${id}`);
    expect(r.status).toBe(400);
  });
});

describe('DELETE /scheduled_messages/{id}', () => {
  it('deletes the message and emits op remove', async () => {
    const id = await channelMsg('othello');
    const q = await registerQueue(t, 'othello', { event_types: ['scheduled_messages'] });
    expect((await t.as('othello').delete(`/scheduled_messages/${id}`)).json).toEqual({ result: 'success', msg: '' });
    expect(await one('othello', id)).toBeUndefined();
    expect(withoutIds(await pendingEvents(t, 'othello', q))).toEqual([{ type: 'scheduled_messages', op: 'remove', scheduled_message_id: id }]);
  });

  it('a missing scheduled message is HTTP 404 BAD_REQUEST', async () => {
    const r = await t.as('othello').delete('/scheduled_messages/999999');
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Scheduled message does not exist' });
  });
});

describe('delivery', () => {
  const messageCount = () => t.server.state.db.prepare('SELECT COUNT(*) FROM messages').pluck().get() as number;
  const sentWith = (content: string) => t.server.state.db.prepare('SELECT COUNT(*) FROM messages WHERE content = ?').pluck().get(content) as number;

  it('a due message is sent, leaves the list (op remove) and reaches the recipients as a message event', async () => {
    const id = await schedule('desdemona', { type: 'channel', to: verona, topic: 'delivery', content: 'on time', scheduled_delivery_timestamp: later(60) });
    const mine = await registerQueue(t, 'desdemona', { event_types: ['scheduled_messages'] });
    const theirs = await registerQueue(t, 'othello', { event_types: ['message'] });
    expect(t.server.runScheduler()).toBe(0);
    t.clock.advance(61_000);
    const before = messageCount();
    expect(t.server.runScheduler()).toBeGreaterThanOrEqual(1);
    expect(messageCount()).toBeGreaterThan(before);
    expect(await one('desdemona', id)).toBeUndefined();
    expect(withoutIds(await pendingEvents(t, 'desdemona', mine))).toContainEqual({ type: 'scheduled_messages', op: 'remove', scheduled_message_id: id });
    const msgs = (await pendingEvents(t, 'othello', theirs)).map((e: Event) => e.message as Record<string, unknown>);
    expect(msgs).toContainEqual(expect.objectContaining({ subject: 'delivery', content: 'on time', sender_id: t.userId('desdemona') }));
  });

  it('a message not yet due is not sent', async () => {
    const id = await schedule('desdemona', { type: 'channel', to: verona, topic: 'delivery', content: 'tomorrow', scheduled_delivery_timestamp: later(86_400) });
    t.server.runScheduler();
    expect(await one('desdemona', id)).toMatchObject({ failed: false });
  });

  it('read_by_sender false leaves the delivered message unread for the sender', async () => {
    await schedule('desdemona', { type: 'direct', to: [t.userId('iago')], content: 'unread by me', read_by_sender: false, scheduled_delivery_timestamp: later(30) });
    t.clock.advance(31_000);
    t.server.runScheduler();
    const flags = t.server.state.db
      .prepare("SELECT um.flags FROM user_messages um JOIN messages m ON m.id = um.message_id WHERE m.content = 'unread by me' AND um.user_id = ?")
      .pluck()
      .get(t.userId('desdemona')) as number;
    expect(flags & 1).toBe(0);
  });

  it('a send that fails (the sender lost access) marks the message failed (op update) instead', async () => {
    const id = await schedule('hamlet', { type: 'channel', to: coreTeam, topic: 'secret', content: 'for the team', scheduled_delivery_timestamp: later(30) });
    expect((await t.as('hamlet').delete('/users/me/subscriptions', { subscriptions: ['core team'] })).json.result).toBe('success');
    const q = await registerQueue(t, 'hamlet', { event_types: ['scheduled_messages'] });
    t.clock.advance(31_000);
    t.server.runScheduler();
    expect(sentWith('for the team')).toBe(0);
    const m = await one('hamlet', id);
    expect(m).toMatchObject({ failed: true });
    expect(withoutIds(await pendingEvents(t, 'hamlet', q))).toEqual([{ type: 'scheduled_messages', op: 'update', scheduled_message: m }]);
    // Not retried on its own.
    t.clock.advance(60_000);
    t.server.runScheduler();
    expect(sentWith('for the team')).toBe(0);
    expect(await one('hamlet', id)).toMatchObject({ failed: true });
  });

  it('the Notification Bot tells the sender why a scheduled message was not sent', async () => {
    const id = await schedule('othello', { type: 'channel', to: verona, topic: 'x', content: 'will fail', scheduled_delivery_timestamp: later(30) });
    expect((await t.as('othello').delete('/users/me/subscriptions', { subscriptions: ['Verona'] })).json.result).toBe('success');
    // Othello may still post to a public channel; make it fail for him by making it private.
    t.server.state.db.prepare('UPDATE channels SET invite_only = 1 WHERE id = ?').run(verona);
    try {
      const q = await registerQueue(t, 'othello', { event_types: ['message'] });
      t.clock.advance(31_000);
      t.server.runScheduler();
      expect(await one('othello', id)).toMatchObject({ failed: true });
      const notice = (await pendingEvents(t, 'othello', q)).map((e) => e.message as Record<string, unknown>).find((m) => m.sender_email === 'notification-bot@zulip.com');
      expect(notice).toMatchObject({ type: 'private' });
      expect(notice?.content).toContain('was not sent because of the following error');
      expect(notice?.content).toContain("Not authorized to send to channel 'Verona'");
    } finally {
      t.server.state.db.prepare('UPDATE channels SET invite_only = 0 WHERE id = ?').run(verona);
    }
  });

  it('a send that fails because the channel was deleted marks the message failed', async () => {
    const db = t.server.state.db;
    const rec = Number(db.prepare("INSERT INTO recipients (type) VALUES ('channel')").run().lastInsertRowid);
    const ch = Number(db.prepare("INSERT INTO channels (name, date_created, recipient_id) VALUES ('doomed', 0, ?)").run(rec).lastInsertRowid);
    db.prepare('INSERT INTO subscriptions (user_id, channel_id) VALUES (?, ?)').run(t.userId('iago'), ch);
    const id = await schedule('iago', { type: 'channel', to: ch, topic: 'x', content: 'too late', scheduled_delivery_timestamp: later(30) });
    db.prepare('UPDATE channels SET is_archived = 1 WHERE id = ?').run(ch);
    t.clock.advance(31_000);
    t.server.runScheduler();
    expect(await one('iago', id)).toMatchObject({ failed: true });
  });

  it('a failed message can only be edited with a new delivery time, which clears failed', async () => {
    const id = await schedule('cordelia', { type: 'channel', to: denmark, topic: 'x', content: 'y', scheduled_delivery_timestamp: later(30) });
    t.server.state.db.prepare('UPDATE scheduled_messages SET failed = 1 WHERE id = ?').run(id);
    const r = await t.as('cordelia').patch(`/scheduled_messages/${id}`, { content: 'fixed' });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('BAD_REQUEST');
    const ok = await t.as('cordelia').patch(`/scheduled_messages/${id}`, { content: 'fixed', scheduled_delivery_timestamp: later(600) });
    expect(ok.json.result).toBe('success');
    expect(await one('cordelia', id)).toMatchObject({ failed: false, content: 'fixed' });
  });
});

describe('register scheduled_messages', () => {
  it('returns the undelivered messages for the scheduled_messages fetch key', async () => {
    await channelMsg('polonius', { to: denmark });
    const r = await t.as('polonius').post('/register', { fetch_event_types: ['scheduled_messages'] });
    expect(r.json.scheduled_messages).toEqual(await listOf('polonius'));
  });
});
