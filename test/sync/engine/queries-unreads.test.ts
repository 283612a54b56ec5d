/**
 * `unreadCounts` and `dmConversations` against the reference server, with a cache that holds only
 * the newest few messages (backfill depth 3): counts and conversations the cache cannot give come
 * from what register said (`unread_msgs`, `starred_messages`, `recent_private_conversations`),
 * kept current by events, with the outbox's pending reads on top. Expected values are computed
 * here from the server's own answers, by Zulip's rules (muted topics and channels leave "all
 * unread"; DMs always count).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topicKey } from '../../../sync/api/index.js';
import { getStoredMessage, storedMessageCount } from '../../../sync/db/queries/messages.js';
import type { AccountSession } from '../../../sync/engine/session.js';
import { markTopicRead } from '../../../sync/outbox/mutations/mark-topic-read.js';
import { messageFlags } from '../../../sync/outbox/mutations/message-flags.js';
import { queries } from '../../../sync/protocol/index.js';
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

interface ServerState {
  unread_msgs: {
    streams: Array<{ stream_id: number; topic: string; unread_message_ids: number[] }>;
    pms: Array<{ other_user_id: number; unread_message_ids: number[] }>;
    huddles: Array<{ user_ids_string: string; unread_message_ids: number[] }>;
    mentions: number[];
  };
  starred_messages: number[];
  recent_private_conversations: Array<{ max_message_id: number; user_ids: number[] }>;
  subscriptions: Array<{ stream_id: number; is_muted: boolean }>;
  user_topics: Array<{ stream_id: number; topic_name: string; visibility_policy: number }>;
}

async function serverState(who: string): Promise<ServerState> {
  const r = await t.as(who).post('/register', {
    fetch_event_types: ['message', 'update_message_flags', 'starred_messages', 'recent_private_conversations', 'subscription', 'user_topic'],
    event_types: ['heartbeat'],
    apply_markdown: false,
  });
  expect(r.status).toBe(200);
  return r.json as unknown as ServerState;
}

const dmKey = (ids: readonly number[], self: number) => [...new Set([...ids, self])].sort((a, b) => a - b).join(',');

/** The counts by Zulip's rules, from the server's own state. */
function expectedCounts(s: ServerState, self: number) {
  const subs = new Map(s.subscriptions.map((x) => [x.stream_id, x.is_muted]));
  const policy = new Map(s.user_topics.map((u) => [`${u.stream_id}:${topicKey(u.topic_name)}`, u.visibility_policy]));
  const topics = new Map<string, number>();
  let total = 0;
  let followed = 0;
  for (const st of s.unread_msgs.streams) {
    const key = `${st.stream_id}:${topicKey(st.topic)}`;
    topics.set(key, (topics.get(key) ?? 0) + st.unread_message_ids.length);
    const p = policy.get(key) ?? 0;
    const muted = p === 1 || (subs.get(st.stream_id) === true && p !== 2 && p !== 3);
    if (!muted) total += st.unread_message_ids.length;
    if (p === 3) followed += st.unread_message_ids.length;
  }
  const dms = new Map<string, number>();
  for (const p of s.unread_msgs.pms) dms.set(dmKey([p.other_user_id], self), p.unread_message_ids.length);
  for (const h of s.unread_msgs.huddles) dms.set(dmKey(h.user_ids_string.split(',').map(Number), self), h.unread_message_ids.length);
  for (const n of dms.values()) total += n;
  return { total, followed, starred: s.starred_messages.length, mentions: s.unread_msgs.mentions.length, topics, dms };
}

function actualCounts(s: AccountSession) {
  const u = queries.unreadCounts.response.parse(s.queries.unreadCounts());
  return {
    total: u.total,
    followed: u.followed,
    starred: u.starred,
    mentions: u.mentions,
    topics: new Map(u.topics.map((x) => [`${x.channel_id}:${topicKey(x.topic)}`, x.count])),
    dms: new Map(u.dms.map((d) => [d.key, d.count])),
    complete: u.complete,
  };
}

