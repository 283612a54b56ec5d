/**
 * PATCH /messages/{message_id}: resolving topics and the automated notices of moves (spec States
 * and transitions "Topic (messages)": `✔ T` with change_all, no extra new-thread notification,
 * the empty topic cannot be resolved; "Message(s)": optional notices to the old and new topic;
 * send_notification_to_old_thread default false, send_notification_to_new_thread default true).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { botMessages, channelId, freshTopic, history, markSeedEnd, post, realm, row, systemGroup } from './edit-helpers.js';
import { startTestServer, type TestServer } from './harness.js';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
  markSeedEnd(t);
});
afterEach(() => t.close());

const now = () => Math.floor(t.clock.now() / 1000);
const DAY = 86400;

describe('PATCH /messages/{id}: resolving topics', () => {
  it('"✔ T" with change_all resolves the topic', async () => {
    const topic = freshTopic();
    const a = post(t, 'othello', 'Verona', topic, '1');
    const b = post(t, 'hamlet', 'Verona', topic, '2');
    const r = await t.as('hamlet').patch(`/messages/${b}`, { topic: `✔ ${topic}`, propagate_mode: 'change_all' });
    expect(r.json.result).toBe('success');
    expect([row(t, a)?.topic, row(t, b)?.topic]).toEqual([`✔ ${topic}`, `✔ ${topic}`]);
  });

  it('resolving posts "has marked this topic as resolved" by the Notification Bot, and no "moved here" notice', async () => {
    const topic = freshTopic();
    const id = post(t, 'hamlet', 'Verona', topic, 'x');
    await t.as('hamlet').patch(`/messages/${id}`, { topic: `✔ ${topic}`, propagate_mode: 'change_all' });
    expect(botMessages(t, 'Verona')).toEqual([expect.objectContaining({ topic: `✔ ${topic}`, content: `@_**King Hamlet|${t.userId('hamlet')}** has marked this topic as resolved.` })]);
  });

  it('resolving is not a move: last_moved_timestamp stays unset, the history records the topic change', async () => {
    const topic = freshTopic();
    const id = post(t, 'hamlet', 'Verona', topic, 'x');
    await t.as('hamlet').patch(`/messages/${id}`, { topic: `✔ ${topic}`, propagate_mode: 'change_all' });
    expect(row(t, id)).toMatchObject({ last_moved_timestamp: null, last_edit_timestamp: null });
    expect(history(t, id)).toEqual([{ user_id: t.userId('hamlet'), timestamp: now(), prev_topic: topic, topic: `✔ ${topic}` }]);
  });

  it('unresolving posts "has marked this topic as unresolved"', async () => {
    const topic = freshTopic();
    const id = post(t, 'hamlet', 'Verona', `✔ ${topic}`, 'x');
    await t.as('othello').patch(`/messages/${id}`, { topic, propagate_mode: 'change_all' });
    expect(botMessages(t, 'Verona').map((m) => m.content)).toEqual([`@_**Othello, the Moor of Venice|${t.userId('othello')}** has marked this topic as unresolved.`]);
  });

  it('unresolving within 60 seconds deletes the resolve notice instead of posting another', async () => {
    const topic = freshTopic();
    const id = post(t, 'hamlet', 'Verona', topic, 'x');
    await t.as('hamlet').patch(`/messages/${id}`, { topic: `✔ ${topic}`, propagate_mode: 'change_all' });
    t.clock.advance(30_000);
    await t.as('hamlet').patch(`/messages/${id}`, { topic, propagate_mode: 'change_all' });
    expect(botMessages(t, 'Verona')).toEqual([]);
    expect(row(t, id)?.topic).toBe(topic);
  });

  it('the empty topic cannot be resolved', async () => {
    const id = post(t, 'hamlet', 'Verona', '', 'x');
    for (const topic of ['✔ general chat', '✔']) {
      const r = await t.as('hamlet').patch(`/messages/${id}`, { topic, propagate_mode: 'change_all' });
      expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'General chat cannot be marked as resolved' });
    }
  });

  it('resolving needs can_resolve_topics_group, not the topic-move permission', async () => {
    realm(t, { can_resolve_topics_group: systemGroup(t, 'role:moderators') });
    const topic = freshTopic();
    const id = post(t, 'hamlet', 'Verona', topic, 'x');
    const r = await t.as('hamlet').patch(`/messages/${id}`, { topic: `✔ ${topic}`, propagate_mode: 'change_all' });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: "You don't have permission to resolve topics in this channel." });
    expect((await t.as('shiva').patch(`/messages/${id}`, { topic: `✔ ${topic}`, propagate_mode: 'change_all' })).json.result).toBe('success');
  });

  it('resolving is allowed to users who may not otherwise move topics', async () => {
    realm(t, { can_move_messages_between_topics_group: systemGroup(t, 'role:nobody') });
    const topic = freshTopic();
    const id = post(t, 'hamlet', 'Verona', topic, 'x');
    expect((await t.as('hamlet').patch(`/messages/${id}`, { topic: `✔ ${topic}`, propagate_mode: 'change_all' })).json.result).toBe('success');
  });

  it('resolving an old topic is not bound by the move time limit', async () => {
    const topic = freshTopic();
    post(t, 'hamlet', 'Verona', topic, 'ancient', 30 * DAY);
    const id = post(t, 'hamlet', 'Verona', topic, 'old', 30 * DAY);
    expect((await t.as('hamlet').patch(`/messages/${id}`, { topic: `✔ ${topic}`, propagate_mode: 'change_all' })).json.result).toBe('success');
  });
});

describe('PATCH /messages/{id}: notices to the old and new topics', () => {
  it('by default a whole-topic move posts "This topic was moved here from …" in the new topic only', async () => {
    const topic = freshTopic();
    const id = post(t, 'hamlet', 'Verona', topic, 'x');
    await t.as('iago').patch(`/messages/${id}`, { topic: 'new home', propagate_mode: 'change_all' });
    expect(botMessages(t, 'Verona')).toEqual([
      expect.objectContaining({ topic: 'new home', content: `This topic was moved here from #**Verona>${topic}** by @_**Iago|${t.userId('iago')}**.` }),
    ]);
  });

  it('send_notification_to_old_thread posts "This topic was moved to …" in the old topic', async () => {
    const topic = freshTopic();
    const id = post(t, 'hamlet', 'Verona', topic, 'x');
    await t.as('iago').patch(`/messages/${id}`, { topic: 'new home', propagate_mode: 'change_all', send_notification_to_old_thread: true, send_notification_to_new_thread: false });
    expect(botMessages(t, 'Verona')).toEqual([
      expect.objectContaining({ topic, content: `This topic was moved to #**Verona>new home** by @_**Iago|${t.userId('iago')}**.` }),
    ]);
  });

  it('send_notification_to_new_thread false posts nothing', async () => {
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x');
    await t.as('iago').patch(`/messages/${id}`, { topic: 'quiet', send_notification_to_new_thread: false });
    expect(botMessages(t, 'Verona')).toEqual([]);
  });

  it('moving one message of several says "[A message](link) was moved here" and "A message was moved from this topic"', async () => {
    const topic = freshTopic();
    post(t, 'hamlet', 'Verona', topic, 'stays');
    const id = post(t, 'hamlet', 'Verona', topic, 'goes');
    await t.as('iago').patch(`/messages/${id}`, { topic: 'split', send_notification_to_old_thread: true });
    const iago = `@_**Iago|${t.userId('iago')}**`;
    const contents = botMessages(t, 'Verona').map((m) => m.content);
    expect(contents).toEqual([
      `[A message](${t.url}/#narrow/channel/${channelId(t, 'Verona')}-Verona/topic/split/with/${id}) was moved here from #**Verona>${topic}** by ${iago}.`,
      `A message was moved from this topic to #**Verona>split** by ${iago}.`,
    ]);
  });

  it('moving several messages but not all says "N messages were moved"', async () => {
    const topic = freshTopic();
    post(t, 'hamlet', 'Verona', topic, 'stays');
    const id = post(t, 'hamlet', 'Verona', topic, 'goes 1');
    post(t, 'hamlet', 'Verona', topic, 'goes 2');
    await t.as('iago').patch(`/messages/${id}`, { topic: 'split', propagate_mode: 'change_later', send_notification_to_old_thread: true });
    const iago = `@_**Iago|${t.userId('iago')}**`;
    expect(botMessages(t, 'Verona').map((m) => m.content)).toEqual([
      `2 messages were moved here from #**Verona>${topic}** by ${iago}.`,
      `2 messages were moved from this topic to #**Verona>split** by ${iago}.`,
    ]);
  });

  it('a notice the old topic cannot take (topics policy) is skipped; the move still succeeds', async () => {
    const id = post(t, 'hamlet', 'Verona', '', 'x');
    realm(t, { topics_policy: 'disable_empty_topic' });
    const r = await t.as('iago').patch(`/messages/${id}`, { topic: 'named', propagate_mode: 'change_all', send_notification_to_old_thread: true });
    expect(r.json.result).toBe('success');
    expect(botMessages(t, 'Verona').map((m) => m.topic)).toEqual(['named']);
  });

  it('notices start read for the user who moved the messages', async () => {
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x');
    await t.as('othello').patch(`/messages/${id}`, { topic: 'moved', propagate_mode: 'change_all' });
    const [notice] = botMessages(t, 'Verona');
    const flags = (who: string) => t.server.state.db.prepare('SELECT flags FROM user_messages WHERE user_id = ? AND message_id = ?').pluck().get(t.userId(who), notice!.id) as number;
    expect(flags('othello') & 1).toBe(1);
    expect(flags('hamlet') & 1).toBe(0);
  });
});
