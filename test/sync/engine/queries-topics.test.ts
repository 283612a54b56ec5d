/**
 * `channelTopics` against the reference server: the complete topic list of a channel, fetched
 * from `GET /users/me/{stream_id}/topics` when online, stored so it answers offline, merged with
 * the cache (new topics appear at once), made stale by moves (and refetched), with unread counts,
 * preferences and the resolved flag; and topics compared as the server compares them (Äpfel =
 * äpfel, ß ≠ SS) in topic lists and narrows alike. The cache holds only the newest few messages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topicKey } from '../../../sync/api/index.js';
import { getStoredMessage } from '../../../sync/db/queries/messages.js';
import { topicListState } from '../../../sync/db/queries/server-topics.js';
import type { StoreArea } from '../../../sync/db/changes.js';
import { compileLocalNarrow } from '../../../sync/db/narrow/compile.js';
import type { AccountSession } from '../../../sync/engine/session.js';
import { queries, type ChannelTopicsView } from '../../../sync/protocol/index.js';
import { channelId, startTestServer, type TestServer } from '../../server/harness.js';
import { openSession, tempDir, until } from './session-helpers.js';

let t: TestServer;
const cleanups: Array<() => void> = [];
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
  for (const c of cleanups) c();
});

function newDir(): string {
  const d = tempDir();
  cleanups.push(d.cleanup);
  return d.dir;
}

async function serverTopics(channel: number): Promise<Array<{ name: string; max_id: number }>> {
  const r = await t.as('hamlet').get(`/users/me/${channel}/topics`, { allow_empty_topic_name: true });
  expect(r.status).toBe(200);
  return r.json.topics as Array<{ name: string; max_id: number }>;
}

async function serverUnreadByTopic(): Promise<Map<string, number>> {
  const r = await t.as('hamlet').post('/register', { fetch_event_types: ['message', 'update_message_flags'], event_types: ['heartbeat'] });
  const out = new Map<string, number>();
  for (const s of (r.json.unread_msgs as { streams: Array<{ stream_id: number; topic: string; unread_message_ids: number[] }> }).streams) {
    out.set(`${s.stream_id}:${topicKey(s.topic)}`, s.unread_message_ids.length);
  }
  return out;
}

const post = async (who: string, channel: string, topic: string) => {
  const r = await t.as(who).post('/messages', { type: 'channel', to: channel, topic, content: `in ${topic}` });
  expect(r.status).toBe(200);
  return r.json.id as number;
};

const view = (s: AccountSession, channel: number): ChannelTopicsView => queries.channelTopics.response.parse(s.queries.channelTopics(channel));

async function completeView(s: AccountSession, channel: number, also: (v: ChannelTopicsView) => boolean = () => true): Promise<ChannelTopicsView> {
  let v = view(s, channel);
  await until(() => (v = view(s, channel)).complete && also(v), 10_000, `the topic list of channel ${channel}`);
  return v;
}

describe('channelTopics', () => {
  it('fetches the complete list when online, stores it, and answers offline', async () => {
    const verona = channelId(t, 'Verona');
    // A resolved topic the cache will not hold (older than the newest 3 messages).
    const resolvedId = await post('othello', 'Verona', 'to resolve');
    expect((await t.as('iago').patch(`/messages/${resolvedId}`, { topic: '✔ to resolve', propagate_mode: 'change_all' })).status).toBe(200);
    for (let i = 0; i < 3; i++) await post('othello', 'general', 'filler');

    const dir = newDir();
    const s = openSession(t, dir, 'hamlet', { backfillDepth: 3 });
    // Never synced, offline: nothing known, not complete.
    expect(view(s, verona)).toEqual({ channel_id: verona, complete: false, fetched_at: null, topics: [] });
    const areas = new Set<StoreArea>();
    s.onChanges((c) => c.areas.forEach((a) => areas.add(a)));
    s.start();
    await until(() => s.status.state === 'live', 10_000, 'live');
    const unread = await serverUnreadByTopic();
    const channels = ['general', 'Verona', 'Denmark', 'core team'].map((n) => channelId(t, n));
    for (const c of channels) {
      const v = await completeView(s, c);
      const server = await serverTopics(c);
      expect(server.length).toBeGreaterThan(0);
      // Exactly the server's topics, newest first, with each one's newest message.
      expect(v.topics.map((x) => [x.topic, x.max_message_id])).toEqual(server.map((x) => [x.name, x.max_id]));
      for (const x of v.topics) {
        expect(x.unread_count).toBe(unread.get(`${c}:${topicKey(x.topic)}`) ?? 0);
        expect(x.resolved).toBe(x.topic.startsWith('✔ '));
      }
      expect(v.fetched_at).toEqual(expect.any(Number));
    }
    expect(areas.has('channel_topics')).toBe(true);
    const general = view(s, channelId(t, 'general'));
    expect(general.topics.find((x) => x.topic === 'lunch plans')?.visibility_policy).toBe(1);
    // Resolving posts a notice in the topic, so its newest message is that notice or the message.
    const resolved = view(s, verona).topics.find((x) => x.topic === '✔ to resolve');
    expect(resolved?.resolved).toBe(true);
    expect(resolved?.max_message_id).toBeGreaterThanOrEqual(resolvedId);
    const online = view(s, verona);
    await s.close();

    // Reopened without the network: the stored list answers, complete.
    const offline = openSession(t, dir, 'hamlet', { backfillDepth: 3 });
    expect(view(offline, verona)).toEqual(online);

    // A lost queue: events may have been missed, so every stored list is stale until refetched.
    t.clock.advance(700_000);
    offline.start();
    await until(() => offline.status.state === 'live', 10_000, 'live again');
    expect(channels.map((c) => topicListState(offline.db, c).current)).toEqual(channels.map(() => false));
    expect(view(offline, verona).complete).toBe(false);
    expect((await completeView(offline, verona)).topics).toEqual(online.topics);
    await offline.close();
  });

  it('new topics appear at once; a move makes the list stale until it is fetched again', async () => {
    const verona = channelId(t, 'Verona');
    const s = openSession(t, newDir(), 'hamlet', { backfillDepth: 3 });
    s.start();
    await until(() => s.status.state === 'live', 10_000, 'live');
    await completeView(s, verona);

    const id = await post('othello', 'Verona', 'brand new');
    const fresh = await completeView(s, verona, (v) => v.topics[0]?.topic === 'brand new');
    expect(fresh.topics[0]).toMatchObject({ topic: 'brand new', max_message_id: id, unread_count: 1, visibility_policy: 0, resolved: false });

    expect((await t.as('iago').patch(`/messages/${id}`, { topic: 'renamed', propagate_mode: 'change_all' })).status).toBe(200);
    await until(() => getStoredMessage(s.db, id)?.subject === 'renamed', 10_000, 'the move event');
    // Nothing has asked for the list since the event: it is marked stale, not yet refetched.
    expect(topicListState(s.db, verona).current).toBe(false);
    const moved = await completeView(s, verona, (v) => v.topics[0]?.topic === 'renamed');
    expect(moved.topics.map((x) => x.topic)).not.toContain('brand new');
    expect(moved.topics.map((x) => [x.topic, x.max_message_id])).toEqual((await serverTopics(verona)).map((x) => [x.name, x.max_id]));
    await s.close();
  });

  it('Äpfel and äpfel are one topic and ß and SS two, locally as on the server (lists and narrows)', async () => {
    const denmark = channelId(t, 'Denmark');
    const s = openSession(t, newDir(), 'hamlet', { backfillDepth: 3 });
    s.start();
    await until(() => s.status.state === 'live', 10_000, 'live');
    const ids = { Äpfel: await post('othello', 'Denmark', 'Äpfel'), äpfel: await post('iago', 'Denmark', 'äpfel'), ß: await post('othello', 'Denmark', 'ß'), SS: await post('iago', 'Denmark', 'SS') };
    const server = await serverTopics(denmark);
    const v = await completeView(s, denmark, (x) => x.topics.some((tp) => tp.max_message_id === ids.SS));
    expect(v.topics.map((x) => [topicKey(x.topic), x.max_message_id])).toEqual(server.map((x) => [topicKey(x.name), x.max_id]));
    const apples = v.topics.filter((x) => topicKey(x.topic) === 'äpfel');
    expect(apples).toEqual([expect.objectContaining({ max_message_id: ids.äpfel, unread_count: 2 })]);
    expect(v.topics.filter((x) => x.topic === 'ß' || x.topic === 'SS').map((x) => x.unread_count)).toEqual([1, 1]);

    // Narrows: the same messages locally (all cached: they arrived as events) and on the server.
    const self = t.userId('hamlet');
    for (const topic of ['ÄPFEL', 'ß', 'ss']) {
      const narrow = [{ operator: 'channel', operand: denmark }, { operator: 'topic', operand: topic }];
      const n = compileLocalNarrow(s.db, narrow, self);
      const local = s.db.prepare(`SELECT m.id FROM messages m WHERE ${n.where} ORDER BY m.id`).pluck().all(...n.params);
      const remote = await t.as('hamlet').get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow });
      expect(local).toEqual((remote.json.messages as Array<{ id: number }>).map((m) => m.id));
      expect(local.length).toBeGreaterThan(0);
    }
    await s.close();
  });
});
