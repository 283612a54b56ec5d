/**
 * Typing notifications: POST /typing (referenced operation; docs/zulip-behaviour.md "Typing") and typing while
 * editing, POST /messages/{message_id}/typing and the legacy POST /message_edit_typing (spec;
 * docs/zulip-behaviour.md "Typing"; spec Events 3: only to users with receives_typing_notifications).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withoutIds } from './events-helpers.js';
import { channelId, dm, freshTopic, post, queue } from './edit-helpers.js';
import { startTestServer, type TestServer } from './harness.js';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(() => t.close());

const user = (who: string) => ({ user_id: t.userId(who), email: `${who}@example.com` });
const setting = (who: string, name: string, value: boolean) =>
  t.server.state.db.prepare('INSERT INTO user_settings (user_id, name, value) VALUES (?, ?, ?)').run(t.userId(who), name, JSON.stringify(value));

describe('POST /typing: direct messages', () => {
  it('start reaches every participant, the sender included, with sender and recipients', async () => {
    const qo = await queue(t, 'othello');
    const qh = await queue(t, 'hamlet');
    const r = await t.as('hamlet').post('/typing', { type: 'direct', op: 'start', to: [t.userId('othello')] });
    expect(r.json).toEqual({ result: 'success', msg: '' });
    const expected = { type: 'typing', op: 'start', message_type: 'direct', sender: user('hamlet'), recipients: [user('othello'), user('hamlet')] };
    expect(withoutIds(await qo.events('typing'))).toEqual([expected]);
    expect(withoutIds(await qh.events('typing'))).toEqual([expected]);
  });

  it('op stop sends a stop event', async () => {
    const q = await queue(t, 'othello');
    await t.as('hamlet').post('/typing', { op: 'stop', to: [t.userId('othello')] });
    expect((await q.events('typing'))[0]).toMatchObject({ op: 'stop' });
  });

  it('type defaults to direct', async () => {
    const q = await queue(t, 'othello');
    await t.as('hamlet').post('/typing', { op: 'start', to: [t.userId('othello')] });
    expect((await q.events('typing'))[0]).toMatchObject({ message_type: 'direct' });
  });

  it('users outside the conversation hear nothing', async () => {
    const q = await queue(t, 'cordelia');
    await t.as('hamlet').post('/typing', { op: 'start', to: [t.userId('othello')] });
    expect(await q.events('typing')).toEqual([]);
  });

  it("'to' is required for direct typing", async () => {
    const r = await t.as('hamlet').post('/typing', { op: 'start' });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: "Missing 'to' argument" });
  });

  it("an empty 'to' list is rejected", async () => {
    const r = await t.as('hamlet').post('/typing', { op: 'start', to: [] });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: "Empty 'to' list" });
  });

  it('an unknown user id is rejected', async () => {
    const r = await t.as('hamlet').post('/typing', { op: 'start', to: [99999] });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid user ID 99999' });
  });

  it('op is required and must be start or stop', async () => {
    expect((await t.as('hamlet').post('/typing', { to: [t.userId('othello')] })).json).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'op' });
    expect((await t.as('hamlet').post('/typing', { op: 'pause', to: [t.userId('othello')] })).json).toMatchObject({ code: 'REQUEST_VARIABLE_INVALID', var_name: 'op' });
  });

  it('users with receives_typing_notifications off get no typing events', async () => {
    setting('othello', 'receives_typing_notifications', false);
    const q = await queue(t, 'othello');
    await t.as('hamlet').post('/typing', { op: 'start', to: [t.userId('othello')] });
    expect(await q.events('typing')).toEqual([]);
  });

  it('a sender with send_private_typing_notifications off is refused', async () => {
    setting('hamlet', 'send_private_typing_notifications', false);
    const r = await t.as('hamlet').post('/typing', { op: 'start', to: [t.userId('othello')] });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'User has disabled typing notifications for direct messages' });
  });
});

describe('POST /typing: channels', () => {
  it('channel typing reaches subscribers with the stream_typing_notifications capability: message_type "stream", stream_id, topic', async () => {
    const topic = freshTopic();
    const q = await queue(t, 'othello');
    const r = await t.as('hamlet').post('/typing', { type: 'channel', op: 'start', stream_id: channelId(t, 'Verona'), topic });
    expect(r.json.result).toBe('success');
    expect(withoutIds(await q.events('typing'))).toEqual([{ type: 'typing', op: 'start', message_type: 'stream', sender: user('hamlet'), stream_id: channelId(t, 'Verona'), topic }]);
  });

  it('"stream" is accepted as the legacy type name', async () => {
    const q = await queue(t, 'othello');
    await t.as('hamlet').post('/typing', { type: 'stream', op: 'start', stream_id: channelId(t, 'Verona'), topic: 'x' });
    expect(await q.events('typing')).toHaveLength(1);
  });

  it('queues without the stream_typing_notifications capability get no channel typing events', async () => {
    const q = await queue(t, 'othello', { empty_topic_name: true });
    await t.as('hamlet').post('/typing', { type: 'channel', op: 'start', stream_id: channelId(t, 'Verona'), topic: 'x' });
    expect(await q.events('typing')).toEqual([]);
  });

  it('non-subscribers hear nothing', async () => {
    const q = await queue(t, 'polonius');
    await t.as('hamlet').post('/typing', { type: 'channel', op: 'start', stream_id: channelId(t, 'Verona'), topic: 'x' });
    expect(await q.events('typing')).toEqual([]);
  });

  it('the empty-topic display name means ""; queues without empty_topic_name see the display name', async () => {
    const modern = await queue(t, 'othello');
    const legacy = await queue(t, 'cordelia', { stream_typing_notifications: true });
    await t.as('hamlet').post('/typing', { type: 'channel', op: 'start', stream_id: channelId(t, 'Verona'), topic: 'general chat' });
    expect((await modern.events('typing'))[0]?.topic).toBe('');
    expect((await legacy.events('typing'))[0]?.topic).toBe('general chat');
  });

  it('stream_id is required: "Missing channel ID"', async () => {
    const r = await t.as('hamlet').post('/typing', { type: 'channel', op: 'start', topic: 'x' });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Missing channel ID' });
  });

  it('topic is required: "Missing topic"', async () => {
    const r = await t.as('hamlet').post('/typing', { type: 'channel', op: 'start', stream_id: channelId(t, 'Verona') });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Missing topic' });
  });

  it('a channel the sender cannot access is "Invalid channel ID"', async () => {
    const r = await t.as('othello').post('/typing', { type: 'channel', op: 'start', stream_id: channelId(t, 'core team'), topic: 'x' });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
  });

  it('a sender with send_stream_typing_notifications off is refused', async () => {
    setting('hamlet', 'send_stream_typing_notifications', false);
    const r = await t.as('hamlet').post('/typing', { type: 'channel', op: 'start', stream_id: channelId(t, 'Verona'), topic: 'x' });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'User has disabled typing notifications for channel messages' });
  });
});

describe('POST /messages/{id}/typing (typing while editing)', () => {
  it('a channel message: typing_edit_message to the subscribers, never the editor', async () => {
    const topic = freshTopic();
    const id = post(t, 'hamlet', 'Verona', topic, 'x');
    const qo = await queue(t, 'othello');
    const qh = await queue(t, 'hamlet');
    const r = await t.as('hamlet').post(`/messages/${id}/typing`, { op: 'start' });
    expect(r.json).toEqual({ result: 'success', msg: '' });
    expect(withoutIds(await qo.events('typing_edit_message'))).toEqual([
      { type: 'typing_edit_message', op: 'start', sender_id: t.userId('hamlet'), message_id: id, recipient: { type: 'channel', channel_id: channelId(t, 'Verona'), topic } },
    ]);
    expect(await qh.events('typing_edit_message')).toEqual([]);
  });

  it('a direct message: recipient {type: "direct", user_ids} to the other participants only', async () => {
    const id = dm(t, 'hamlet', ['othello'], 'x');
    const qo = await queue(t, 'othello');
    const qc = await queue(t, 'cordelia');
    await t.as('hamlet').post(`/messages/${id}/typing`, { op: 'stop' });
    const participants = [t.userId('hamlet'), t.userId('othello')].sort((a, b) => a - b);
    expect(withoutIds(await qo.events('typing_edit_message'))).toEqual([
      { type: 'typing_edit_message', op: 'stop', sender_id: t.userId('hamlet'), message_id: id, recipient: { type: 'direct', user_ids: participants } },
    ]);
    expect(await qc.events('typing_edit_message')).toEqual([]);
  });

  it('only users with receives_typing_notifications get it', async () => {
    setting('othello', 'receives_typing_notifications', false);
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x');
    const q = await queue(t, 'othello');
    await t.as('hamlet').post(`/messages/${id}/typing`, { op: 'start' });
    expect(await q.events('typing_edit_message')).toEqual([]);
  });

  it('only someone allowed to edit the content may send it', async () => {
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x');
    const r = await t.as('othello').post(`/messages/${id}/typing`, { op: 'start' });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: "You don't have permission to edit this message" });
  });

  it('past the content edit limit it is refused (no grace period)', async () => {
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x', 601);
    const r = await t.as('hamlet').post(`/messages/${id}/typing`, { op: 'start' });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'The time limit for editing this message has passed' });
  });

  it('op is required', async () => {
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x');
    expect((await t.as('hamlet').post(`/messages/${id}/typing`, {})).json).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'op' });
  });

  it('a message that does not exist or is not visible is "Invalid message(s)"', async () => {
    expect((await t.as('hamlet').post('/messages/999999/typing', { op: 'start' })).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid message(s)' });
  });

  it('the legacy POST /message_edit_typing takes message_id in the body', async () => {
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x');
    const q = await queue(t, 'othello');
    const r = await t.as('hamlet').post('/message_edit_typing', { op: 'start', message_id: id });
    expect(r.json).toEqual({ result: 'success', msg: '' });
    expect((await q.events('typing_edit_message'))[0]).toMatchObject({ message_id: id, sender_id: t.userId('hamlet') });
  });

  it('the legacy endpoint requires message_id', async () => {
    expect((await t.as('hamlet').post('/message_edit_typing', { op: 'start' })).json).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'message_id' });
  });
});
