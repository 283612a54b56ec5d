/**
 * PATCH /messages/{message_id} with `stream_id`: moving messages to another channel (spec rules
 * 1-4, States and transitions "Message(s)", Errors; docs/zulip-behaviour.md "update_message": a
 * user who can no longer see the moved messages gets delete_message). Plain HTTP.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withoutIds } from './events-helpers.js';
import { botMessages, markSeedEnd, channelId, channelPermission, dm, flagsOf, freshTopic, history, post, queue, realm, row, systemGroup } from './edit-helpers.js';
import { startTestServer, type TestServer } from './harness.js';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
  markSeedEnd(t);
});
afterEach(() => t.close());

const now = () => Math.floor(t.clock.now() / 1000);
const DAY = 86400;

describe('PATCH /messages/{id}: moving to another channel', () => {
  it('stream_id moves the message to the other channel, keeping its topic', async () => {
    const topic = freshTopic();
    const id = post(t, 'hamlet', 'Verona', topic, 'x');
    const r = await t.as('hamlet').patch(`/messages/${id}`, { stream_id: channelId(t, 'Denmark') });
    expect(r.json).toEqual({ result: 'success', msg: '', detached_uploads: [] });
    expect(row(t, id)).toMatchObject({ channel_id: channelId(t, 'Denmark'), topic, last_moved_timestamp: now() });
  });

  it('the history entry of a channel move has prev_stream and stream only', async () => {
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x');
    await t.as('hamlet').patch(`/messages/${id}`, { stream_id: channelId(t, 'Denmark') });
    expect(history(t, id)).toEqual([{ user_id: t.userId('hamlet'), timestamp: now(), prev_stream: channelId(t, 'Verona'), stream: channelId(t, 'Denmark') }]);
  });

  it('channel and topic can change together', async () => {
    const topic = freshTopic();
    const id = post(t, 'hamlet', 'Verona', topic, 'x');
    await t.as('hamlet').patch(`/messages/${id}`, { stream_id: channelId(t, 'Denmark'), topic: 'abroad' });
    expect(row(t, id)).toMatchObject({ channel_id: channelId(t, 'Denmark'), topic: 'abroad' });
    expect(history(t, id)).toEqual([
      { user_id: t.userId('hamlet'), timestamp: now(), prev_stream: channelId(t, 'Verona'), stream: channelId(t, 'Denmark'), prev_topic: topic, topic: 'abroad' },
    ]);
  });

  it('change_all moves the whole topic to the other channel', async () => {
    const topic = freshTopic();
    const a = post(t, 'othello', 'Verona', topic, '1');
    const b = post(t, 'hamlet', 'Verona', topic, '2');
    await t.as('hamlet').patch(`/messages/${b}`, { stream_id: channelId(t, 'Denmark'), propagate_mode: 'change_all' });
    expect([row(t, a)?.channel_id, row(t, b)?.channel_id]).toEqual([channelId(t, 'Denmark'), channelId(t, 'Denmark')]);
  });

  it('stream_id for a direct message is an error', async () => {
    const id = dm(t, 'hamlet', ['othello'], 'x');
    const r = await t.as('hamlet').patch(`/messages/${id}`, { stream_id: channelId(t, 'Denmark') });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Direct messages cannot be moved to channels.' });
  });

  it('moving to the channel the message is already in is "Nothing to change"', async () => {
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x');
    const r = await t.as('hamlet').patch(`/messages/${id}`, { stream_id: channelId(t, 'Verona') });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Nothing to change' });
  });

  it('a destination that does not exist or that the actor cannot access is "Invalid channel ID"', async () => {
    const id = post(t, 'othello', 'Verona', freshTopic(), 'x');
    expect((await t.as('othello').patch(`/messages/${id}`, { stream_id: 99999 })).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
    expect((await t.as('othello').patch(`/messages/${id}`, { stream_id: channelId(t, 'core team') })).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
  });

  it("moving into a channel needs the destination's can_send_message_group", async () => {
    channelPermission(t, 'Denmark', 'can_send_message_group', 'role:moderators');
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x');
    const r = await t.as('hamlet').patch(`/messages/${id}`, { stream_id: channelId(t, 'Denmark') });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'You do not have permission to post in this channel.' });
  });
});

describe('PATCH /messages/{id}: who may move between channels', () => {
  it('guests are outside the default can_move_messages_between_channels_group (members)', async () => {
    const id = post(t, 'polonius', 'general', freshTopic(), 'x');
    const r = await t.as('polonius').patch(`/messages/${id}`, { stream_id: channelId(t, 'Denmark') });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: "You don't have permission to move this message" });
  });

  it('users outside can_move_messages_between_channels_group cannot move between channels; administrators can', async () => {
    realm(t, { can_move_messages_between_channels_group: systemGroup(t, 'role:nobody') });
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x');
    expect((await t.as('hamlet').patch(`/messages/${id}`, { stream_id: channelId(t, 'Denmark') })).json.msg).toBe("You don't have permission to move this message");
    expect((await t.as('iago').patch(`/messages/${id}`, { stream_id: channelId(t, 'Denmark') })).json.result).toBe('success');
  });

  it("the origin channel's can_move_messages_out_of_channel_group grants moving out of it", async () => {
    realm(t, { can_move_messages_between_channels_group: systemGroup(t, 'role:nobody') });
    channelPermission(t, 'Verona', 'can_move_messages_out_of_channel_group', 'role:members');
    const fromVerona = post(t, 'hamlet', 'Verona', freshTopic(), 'x');
    const fromDenmark = post(t, 'hamlet', 'Denmark', freshTopic(), 'x');
    expect((await t.as('hamlet').patch(`/messages/${fromVerona}`, { stream_id: channelId(t, 'Denmark') })).json.result).toBe('success');
    expect((await t.as('hamlet').patch(`/messages/${fromDenmark}`, { stream_id: channelId(t, 'Verona') })).json.msg).toBe("You don't have permission to move this message");
  });
});

describe('PATCH /messages/{id}: channel move time limits', () => {
  it("change_one past move_messages_between_streams_limit_seconds is BAD_REQUEST", async () => {
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x', 7 * DAY + 21);
    const r = await t.as('hamlet').patch(`/messages/${id}`, { stream_id: channelId(t, 'Denmark') });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: "The time limit for editing this message's channel has passed" });
  });

  it('a channel move only within the channel limit is not bound by the (shorter) topic limit', async () => {
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x', 5 * DAY);
    expect((await t.as('hamlet').patch(`/messages/${id}`, { stream_id: channelId(t, 'Denmark') })).json.result).toBe('success');
  });

  it('change_all across channels with old messages is MOVE_MESSAGES_TIME_LIMIT_EXCEEDED', async () => {
    const topic = freshTopic();
    post(t, 'hamlet', 'Verona', topic, 'old', 8 * DAY);
    const id = post(t, 'hamlet', 'Verona', topic, 'new');
    const r = await t.as('hamlet').patch(`/messages/${id}`, { stream_id: channelId(t, 'Denmark'), propagate_mode: 'change_all' });
    expect(r.json).toMatchObject({ code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED', first_message_id_allowed_to_move: id, total_messages_in_topic: 2, total_messages_allowed_to_move: 1 });
  });

  it('when both channel and topic change, the stricter limit applies', async () => {
    const topic = freshTopic();
    post(t, 'hamlet', 'Verona', topic, 'four days', 4 * DAY);
    const id = post(t, 'hamlet', 'Verona', topic, 'new');
    const both = await t.as('hamlet').patch(`/messages/${id}`, { stream_id: channelId(t, 'Denmark'), topic: 'both', propagate_mode: 'change_all' });
    expect(both.json).toMatchObject({ code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED', total_messages_allowed_to_move: 1 });
    const channelOnly = await t.as('hamlet').patch(`/messages/${id}`, { stream_id: channelId(t, 'Denmark'), propagate_mode: 'change_all' });
    expect(channelOnly.json.result).toBe('success');
  });
});

describe('PATCH /messages/{id}: access after a channel move', () => {
  it('users who cannot access the destination get delete_message and lose their rows', async () => {
    const topic = freshTopic();
    const id = post(t, 'hamlet', 'Verona', topic, 'x');
    const q = await queue(t, 'othello');
    await t.as('hamlet').patch(`/messages/${id}`, { stream_id: channelId(t, 'core team') });
    expect(withoutIds(await q.events('delete_message'))).toEqual([{ type: 'delete_message', message_ids: [id], message_type: 'stream', stream_id: channelId(t, 'Verona'), topic }]);
    expect(await q.events('update_message')).toEqual([]);
    expect(flagsOf(t, 'othello', id)).toBeUndefined();
  });

  it('without bulk_message_deletion the lost messages come one delete_message per message_id', async () => {
    const topic = freshTopic();
    const a = post(t, 'hamlet', 'Verona', topic, '1');
    const b = post(t, 'hamlet', 'Verona', topic, '2');
    const q = await queue(t, 'othello', { empty_topic_name: true });
    await t.as('hamlet').patch(`/messages/${a}`, { stream_id: channelId(t, 'core team'), propagate_mode: 'change_all' });
    expect(withoutIds(await q.events('delete_message'))).toEqual([
      { type: 'delete_message', message_id: a, message_type: 'stream', stream_id: channelId(t, 'Verona'), topic },
      { type: 'delete_message', message_id: b, message_type: 'stream', stream_id: channelId(t, 'Verona'), topic },
    ]);
  });

  it('guests not subscribed to a public destination lose access and get delete_message', async () => {
    const id = post(t, 'hamlet', 'Denmark', freshTopic(), 'x');
    const q = await queue(t, 'polonius');
    await t.as('hamlet').patch(`/messages/${id}`, { stream_id: channelId(t, 'Verona') });
    expect((await q.events('delete_message')).map((e) => e.message_ids)).toEqual([[id]]);
    expect(flagsOf(t, 'polonius', id)).toBeUndefined();
  });

  it('members not subscribed to a public destination keep access: update_message, no delete_message', async () => {
    const topic = freshTopic();
    const id = post(t, 'hamlet', 'Verona', topic, 'x');
    const q = await queue(t, 'othello');
    await t.as('hamlet').patch(`/messages/${id}`, { stream_id: channelId(t, 'Denmark') });
    expect(await q.events('delete_message')).toEqual([]);
    expect((await q.events('update_message'))[0]).toMatchObject({ message_id: id, stream_id: channelId(t, 'Verona'), new_stream_id: channelId(t, 'Denmark') });
  });

  it('subscribers of the destination who never had the message get update_message (shared history)', async () => {
    const id = post(t, 'hamlet', 'Denmark', freshTopic(), 'x');
    const q = await queue(t, 'shiva');
    await t.as('hamlet').patch(`/messages/${id}`, { stream_id: channelId(t, 'Verona') });
    expect((await q.events('update_message'))[0]).toMatchObject({ message_id: id, flags: ['read'] });
  });

  it('subscribers of a destination with protected history get read rows for the moved messages', async () => {
    t.server.state.db.prepare('UPDATE channels SET invite_only = 1, history_public_to_subscribers = 0 WHERE id = ?').run(channelId(t, 'Scotland'));
    const id = post(t, 'iago', 'Denmark', freshTopic(), 'x');
    expect(flagsOf(t, 'shiva', id)).toBeUndefined();
    await t.as('iago').patch(`/messages/${id}`, { stream_id: channelId(t, 'Scotland') });
    expect(flagsOf(t, 'shiva', id)).toBe(1);
    expect(flagsOf(t, 'othello', id)).toBe(1);
    expect(flagsOf(t, 'hamlet', id)).toBeUndefined();
  });
});

describe('PATCH /messages/{id}: the update_message event of a channel move', () => {
  it('has stream_id (old), new_stream_id, propagate_mode and orig_subject, and no subject when the topic is kept', async () => {
    const topic = freshTopic();
    const id = post(t, 'hamlet', 'Verona', topic, 'x');
    const q = await queue(t, 'cordelia');
    await t.as('hamlet').patch(`/messages/${id}`, { stream_id: channelId(t, 'Denmark'), send_notification_to_new_thread: false });
    expect(withoutIds(await q.events('update_message'))).toEqual([
      {
        type: 'update_message',
        user_id: t.userId('hamlet'),
        edit_timestamp: now(),
        message_id: id,
        message_ids: [id],
        flags: [],
        rendering_only: false,
        stream_id: channelId(t, 'Verona'),
        stream_name: 'Verona',
        new_stream_id: channelId(t, 'Denmark'),
        propagate_mode: 'change_one',
        orig_subject: topic,
      },
    ]);
  });
});

describe('PATCH /messages/{id}: notices after a channel move', () => {
  it('the new topic gets "This topic was moved here from #**Verona>T** by …", the old one "This topic was moved to #**Denmark>T** by …"', async () => {
    const topic = freshTopic();
    const id = post(t, 'hamlet', 'Verona', topic, 'x');
    await t.as('iago').patch(`/messages/${id}`, { stream_id: channelId(t, 'Denmark'), propagate_mode: 'change_all', send_notification_to_old_thread: true });
    const iago = `@_**Iago|${t.userId('iago')}**`;
    expect(botMessages(t, 'Denmark')).toEqual([expect.objectContaining({ topic, content: `This topic was moved here from #**Verona>${topic}** by ${iago}.` })]);
    expect(botMessages(t, 'Verona')).toEqual([expect.objectContaining({ topic, content: `This topic was moved to #**Denmark>${topic}** by ${iago}.` })]);
  });

  it('a notice can be posted in a private channel the Notification Bot is not subscribed to', async () => {
    const topic = freshTopic();
    const id = post(t, 'hamlet', 'Verona', topic, 'x');
    const r = await t.as('iago').patch(`/messages/${id}`, { stream_id: channelId(t, 'core team'), propagate_mode: 'change_all' });
    expect(r.json.result).toBe('success');
    expect(botMessages(t, 'core team')).toHaveLength(1);
    const botSubscribed = t.server.state.db
      .prepare("SELECT COUNT(*) FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE u.email = 'notification-bot@zulip.com'")
      .pluck()
      .get();
    expect(botSubscribed).toBe(0);
  });
});

describe('PATCH /messages/{id}: topic preferences after a channel move', () => {
  it('users who lose access to the moved topic lose their preference for it', async () => {
    const topic = freshTopic();
    const id = post(t, 'hamlet', 'Verona', topic, 'x');
    await t.as('othello').post('/user_topics', { stream_id: channelId(t, 'Verona'), topic, visibility_policy: 3 });
    await t.as('hamlet').patch(`/messages/${id}`, { stream_id: channelId(t, 'core team'), propagate_mode: 'change_all' });
    const count = t.server.state.db.prepare('SELECT COUNT(*) FROM user_topics WHERE user_id = ?').pluck().get(t.userId('othello'));
    expect(count).toBe(0);
  });
});
