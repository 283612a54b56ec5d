/**
 * "X is typing…" both ways against the reference server on loopback: others' `typing` events
 * land in `typingIn` for their conversation (channel topic folded as the server folds it; DMs by
 * participants), expire without a refresh, end on `stop`, never list oneself; and our own
 * `setTyping` / `setEditTyping` reach the other users' event queues, while a session that is not
 * live (or whose settings say not to) quietly sends nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getStoredMessage } from '../../../sync/db/queries/messages.js';
import { queries, commands } from '../../../sync/protocol/index.js';
import { queue } from '../../server/edit-helpers.js';
import { channelId, startTestServer, type TestServer } from '../../server/harness.js';
import { openSession, until } from './session-helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('typing in conversations', () => {
  it("others' typing: by conversation, expiring, stopped, never oneself", async () => {
    let now = Date.now();
    const s = openSession(t, ':memory:', 'hamlet', { seams: { clock: { now: () => now } } });
    s.start();
    await until(() => s.status.state === 'live', 10_000, 'live');
    const verona = channelId(t, 'Verona');
    const topic = { type: 'channel' as const, channel_id: verona, topic: 'Typing Here' };
    expect((await t.as('iago').post('/typing', { type: 'channel', op: 'start', stream_id: verona, topic: 'typing here' })).status).toBe(200);
    await until(() => s.typingIn(topic).length > 0, 10_000, 'iago typing');
    // The topic folds as the server folds it; another topic and another channel stay empty.
    expect(s.typingIn(topic)).toEqual([t.userId('iago')]);
    expect(s.typingIn({ ...topic, topic: 'elsewhere' })).toEqual([]);
    expect(s.typingIn({ ...topic, channel_id: channelId(t, 'Denmark') })).toEqual([]);
    expect((await t.as('othello').post('/typing', { type: 'channel', op: 'start', stream_id: verona, topic: 'typing here' })).status).toBe(200);
    await until(() => s.typingIn(topic).length === 2, 10_000, 'othello typing');
    expect(s.typingIn(topic)).toEqual([t.userId('iago'), t.userId('othello')]);
    queries.typingInConversation.response.parse({ user_ids: s.typingIn(topic) });

    // No refresh within server_typing_started_expiry_period_milliseconds (15 s): gone.
    now += 16_000;
    expect(s.typingIn(topic)).toEqual([]);
    expect((await t.as('iago').post('/typing', { type: 'channel', op: 'start', stream_id: verona, topic: 'typing here' })).status).toBe(200);
    await until(() => s.typingIn(topic).length === 1, 10_000, 'again');
    expect((await t.as('iago').post('/typing', { type: 'channel', op: 'stop', stream_id: verona, topic: 'typing here' })).status).toBe(200);
    await until(() => s.typingIn(topic).length === 0, 10_000, 'stop');

    // A DM: the conversation is its participants, named with or without oneself; oneself (the
    // server echoes our own DM typing) is never listed.
    const dm = { type: 'direct' as const, user_ids: [t.userId('othello')] };
    expect((await t.as('othello').post('/typing', { op: 'start', to: [t.userId('hamlet')] })).status).toBe(200);
    await until(() => s.typingIn(dm).length > 0, 10_000, 'DM typing');
    expect(s.typingIn({ type: 'direct', user_ids: [t.userId('hamlet'), t.userId('othello')] })).toEqual([t.userId('othello')]);
    expect(s.typingIn({ type: 'direct', user_ids: [t.userId('othello'), t.userId('iago')] })).toEqual([]);
    expect((await t.as('hamlet').post('/typing', { op: 'start', to: [t.userId('othello')] })).status).toBe(200);
    expect((await t.as('othello').post('/typing', { op: 'stop', to: [t.userId('hamlet')] })).status).toBe(200);
    await until(() => s.typingIn(dm).length === 0, 10_000, 'DM stop');
    expect(s.typingIn(dm)).toEqual([]);
    await s.close();
  });

  it('our typing reaches the others; not live, or the settings off, it quietly sends nothing', async () => {
    const s = openSession(t, ':memory:', 'hamlet');
    const verona = channelId(t, 'Verona');
    const to = { type: 'channel' as const, channel_id: verona, topic: 'ours' };
    // Not started: nothing sent, no error, and the realm's timing (Zulip's defaults until known).
    expect(await s.setTyping(to, 'start')).toEqual({ sent: false, started_wait_ms: 10_000, stopped_wait_ms: 5_000 });
    s.start();
    await until(() => s.status.state === 'live', 10_000, 'live');
    const q = await queue(t, 'othello');
    const sent = await s.setTyping(to, 'start');
    commands.setTyping.response.parse(sent);
    expect(sent.sent).toBe(true);
    expect(await s.setTyping({ type: 'direct', user_ids: [t.userId('othello'), t.userId('hamlet')] }, 'start')).toMatchObject({ sent: true });
    // A conversation with oneself only: nobody to tell.
    expect(await s.setTyping({ type: 'direct', user_ids: [t.userId('hamlet')] }, 'start')).toMatchObject({ sent: false });
    const r = await t.as('hamlet').post('/messages', { type: 'channel', to: 'Verona', topic: 'ours', content: 'mine to edit' });
    const id = r.json.id as number;
    await until(() => getStoredMessage(s.db, id) !== undefined, 10_000, 'own message stored');
    expect(await s.setEditTyping(id, 'start')).toMatchObject({ sent: true });
    expect(await s.setEditTyping(id, 'stop')).toMatchObject({ sent: true });
    // The server refuses (no such message): quietly not sent.
    expect(await s.setEditTyping(999_999, 'start')).toMatchObject({ sent: false });
    const events = await q.events();
    expect(events.filter((e) => e.type === 'typing')).toEqual([
      expect.objectContaining({ op: 'start', message_type: 'stream', stream_id: verona, topic: 'ours', sender: expect.objectContaining({ user_id: t.userId('hamlet') }) }),
      expect.objectContaining({ op: 'start', message_type: 'direct', sender: expect.objectContaining({ user_id: t.userId('hamlet') }) }),
    ]);
    expect(events.filter((e) => e.type === 'typing_edit_message').map((e) => [e.op, e.message_id, e.sender_id])).toEqual([
      ['start', id, t.userId('hamlet')],
      ['stop', id, t.userId('hamlet')],
    ]);
    // The user's own setting off: not even asked.
    expect((await t.as('hamlet').patch('/settings', { send_stream_typing_notifications: false })).status).toBe(200);
    await until(() => s.queries.userSettings()['send_stream_typing_notifications'] === false, 10_000, 'setting event');
    expect(await s.setTyping(to, 'start')).toMatchObject({ sent: false });
    expect(await s.setTyping({ type: 'direct', user_ids: [t.userId('othello')] }, 'stop')).toMatchObject({ sent: true });
    await s.close();
  });
});
