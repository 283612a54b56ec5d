/**
 * GET /messages/{message_id}/history (OpenAPI get-message-history; spec "Edit history entry
 * fields" for what each edit changed): snapshots oldest first, the original first with only
 * topic, content, rendered_content, timestamp and user_id. Plain HTTP.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { channelId, dm, freshTopic, post, realm } from './edit-helpers.js';
import { startTestServer, type TestServer } from './harness.js';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(() => t.close());

const now = () => Math.floor(t.clock.now() / 1000);
type Snapshot = Record<string, unknown>;
const historyOf = async (who: string, id: number, params: Record<string, boolean> = {}) => {
  const r = await t.as(who).get(`/messages/${id}/history`, params);
  return { r, snapshots: r.json.message_history as Snapshot[] };
};

describe('GET /messages/{id}/history', () => {
  it('a message never edited has one snapshot: the original with topic, content, rendered_content, timestamp and user_id', async () => {
    const topic = freshTopic();
    const id = post(t, 'hamlet', 'Verona', topic, 'hello');
    const { r, snapshots } = await historyOf('othello', id);
    expect(r.status).toBe(200);
    expect(snapshots).toEqual([{ topic, content: 'hello', rendered_content: '<p>hello</p>', timestamp: now(), user_id: t.userId('hamlet') }]);
  });

  it('snapshots are oldest first, each with the values right after its edit', async () => {
    const topic = freshTopic();
    const sent = now();
    const id = post(t, 'hamlet', 'Verona', topic, 'one');
    t.clock.advance(10_000);
    await t.as('hamlet').patch(`/messages/${id}`, { content: 'two' });
    t.clock.advance(10_000);
    await t.as('othello').patch(`/messages/${id}`, { topic: 'renamed' });
    const { snapshots } = await historyOf('hamlet', id);
    expect(snapshots.map((s) => [s.timestamp, s.user_id, s.topic, s.content])).toEqual([
      [sent, t.userId('hamlet'), topic, 'one'],
      [sent + 10, t.userId('hamlet'), topic, 'two'],
      [sent + 20, t.userId('othello'), 'renamed', 'two'],
    ]);
  });

  it('a content edit snapshot has prev_content, prev_rendered_content and a content_html_diff', async () => {
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'Hello!');
    await t.as('hamlet').patch(`/messages/${id}`, { content: 'Howdy!' });
    const { snapshots } = await historyOf('hamlet', id);
    expect(snapshots[1]).toMatchObject({ content: 'Howdy!', rendered_content: '<p>Howdy!</p>', prev_content: 'Hello!', prev_rendered_content: '<p>Hello!</p>' });
    expect(snapshots[1]!.content_html_diff).toContain('<span class="highlight_text_inserted">Howdy!</span>');
    expect(snapshots[1]!.content_html_diff).toContain('<span class="highlight_text_deleted">Hello!</span>');
    expect(snapshots[1]).not.toHaveProperty('prev_topic');
  });

  it('a topic edit snapshot has prev_topic and no content fields beyond content/rendered_content', async () => {
    const topic = freshTopic();
    const id = post(t, 'hamlet', 'Verona', topic, 'x');
    await t.as('hamlet').patch(`/messages/${id}`, { topic: 'new topic' });
    const { snapshots } = await historyOf('hamlet', id);
    expect(snapshots[1]).toEqual({ topic: 'new topic', prev_topic: topic, content: 'x', rendered_content: '<p>x</p>', timestamp: now(), user_id: t.userId('hamlet') });
  });

  it('a channel move snapshot has prev_stream and stream', async () => {
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x');
    await t.as('hamlet').patch(`/messages/${id}`, { stream_id: channelId(t, 'Denmark'), send_notification_to_new_thread: false });
    const { snapshots } = await historyOf('hamlet', id);
    expect(snapshots[1]).toMatchObject({ prev_stream: channelId(t, 'Verona'), stream: channelId(t, 'Denmark') });
  });

  it('without allow_empty_topic_name the empty topic is written as the display name; with it as ""', async () => {
    const id = post(t, 'hamlet', 'Verona', '', 'x');
    await t.as('hamlet').patch(`/messages/${id}`, { topic: 'named' });
    const legacy = (await historyOf('hamlet', id)).snapshots;
    expect(legacy[0]!.topic).toBe('general chat');
    expect(legacy[1]!.prev_topic).toBe('general chat');
    const modern = (await historyOf('hamlet', id, { allow_empty_topic_name: true })).snapshots;
    expect(modern[0]!.topic).toBe('');
    expect(modern[1]!.prev_topic).toBe('');
  });

  it('direct messages have a history too', async () => {
    const id = dm(t, 'hamlet', ['othello'], 'psst');
    await t.as('hamlet').patch(`/messages/${id}`, { content: 'psst!' });
    const { snapshots } = await historyOf('othello', id);
    expect(snapshots.map((s) => s.content)).toEqual(['psst', 'psst!']);
  });

  it('message_edit_history_visibility_policy "none" refuses: "Message edit history is disabled in this organization"', async () => {
    realm(t, { message_edit_history_visibility_policy: 'none' });
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x');
    const { r } = await historyOf('hamlet', id);
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Message edit history is disabled in this organization' });
  });

  it('message_edit_history_visibility_policy "moves" hides content-only edits and content diffs', async () => {
    const topic = freshTopic();
    const id = post(t, 'hamlet', 'Verona', topic, 'one');
    await t.as('hamlet').patch(`/messages/${id}`, { content: 'two' });
    t.clock.advance(1000);
    await t.as('hamlet').patch(`/messages/${id}`, { topic: 'moved', content: 'three' });
    realm(t, { message_edit_history_visibility_policy: 'moves' });
    const { snapshots } = await historyOf('hamlet', id);
    expect(snapshots).toHaveLength(2);
    expect(snapshots[1]).toMatchObject({ prev_topic: topic, topic: 'moved' });
    expect(snapshots[1]).not.toHaveProperty('prev_content');
    expect(snapshots[1]).not.toHaveProperty('content_html_diff');
  });

  it('a message the user cannot access is "Invalid message(s)"', async () => {
    const id = dm(t, 'hamlet', ['othello'], 'secret');
    const { r } = await historyOf('cordelia', id);
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid message(s)' });
    expect((await historyOf('cordelia', 999999)).r.json.msg).toBe('Invalid message(s)');
  });
});