async function liveSession(who = 'hamlet'): Promise<{ s: AccountSession; dir: string }> {
  const d = tempDir();
  cleanups.push(d.cleanup);
  const s = openSession(t, d.dir, who, { backfillDepth: 3 });
  s.start();
  await until(() => s.status.state === 'live', 10_000, 'live');
  return { s, dir: d.dir };
}

describe('unreadCounts', () => {
  it('counts unread messages the cache does not hold, as the server states them', async () => {
    const { s } = await liveSession();
    const self = t.userId('hamlet');
    const server = await serverState('hamlet');
    const uncached = [...server.unread_msgs.streams.flatMap((x) => x.unread_message_ids), ...server.starred_messages].filter((id) => getStoredMessage(s.db, id) === undefined);
    // The point of the test: most of these are not cached.
    expect(storedMessageCount(s.db)).toBeLessThanOrEqual(3);
    expect(uncached.length).toBeGreaterThan(3);
    const want = expectedCounts(server, self);
    const got = actualCounts(s);
    expect(got).toEqual({ ...want, complete: true });
    expect(want.total).toBeGreaterThan(0);
    expect(want.starred).toBeGreaterThan(0);
    await s.close();
  });

  it('follows events for messages not cached: read, unread again, starred, new DMs', async () => {
    const { s } = await liveSession();
    const self = t.userId('hamlet');
    const before = actualCounts(s);
    const server = await serverState('hamlet');
    const stream = server.unread_msgs.streams.find((x) => x.unread_message_ids.some((id) => getStoredMessage(s.db, id) === undefined))!;
    const id = stream.unread_message_ids.find((m) => getStoredMessage(s.db, m) === undefined)!;
    const key = `${stream.stream_id}:${topicKey(stream.topic)}`;

    await t.as('hamlet').post('/messages/flags', { messages: [id], op: 'add', flag: 'read' });
    await until(() => actualCounts(s).topics.get(key) === (before.topics.get(key) ?? 0) - 1, 10_000, 'read elsewhere');
    expect(actualCounts(s).total).toBe(before.total - 1);

    // Unread again: the event's message_details put it back in its topic (still not cached, or fetched).
    await t.as('hamlet').post('/messages/flags', { messages: [id], op: 'remove', flag: 'read' });
    await until(() => actualCounts(s).topics.get(key) === before.topics.get(key), 10_000, 'unread again');

    const notStarred = stream.unread_message_ids.find((m) => !server.starred_messages.includes(m))!;
    await t.as('hamlet').post('/messages/flags', { messages: [notStarred], op: 'add', flag: 'starred' });
    await until(() => actualCounts(s).starred === before.starred + 1, 10_000, 'starred elsewhere');

    // Deleted while not cached: it leaves the counts (unread and starred).
    const doomed = server.unread_msgs.streams.flatMap((x) => x.unread_message_ids).find((m) => m !== id && m !== notStarred && getStoredMessage(s.db, m) === undefined)!;
    const beforeDelete = actualCounts(s).total;
    expect((await t.as('desdemona').delete(`/messages/${doomed}`)).status).toBe(200);
    await until(() => actualCounts(s).total === beforeDelete - 1, 10_000, 'the deletion');

    const dm = await t.as('othello').post('/messages', { type: 'direct', to: JSON.stringify([self]), content: 'psst' });
    expect(dm.status).toBe(200);
    const othelloKey = dmKey([t.userId('othello')], self);
    await until(() => actualCounts(s).dms.get(othelloKey) === (before.dms.get(othelloKey) ?? 0) + 1, 10_000, 'the new DM');
    // Everything still agrees with the server.
    const after = expectedCounts(await serverState('hamlet'), self);
    const { complete: _c, ...got } = actualCounts(s);
    expect(got).toEqual(after);
    await s.close();
  });

  it("pending reads count at once, the messages not cached included, until the server's events take over", async () => {
    const self = t.userId('hamlet');
    const verona = channelId(t, 'Verona');
    const post = async (topic: string) => (await t.as('othello').post('/messages', { type: 'channel', to: 'Verona', topic, content: 'x' })).json.id as number;
    const read = [await post('Äpfel pending'), await post('äpfel pending')];
    const otherId = await post('pending other');
    await post('pending other');
    // Newer messages fill the cache (depth 3): the ones above stay uncached, known from register only.
    for (let i = 0; i < 3; i++) await post('filler');
    const { s } = await liveSession();
    for (const id of [...read, otherId]) expect(getStoredMessage(s.db, id)).toBeUndefined();
    await s.stop(); // offline: the rows stay queued
    const before = actualCounts(s);
    const key = `${verona}:${topicKey('äpfel pending')}`;
    const otherKey = `${verona}:${topicKey('pending other')}`;
    expect(before.topics.get(key)).toBe(2);
    expect(before.topics.get(otherKey)).toBe(2);

    // Typed in another spelling: the topic is matched by its key.
    s.outbox.enqueue(markTopicRead, { stream_id: verona, topic_name: 'ÄPFEL PENDING' }, null);
    s.outbox.enqueue(messageFlags, { messages: [otherId], op: 'add' as const, flag: 'read' as const }, null);
    const pending = actualCounts(s);
    expect(pending.topics.get(key)).toBeUndefined();
    expect(pending.topics.get(otherKey)).toBe(1);
    expect(pending.total).toBe(before.total - 3);

    s.start();
    await until(() => s.outbox.counts().pending === 0, 10_000, 'the reads sent');
    await until(() => s.status.state === 'live', 10_000, 'live');
    const want = expectedCounts(await serverState('hamlet'), self);
    expect(want.topics.get(key)).toBeUndefined();
    await until(() => actualCounts(s).total === want.total, 10_000, 'the server agrees');
    const { complete: _c, ...got } = actualCounts(s);
    expect(got).toEqual(want);
    await s.close();
  });
});

