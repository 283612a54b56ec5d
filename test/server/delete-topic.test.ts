/**
 * POST /streams/{stream_id}/delete_topic (spec: administrators only, UNAUTHORIZED_PRINCIPAL
 * otherwise; batches newest first; `complete: false` when a timeout interrupted, the client
 * repeats; States and transitions "Topic deletion"; Events 1 first_message_id). Plain HTTP.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { withoutIds } from './events-helpers.js';
import { channelId, freshTopic, post, queue, row } from './edit-helpers.js';
import { startTestServer, type TestServer } from './harness.js';

let t: TestServer;
afterEach(() => t.close());

const topicIds = (channel: string, topic: string) =>
  t.server.state.db.prepare('SELECT id FROM messages WHERE channel_id = ? AND topic = ? ORDER BY id').pluck().all(channelId(t, channel), topic) as number[];

describe('POST /streams/{id}/delete_topic', () => {
  it('an administrator deletes every message of the topic: complete true', async () => {
    t = await startTestServer();
    const topic = freshTopic();
    for (const n of [1, 2, 3]) post(t, 'hamlet', 'Verona', topic, `m${n}`);
    const r = await t.as('iago').post(`/streams/${channelId(t, 'Verona')}/delete_topic`, { topic_name: topic });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ result: 'success', msg: '', complete: true });
    expect(topicIds('Verona', topic)).toEqual([]);
  });

  it('non-administrators get UNAUTHORIZED_PRINCIPAL "Must be an organization administrator"', async () => {
    t = await startTestServer();
    const topic = freshTopic();
    const id = post(t, 'hamlet', 'Verona', topic, 'x');
    for (const who of ['hamlet', 'shiva']) {
      const r = await t.as(who).post(`/streams/${channelId(t, 'Verona')}/delete_topic`, { topic_name: topic });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ result: 'error', code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
    }
    expect(row(t, id)).toBeDefined();
  });

  it('topic_name is required', async () => {
    t = await startTestServer();
    const r = await t.as('iago').post(`/streams/${channelId(t, 'Verona')}/delete_topic`, {});
    expect(r.json).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'topic_name' });
  });

  it('the topic is matched case-insensitively; other topics and channels stay', async () => {
    t = await startTestServer();
    const topic = freshTopic('Castle');
    post(t, 'hamlet', 'Verona', topic, 'a');
    post(t, 'hamlet', 'Verona', topic.toLowerCase(), 'b');
    const other = post(t, 'hamlet', 'Verona', freshTopic(), 'other topic');
    const elsewhere = post(t, 'hamlet', 'Denmark', topic, 'other channel');
    await t.as('iago').post(`/streams/${channelId(t, 'Verona')}/delete_topic`, { topic_name: topic.toUpperCase() });
    expect(topicIds('Verona', topic)).toEqual([]);
    expect(topicIds('Verona', topic.toLowerCase())).toEqual([]);
    expect(row(t, other)).toBeDefined();
    expect(row(t, elsewhere)).toBeDefined();
  });

  it('the realm empty-topic display name means the empty topic', async () => {
    t = await startTestServer();
    const id = post(t, 'hamlet', 'Scotland', '', 'x');
    await t.as('iago').post(`/streams/${channelId(t, 'Scotland')}/delete_topic`, { topic_name: 'general chat' });
    expect(row(t, id)).toBeUndefined();
  });

  it('an unknown or inaccessible channel is "Invalid channel ID"', async () => {
    t = await startTestServer();
    expect((await t.as('iago').post('/streams/99999/delete_topic', { topic_name: 'x' })).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
  });

  it('a topic without messages is complete at once', async () => {
    t = await startTestServer();
    const r = await t.as('iago').post(`/streams/${channelId(t, 'Verona')}/delete_topic`, { topic_name: freshTopic() });
    expect(r.json).toMatchObject({ result: 'success', complete: true });
  });

  it('deletes in batches newest first and answers complete false when the time budget is used; repeating finishes', async () => {
    t = await startTestServer({ config: { deleteTopicBatchSize: 2, deleteTopicBudgetMs: 0 } });
    const topic = freshTopic();
    const ids = [1, 2, 3, 4, 5].map((n) => post(t, 'hamlet', 'Verona', topic, `m${n}`));
    const path = `/streams/${channelId(t, 'Verona')}/delete_topic`;
    expect((await t.as('iago').post(path, { topic_name: topic })).json).toEqual({ result: 'success', msg: '', complete: false });
    expect(topicIds('Verona', topic)).toEqual(ids.slice(0, 3));
    expect((await t.as('iago').post(path, { topic_name: topic })).json.complete).toBe(false);
    expect(topicIds('Verona', topic)).toEqual(ids.slice(0, 1));
    expect((await t.as('iago').post(path, { topic_name: topic })).json.complete).toBe(true);
    expect(topicIds('Verona', topic)).toEqual([]);
  });

  it('each batch is one bulk delete_message event to the subscribers', async () => {
    t = await startTestServer({ config: { deleteTopicBatchSize: 2 } });
    const topic = freshTopic();
    const ids = [1, 2, 3].map((n) => post(t, 'hamlet', 'Verona', topic, `m${n}`));
    const q = await queue(t, 'othello');
    await t.as('iago').post(`/streams/${channelId(t, 'Verona')}/delete_topic`, { topic_name: topic });
    expect(withoutIds(await q.events('delete_message'))).toEqual([
      { type: 'delete_message', message_ids: [ids[1], ids[2]], message_type: 'stream', stream_id: channelId(t, 'Verona'), topic },
      { type: 'delete_message', message_ids: [ids[0]], message_type: 'stream', stream_id: channelId(t, 'Verona'), topic },
    ]);
  });

  it("deleting a channel's oldest messages sends a stream update with the new first_message_id", async () => {
    t = await startTestServer();
    await t.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name: 'fresh channel' }], principals: [t.userId('iago'), t.userId('othello')] });
    const topic = freshTopic();
    post(t, 'iago', 'fresh channel', topic, 'first');
    const keep = post(t, 'iago', 'fresh channel', freshTopic(), 'other topic');
    const q = await queue(t, 'othello');
    await t.as('iago').post(`/streams/${channelId(t, 'fresh channel')}/delete_topic`, { topic_name: topic });
    expect(withoutIds(await q.events('stream'))).toEqual([
      { type: 'stream', op: 'update', stream_id: channelId(t, 'fresh channel'), name: 'fresh channel', property: 'first_message_id', value: keep },
    ]);
  });

  it('in a channel with protected history only the messages the administrator received are deleted', async () => {
    t = await startTestServer();
    const topic = freshTopic();
    const unseen = post(t, 'hamlet', 'core team', topic, 'before iago');
    const seen = post(t, 'hamlet', 'core team', topic, 'iago saw this');
    t.server.state.db.prepare('DELETE FROM user_messages WHERE user_id = ? AND message_id = ?').run(t.userId('iago'), unseen);
    const r = await t.as('iago').post(`/streams/${channelId(t, 'core team')}/delete_topic`, { topic_name: topic });
    expect(r.json.complete).toBe(true);
    expect(row(t, unseen)).toBeDefined();
    expect(row(t, seen)).toBeUndefined();
  });
});
