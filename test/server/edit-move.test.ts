/**
 * PATCH /messages/{message_id}: topic moves (spec "PATCH /messages/{message_id}" rules 2-4, States
 * and transitions "Message(s)", Errors MOVE_MESSAGES_TIME_LIMIT_EXCEEDED;
 * docs/zulip-behaviour.md "PATCH /messages/{message_id}", "update_message"). Resolving
 * and the automated notices are in edit-notices.test.ts. Plain HTTP.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withoutIds } from './events-helpers.js';
import { channelId, channelPermission, dm, freshTopic, history, post, queue, realm, row, systemGroup } from './edit-helpers.js';
import { startTestServer, type TestServer } from './harness.js';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(() => t.close());

const now = () => Math.floor(t.clock.now() / 1000);
const DAY = 86400;

describe('PATCH /messages/{id}: topic moves and propagate_mode', () => {
  it('change_one (the default) moves only the target message', async () => {
    const topic = freshTopic();
    const a = post(t, 'hamlet', 'Verona', topic, 'one');
    const b = post(t, 'hamlet', 'Verona', topic, 'two');
    const r = await t.as('hamlet').patch(`/messages/${b}`, { topic: 'elsewhere' });
    expect(r.json).toEqual({ result: 'success', msg: '', detached_uploads: [] });
    expect(row(t, a)?.topic).toBe(topic);
    expect(row(t, b)?.topic).toBe('elsewhere');
  });

  it('change_later moves the target and the later messages of the topic', async () => {
    const topic = freshTopic();
    const [a, b, c] = [post(t, 'hamlet', 'Verona', topic, '1'), post(t, 'othello', 'Verona', topic, '2'), post(t, 'hamlet', 'Verona', topic, '3')];
    await t.as('hamlet').patch(`/messages/${b}`, { topic: 'later', propagate_mode: 'change_later' });
    expect([row(t, a)?.topic, row(t, b)?.topic, row(t, c)?.topic]).toEqual([topic, 'later', 'later']);
  });

  it('change_all moves every message of the topic', async () => {
    const topic = freshTopic();
    const [a, b, c] = [post(t, 'hamlet', 'Verona', topic, '1'), post(t, 'othello', 'Verona', topic, '2'), post(t, 'hamlet', 'Verona', topic, '3')];
    await t.as('hamlet').patch(`/messages/${b}`, { topic: 'all of it', propagate_mode: 'change_all' });
    expect([row(t, a)?.topic, row(t, b)?.topic, row(t, c)?.topic]).toEqual(['all of it', 'all of it', 'all of it']);
  });

  it('change_all matches the topic case-insensitively', async () => {
    const topic = freshTopic('Castle');
    const a = post(t, 'hamlet', 'Verona', topic, '1');
    const b = post(t, 'hamlet', 'Verona', topic.toLowerCase(), '2');
    await t.as('hamlet').patch(`/messages/${b}`, { topic: 'moat', propagate_mode: 'change_all' });
    expect(row(t, a)?.topic).toBe('moat');
  });

  it('messages of other topics and channels stay put', async () => {
    const topic = freshTopic();
    const other = post(t, 'hamlet', 'Verona', freshTopic(), 'other topic');
    const elsewhere = post(t, 'hamlet', 'Denmark', topic, 'other channel');
    const id = post(t, 'hamlet', 'Verona', topic, 'moving');
    await t.as('hamlet').patch(`/messages/${id}`, { topic: 'moved', propagate_mode: 'change_all' });
    expect(row(t, other)?.topic).not.toBe('moved');
    expect(row(t, elsewhere)?.topic).toBe(topic);
  });

  it('subject is the legacy alias of topic', async () => {
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x');
    await t.as('hamlet').patch(`/messages/${id}`, { subject: 'via subject' });
    expect(row(t, id)?.topic).toBe('via subject');
  });

  it('topic and subject together are REQUEST_CONFUSING_VAR', async () => {
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x');
    const r = await t.as('hamlet').patch(`/messages/${id}`, { topic: 'a', subject: 'b' });
    expect(r.json).toMatchObject({ code: 'REQUEST_CONFUSING_VAR', var_name1: 'topic', var_name2: 'subject' });
  });

  it('the realm empty-topic display name means the empty topic', async () => {
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x');
    await t.as('hamlet').patch(`/messages/${id}`, { topic: 'general chat' });
    expect(row(t, id)?.topic).toBe('');
  });

  it('"(no topic)" also means the empty topic', async () => {
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x');
    await t.as('hamlet').patch(`/messages/${id}`, { topic: '(no topic)' });
    expect(row(t, id)?.topic).toBe('');
  });

  it('the new topic is stripped of surrounding whitespace', async () => {
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x');
    await t.as('hamlet').patch(`/messages/${id}`, { topic: '  padded  ' });
    expect(row(t, id)?.topic).toBe('padded');
  });

  it('a topic longer than max_topic_length is truncated with "..."', async () => {
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x');
    await t.as('hamlet').patch(`/messages/${id}`, { topic: 'y'.repeat(70) });
    expect(row(t, id)?.topic).toBe('y'.repeat(57) + '...');
  });

  it('a topic with a control character is rejected', async () => {
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x');
    const r = await t.as('hamlet').patch(`/messages/${id}`, { topic: 'bad\u0007topic' });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid character in topic, at position 4!' });
  });

  it('the same topic again is "Nothing to change"', async () => {
    const topic = freshTopic();
    const id = post(t, 'hamlet', 'Verona', topic, 'x');
    const r = await t.as('hamlet').patch(`/messages/${id}`, { topic });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Nothing to change' });
  });

  it('a topic for a direct message is an error', async () => {
    const id = dm(t, 'hamlet', ['othello'], 'x');
    const r = await t.as('hamlet').patch(`/messages/${id}`, { topic: 'nope' });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Direct messages cannot have topics.' });
  });

  it('content and topic can change together; the target gets both in its history entry', async () => {
    const topic = freshTopic();
    const id = post(t, 'hamlet', 'Verona', topic, 'old words');
    await t.as('hamlet').patch(`/messages/${id}`, { topic: 'new place', content: 'new words' });
    expect(history(t, id)).toEqual([
      { user_id: t.userId('hamlet'), timestamp: now(), prev_content: 'old words', prev_rendered_content: '<p>old words</p>', prev_topic: topic, topic: 'new place' },
    ]);
    expect(row(t, id)).toMatchObject({ content: 'new words', topic: 'new place', last_edit_timestamp: now(), last_moved_timestamp: now() });
  });

  it('every moved message gets an edit history entry with only user_id, timestamp, prev_topic and topic', async () => {
    const topic = freshTopic();
    const a = post(t, 'othello', 'Verona', topic, '1');
    const b = post(t, 'hamlet', 'Verona', topic, '2');
    t.clock.advance(3000);
    await t.as('hamlet').patch(`/messages/${b}`, { topic: 'renamed', propagate_mode: 'change_all' });
    const expected = [{ user_id: t.userId('hamlet'), timestamp: now(), prev_topic: topic, topic: 'renamed' }];
    expect(history(t, a)).toEqual(expected);
    expect(history(t, b)).toEqual(expected);
  });

  it('a move sets last_moved_timestamp on every moved message and leaves last_edit_timestamp unset', async () => {
    const topic = freshTopic();
    const a = post(t, 'othello', 'Verona', topic, '1');
    const b = post(t, 'hamlet', 'Verona', topic, '2');
    t.clock.advance(3000);
    await t.as('hamlet').patch(`/messages/${b}`, { topic: 'renamed', propagate_mode: 'change_all' });
    for (const id of [a, b]) expect(row(t, id)).toMatchObject({ last_moved_timestamp: now(), last_edit_timestamp: null });
  });
});

describe('PATCH /messages/{id}: what readers see after a move', () => {
  it('GET /messages/{id} shows the new topic, last_moved_timestamp and no last_edit_timestamp', async () => {
    const topic = freshTopic();
    const id = post(t, 'hamlet', 'Verona', topic, 'x');
    await t.as('hamlet').patch(`/messages/${id}`, { topic: 'after the move' });
    const r = await t.as('othello').get(`/messages/${id}`);
    expect(r.json.message).toMatchObject({ subject: 'after the move', last_moved_timestamp: now(), edit_history: [{ user_id: t.userId('hamlet'), timestamp: now(), prev_topic: topic, topic: 'after the move' }] });
    expect(r.json.message).not.toHaveProperty('last_edit_timestamp');
  });

  it('a topic narrow finds the moved messages under the new topic only', async () => {
    const topic = freshTopic();
    const id = post(t, 'hamlet', 'Verona', topic, 'x');
    await t.as('hamlet').patch(`/messages/${id}`, { topic: 'narrowed', propagate_mode: 'change_all', send_notification_to_new_thread: false });
    const inTopic = async (name: string) => {
      const r = await t.as('othello').get('/messages', { anchor: 'newest', num_before: 50, num_after: 0, narrow: [{ operator: 'channel', operand: channelId(t, 'Verona') }, { operator: 'topic', operand: name }] });
      return (r.json.messages as Array<{ id: number }>).map((m) => m.id);
    };
    expect(await inTopic('narrowed')).toEqual([id]);
    expect(await inTopic(topic)).toEqual([]);
  });
});

describe('PATCH /messages/{id}: who may move between topics', () => {
  it("members may move other users' messages between topics by default (can_move_messages_between_topics_group = everyone)", async () => {
    const id = post(t, 'othello', 'Verona', freshTopic(), 'x');
    const r = await t.as('hamlet').patch(`/messages/${id}`, { topic: 'moved by hamlet' });
    expect(r.json.result).toBe('success');
  });

  it('users outside can_move_messages_between_topics_group cannot change topics', async () => {
    realm(t, { can_move_messages_between_topics_group: systemGroup(t, 'role:moderators') });
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x');
    const r = await t.as('hamlet').patch(`/messages/${id}`, { topic: 'nope' });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: "You don't have permission to edit this message" });
    expect((await t.as('shiva').patch(`/messages/${id}`, { topic: 'moderator can' })).json.result).toBe('success');
  });

  it("a channel's can_move_messages_within_channel_group grants topic moves in that channel", async () => {
    realm(t, { can_move_messages_between_topics_group: systemGroup(t, 'role:nobody') });
    channelPermission(t, 'Verona', 'can_move_messages_within_channel_group', 'role:members');
    const inVerona = post(t, 'hamlet', 'Verona', freshTopic(), 'x');
    const inDenmark = post(t, 'hamlet', 'Denmark', freshTopic(), 'x');
    expect((await t.as('hamlet').patch(`/messages/${inVerona}`, { topic: 'granted' })).json.result).toBe('success');
    expect((await t.as('hamlet').patch(`/messages/${inDenmark}`, { topic: 'not granted' })).json.msg).toBe("You don't have permission to edit this message");
  });

  it('administrators may always move messages within a channel', async () => {
    realm(t, { can_move_messages_between_topics_group: systemGroup(t, 'role:nobody') });
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x');
    expect((await t.as('iago').patch(`/messages/${id}`, { topic: 'admin move' })).json.result).toBe('success');
  });
});

describe('PATCH /messages/{id}: move time limits', () => {
  it("change_one past move_messages_within_stream_limit_seconds is BAD_REQUEST", async () => {
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'old', 3 * DAY + 21);
    const r = await t.as('hamlet').patch(`/messages/${id}`, { topic: 'too late' });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: "The time limit for editing this message's topic has passed." });
  });

  it('change_all with messages past the limit is MOVE_MESSAGES_TIME_LIMIT_EXCEEDED with the movable part', async () => {
    const topic = freshTopic();
    post(t, 'hamlet', 'Verona', topic, 'ancient', 4 * DAY);
    post(t, 'othello', 'Verona', topic, 'old', 4 * DAY);
    const recent = post(t, 'othello', 'Verona', topic, 'recent', DAY);
    const newest = post(t, 'hamlet', 'Verona', topic, 'newest');
    const r = await t.as('hamlet').patch(`/messages/${newest}`, { topic: 'partial', propagate_mode: 'change_all' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      result: 'error',
      code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
      msg: 'You only have permission to move the 2/4 most recent messages in this topic.',
      first_message_id_allowed_to_move: recent,
      total_messages_in_topic: 4,
      total_messages_allowed_to_move: 2,
    });
    expect(row(t, newest)?.topic).toBe(topic);
  });

  it('first_message_id_allowed_to_move is null when no message of the topic may move', async () => {
    const topic = freshTopic();
    post(t, 'hamlet', 'Verona', topic, 'ancient', 5 * DAY);
    const id = post(t, 'hamlet', 'Verona', topic, 'old', 4 * DAY);
    const r = await t.as('hamlet').patch(`/messages/${id}`, { topic: 'nothing', propagate_mode: 'change_all' });
    expect(r.json).toMatchObject({ code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED', first_message_id_allowed_to_move: null, total_messages_in_topic: 2, total_messages_allowed_to_move: 0 });
  });

  it('repeating with change_later from first_message_id_allowed_to_move moves the allowed part', async () => {
    const topic = freshTopic();
    const old = post(t, 'hamlet', 'Verona', topic, 'old', 4 * DAY);
    const recent = post(t, 'othello', 'Verona', topic, 'recent', DAY);
    const newest = post(t, 'hamlet', 'Verona', topic, 'newest');
    const r = await t.as('hamlet').patch(`/messages/${recent}`, { topic: 'allowed part', propagate_mode: 'change_later' });
    expect(r.json.result).toBe('success');
    expect([row(t, old)?.topic, row(t, recent)?.topic, row(t, newest)?.topic]).toEqual([topic, 'allowed part', 'allowed part']);
  });

  it('change_later from a message past the limit is MOVE_MESSAGES_TIME_LIMIT_EXCEEDED', async () => {
    const topic = freshTopic();
    const old = post(t, 'hamlet', 'Verona', topic, 'old', 4 * DAY);
    const recent = post(t, 'hamlet', 'Verona', topic, 'recent');
    const r = await t.as('hamlet').patch(`/messages/${old}`, { topic: 'x', propagate_mode: 'change_later' });
    expect(r.json).toMatchObject({ code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED', first_message_id_allowed_to_move: recent, total_messages_in_topic: 2, total_messages_allowed_to_move: 1 });
  });

  it('move time limits do not bind moderators and administrators', async () => {
    const topic = freshTopic();
    post(t, 'hamlet', 'Verona', topic, 'ancient', 30 * DAY);
    const id = post(t, 'hamlet', 'Verona', topic, 'old', 30 * DAY);
    expect((await t.as('shiva').patch(`/messages/${id}`, { topic: 'mod move', propagate_mode: 'change_all' })).json.result).toBe('success');
    const other = post(t, 'hamlet', 'Verona', freshTopic(), 'old', 30 * DAY);
    expect((await t.as('iago').patch(`/messages/${other}`, { topic: 'admin move' })).json.result).toBe('success');
  });

  it('move_messages_within_stream_limit_seconds null means no limit', async () => {
    realm(t, { move_messages_within_stream_limit_seconds: null });
    const topic = freshTopic();
    post(t, 'hamlet', 'Verona', topic, 'ancient', 300 * DAY);
    const id = post(t, 'hamlet', 'Verona', topic, 'old', 300 * DAY);
    expect((await t.as('hamlet').patch(`/messages/${id}`, { topic: 'any time', propagate_mode: 'change_all' })).json.result).toBe('success');
  });
});

describe('PATCH /messages/{id}: topics policy', () => {
  it('a channel with disable_empty_topic refuses moves into the empty topic', async () => {
    t.server.state.db.prepare("UPDATE channels SET topics_policy = 'disable_empty_topic' WHERE id = ?").run(channelId(t, 'Verona'));
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x');
    const r = await t.as('hamlet').patch(`/messages/${id}`, { topic: '' });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST' });
    expect(row(t, id)?.topic).not.toBe('');
  });

  it('the realm topics_policy applies to channels that inherit it', async () => {
    realm(t, { topics_policy: 'disable_empty_topic' });
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x');
    const r = await t.as('hamlet').patch(`/messages/${id}`, { topic: 'general chat' });
    expect(r.json.code).toBe('BAD_REQUEST');
  });

  it('an empty_topic_only channel refuses moves into a named topic', async () => {
    const id = post(t, 'hamlet', 'Verona', '', 'x');
    t.server.state.db.prepare("UPDATE channels SET topics_policy = 'empty_topic_only' WHERE id = ?").run(channelId(t, 'Verona'));
    const r = await t.as('hamlet').patch(`/messages/${id}`, { topic: 'named' });
    expect(r.json.code).toBe('BAD_REQUEST');
  });
});

describe('PATCH /messages/{id}: protected history', () => {
  it('in a private channel with protected history change_all moves only the messages the actor can access', async () => {
    const topic = freshTopic();
    const before = post(t, 'iago', 'core team', topic, 'before hamlet could see');
    const mine = post(t, 'hamlet', 'core team', topic, 'hamlet was here');
    t.server.state.db.prepare('DELETE FROM user_messages WHERE user_id = ? AND message_id = ?').run(t.userId('hamlet'), before);
    const r = await t.as('hamlet').patch(`/messages/${mine}`, { topic: 'visible part', propagate_mode: 'change_all' });
    expect(r.json.result).toBe('success');
    expect(row(t, before)?.topic).toBe(topic);
    expect(row(t, mine)?.topic).toBe('visible part');
  });

  it('messages the actor cannot access are not counted against the time limit', async () => {
    const topic = freshTopic();
    const before = post(t, 'iago', 'core team', topic, 'old and invisible', 10 * DAY);
    const mine = post(t, 'hamlet', 'core team', topic, 'recent');
    t.server.state.db.prepare('DELETE FROM user_messages WHERE user_id = ? AND message_id = ?').run(t.userId('hamlet'), before);
    const r = await t.as('hamlet').patch(`/messages/${mine}`, { topic: 'mine only', propagate_mode: 'change_all' });
    expect(r.json.result).toBe('success');
  });
});

describe('PATCH /messages/{id}: the update_message event of a topic move', () => {
  it('has propagate_mode, orig_subject, subject, topic_links and the sorted message_ids, no content or new_stream_id', async () => {
    const topic = freshTopic();
    const a = post(t, 'othello', 'Verona', topic, '1');
    const b = post(t, 'hamlet', 'Verona', topic, '2');
    const q = await queue(t, 'cordelia');
    await t.as('hamlet').patch(`/messages/${b}`, { topic: 'renamed', propagate_mode: 'change_all', send_notification_to_new_thread: false });
    expect(withoutIds(await q.events('update_message'))).toEqual([
      {
        type: 'update_message',
        user_id: t.userId('hamlet'),
        edit_timestamp: now(),
        message_id: b,
        message_ids: [a, b],
        flags: [],
        rendering_only: false,
        stream_id: channelId(t, 'Verona'),
        stream_name: 'Verona',
        propagate_mode: 'change_all',
        orig_subject: topic,
        subject: 'renamed',
        topic_links: [],
      },
    ]);
  });

  it('without the empty_topic_name capability an empty topic is written as the display name', async () => {
    const id = post(t, 'hamlet', 'Verona', '', 'x');
    const legacy = await queue(t, 'cordelia', {});
    const modern = await queue(t, 'othello');
    await t.as('hamlet').patch(`/messages/${id}`, { topic: 'named now' });
    expect((await legacy.events('update_message'))[0]).toMatchObject({ orig_subject: 'general chat', subject: 'named now' });
    expect((await modern.events('update_message'))[0]).toMatchObject({ orig_subject: '', subject: 'named now' });
  });

  it('subscribers who never received the message still get the event (flags ["read"]) in a channel with shared history', async () => {
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x');
    t.server.state.db.prepare('DELETE FROM user_messages WHERE user_id = ? AND message_id = ?').run(t.userId('cordelia'), id);
    const q = await queue(t, 'cordelia');
    await t.as('hamlet').patch(`/messages/${id}`, { topic: 'moved' });
    expect((await q.events('update_message'))[0]).toMatchObject({ message_id: id, flags: ['read'] });
  });

  it('users who are neither subscribed nor received the message get no event', async () => {
    const id = post(t, 'hamlet', 'Scotland', freshTopic(), 'x');
    const q = await queue(t, 'cordelia');
    await t.as('iago').patch(`/messages/${id}`, { topic: 'moved' });
    expect(await q.events('update_message')).toEqual([]);
  });
});

describe('PATCH /messages/{id}: topic preferences follow the topic', () => {
  it('a followed topic moved as a whole stays followed under its new name', async () => {
    const topic = freshTopic();
    const id = post(t, 'hamlet', 'Verona', topic, 'x');
    const verona = channelId(t, 'Verona');
    expect((await t.as('cordelia').post('/user_topics', { stream_id: verona, topic, visibility_policy: 3 })).json.result).toBe('success');
    await t.as('hamlet').patch(`/messages/${id}`, { topic: 'renamed', propagate_mode: 'change_all' });
    const policy = (name: string) =>
      t.server.state.db.prepare('SELECT visibility_policy FROM user_topics WHERE user_id = ? AND channel_id = ? AND topic = ?').pluck().get(t.userId('cordelia'), verona, name);
    expect(policy(topic)).toBeUndefined();
    expect(policy('renamed')).toBe(3);
  });
});