describe('dmConversations', () => {
  it("lists the server's recent conversations (cached or not) newest first, with names and unread counts, and follows new ones", async () => {
    const { s } = await liveSession();
    const self = t.userId('hamlet');
    const server = await serverState('hamlet');
    const want = expectedCounts(server, self);
    const list = () => queries.dmConversations.response.parse(s.queries.dmConversations());
    const got = list();
    expect(got.map((c) => [c.key, c.max_message_id])).toEqual(server.recent_private_conversations.map((c) => [dmKey(c.user_ids, self), c.max_message_id]));
    for (const c of got) {
      expect(c.user_ids.join(',')).toBe(c.key);
      expect(c.unread_count).toBe(want.dms.get(c.key) ?? 0);
      const cached = getStoredMessage(s.db, c.max_message_id);
      expect(c.last_message_timestamp).toBe(cached ? cached.timestamp : null);
      const others = c.user_ids.filter((id) => id !== self);
      expect(c.participants.map((p) => p.user_id)).toEqual(others.length > 0 ? others : [self]);
      for (const p of c.participants) expect(p.full_name).toBe(s.queries.users().find((u) => u.user_id === p.user_id)?.full_name);
    }
    // Not every conversation is cached, yet every one is listed.
    expect(got.some((c) => c.last_message_timestamp === null)).toBe(true);

    const cordelia = t.userId('cordelia');
    const sent = await t.as('cordelia').post('/messages', { type: 'direct', to: JSON.stringify([self, t.userId('iago')]), content: 'a new group' });
    expect(sent.status).toBe(200);
    const key = dmKey([cordelia, t.userId('iago')], self);
    await until(() => list()[0]?.key === key, 10_000, 'the new conversation first');
    expect(list()[0]).toMatchObject({ key, max_message_id: sent.json.id, unread_count: 1 });
    expect(list()[0]!.last_message_timestamp).toEqual(expect.any(Number));
    await s.close();
  });
});
