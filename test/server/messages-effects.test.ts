/**
 * POST /messages (docs/zulip-behaviour.md "POST /messages"), what a sent message does: the sender's and recipients' flags, mention
 * permissions, message events (local echo, per-queue shapes), channel bookkeeping and automatic
 * topic visibility. Addressing, topics and content are in messages-send.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRealm, type RealmSettings } from '../../server/model/realm.js';
import { topicKey } from '../../common/topic-key.js';
import { setGroupPermission } from '../../server/model/user-groups.js';
import { setUserSetting } from '../../server/model/user-settings.js';
import { startTestServer, withRealm as withRealmOn, type TestServer } from './harness.js';
import { channelId, openQueue, uniqueTopic, fetchMessageAs, sendAs } from './messages-util.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const withRealm = (changes: Partial<RealmSettings>, fn: () => Promise<void>) => withRealmOn(t, changes, fn);

const send = (who: string, params: Record<string, unknown>) => sendAs(t, who, params);
const fetchOne = (who: string, id: number, extra: Record<string, boolean> = {}) => fetchMessageAs(t, who, id, extra);

describe('POST /messages: flags and recipients', () => {
  it("the sender's own message starts read", async () => {
    const r = await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic: uniqueTopic(), content: 'x' });
    expect((await fetchOne('hamlet', r.json.id as number)).flags).toEqual(['read']);
  });

  it('read_by_sender false leaves it unread for the sender', async () => {
    const r = await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic: uniqueTopic(), content: 'x', read_by_sender: false });
    expect((await fetchOne('hamlet', r.json.id as number)).flags).toEqual([]);
  });

  it('channel subscribers receive the message unread', async () => {
    const r = await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic: uniqueTopic(), content: 'x' });
    expect((await fetchOne('othello', r.json.id as number)).flags).toEqual([]);
  });

  it('a non-subscriber reading a public channel sees read + historical', async () => {
    const r = await send('iago', { type: 'stream', to: channelId(t, 'Scotland'), topic: uniqueTopic(), content: 'x' });
    expect((await fetchOne('hamlet', r.json.id as number)).flags).toEqual(['read', 'historical']);
  });

  it('a non-subscribed sender gets no user_messages row for a channel message (Zulip)', async () => {
    const r = await send('cordelia', { type: 'stream', to: channelId(t, 'Scotland'), topic: uniqueTopic(), content: 'x' });
    expect((await fetchOne('cordelia', r.json.id as number)).flags).toEqual(['read', 'historical']);
  });

  it('direct-message participants (including the sender) receive it', async () => {
    const r = await send('hamlet', { type: 'direct', to: [t.userId('othello'), t.userId('cordelia')], content: 'x' });
    const id = r.json.id as number;
    expect((await fetchOne('othello', id)).flags).toEqual([]);
    expect((await fetchOne('cordelia', id)).flags).toEqual([]);
    expect((await fetchOne('hamlet', id)).flags).toEqual(['read']);
    const outsider = await t.as('iago').get(`/messages/${id}`);
    expect(outsider.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid message(s)' });
  });

  it('a direct mention sets mentioned for that recipient only', async () => {
    const r = await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic: uniqueTopic(), content: 'hi @**Othello, the Moor of Venice**' });
    const id = r.json.id as number;
    expect((await fetchOne('othello', id)).flags).toEqual(['mentioned']);
    expect((await fetchOne('cordelia', id)).flags).toEqual([]);
  });

  it('a silent mention sets no flag', async () => {
    const r = await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic: uniqueTopic(), content: 'hi @_**Othello, the Moor of Venice**' });
    expect((await fetchOne('othello', r.json.id as number)).flags).toEqual([]);
  });

  it('a group mention sets mentioned for its members (subgroups included)', async () => {
    const r = await send('iago', { type: 'stream', to: channelId(t, 'Verona'), topic: uniqueTopic(), content: 'hey @*players*' });
    const id = r.json.id as number;
    expect((await fetchOne('othello', id)).flags).toContain('mentioned');
    expect((await fetchOne('cordelia', id)).flags).toContain('mentioned');
    expect((await fetchOne('shiva', id)).flags).not.toContain('mentioned');
  });

  it('a channel wildcard sets stream_wildcard_mentioned and the deprecated wildcard_mentioned for everyone', async () => {
    const r = await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic: uniqueTopic(), content: '@**all** meeting' });
    expect((await fetchOne('othello', r.json.id as number)).flags).toEqual(['stream_wildcard_mentioned', 'wildcard_mentioned']);
  });

  it('a topic wildcard sets topic_wildcard_mentioned only for topic participants', async () => {
    const topic = uniqueTopic('participants');
    const to = channelId(t, 'Verona');
    await send('othello', { type: 'stream', to, topic, content: 'I was here' });
    const r = await send('hamlet', { type: 'stream', to, topic, content: '@**topic** ping' });
    const id = r.json.id as number;
    expect((await fetchOne('othello', id)).flags).toEqual(['topic_wildcard_mentioned', 'wildcard_mentioned']);
    expect((await fetchOne('cordelia', id)).flags).toEqual([]);
  });

  it('a mention inside a code block or quote does not notify', async () => {
    const r = await send('hamlet', {
      type: 'stream',
      to: channelId(t, 'Verona'),
      topic: uniqueTopic(),
      content: '`@**Othello, the Moor of Venice**`\n\n> @**Othello, the Moor of Venice**',
    });
    expect((await fetchOne('othello', r.json.id as number)).flags).toEqual([]);
  });
});

describe('POST /messages: mention permissions', () => {
  it('a channel wildcard in a channel above wildcard_mention_threshold needs can_mention_many_users_group', async () => {
    await withRealm({ wildcard_mention_threshold: 3 }, async () => {
      const r = await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic: uniqueTopic(), content: '@**all** hi' });
      expect(r.status).toBe(400);
      expect(r.json.code).toBe('STREAM_WILDCARD_MENTION_NOT_ALLOWED');
      const admin = await send('iago', { type: 'stream', to: channelId(t, 'Verona'), topic: uniqueTopic(), content: '@**all** hi' });
      expect(admin.status).toBe(200);
    });
  });

  it('a channel wildcard at or below the threshold is allowed for members', async () => {
    await withRealm({ wildcard_mention_threshold: 3 }, async () => {
      const r = await send('othello', { type: 'stream', to: channelId(t, 'Scotland'), topic: uniqueTopic(), content: '@**everyone** hi' });
      expect(r.status).toBe(200);
    });
  });

  it('a silent channel wildcard is never restricted', async () => {
    await withRealm({ wildcard_mention_threshold: 1 }, async () => {
      const r = await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic: uniqueTopic(), content: '@_**all** hi' });
      expect(r.status).toBe(200);
    });
  });

  it('a topic wildcard in a topic with more participants than the threshold is TOPIC_WILDCARD_MENTION_NOT_ALLOWED', async () => {
    const topic = uniqueTopic('busy');
    const to = channelId(t, 'Verona');
    for (const who of ['othello', 'cordelia', 'shiva']) await send(who, { type: 'stream', to, topic, content: 'me too' });
    await withRealm({ wildcard_mention_threshold: 2 }, async () => {
      const r = await send('hamlet', { type: 'stream', to, topic, content: '@**topic** hi' });
      expect(r.json.code).toBe('TOPIC_WILDCARD_MENTION_NOT_ALLOWED');
      const fresh = await send('hamlet', { type: 'stream', to, topic: uniqueTopic(), content: '@**topic** hi' });
      expect(fresh.status).toBe(200);
    });
  });

  it("mentioning a group the sender may not mention (can_mention_group) is rejected; silently is fine", async () => {
    const gid = t.server.state.db.prepare("SELECT id FROM user_groups WHERE name = 'leads'").pluck().get() as number;
    const nobody = t.server.state.db.prepare("SELECT id FROM user_groups WHERE name = 'role:nobody'").pluck().get() as number;
    setGroupPermission(t.server.state, gid, 'can_mention_group', nobody);
    try {
      const r = await send('cordelia', { type: 'stream', to: channelId(t, 'Verona'), topic: uniqueTopic(), content: '@*leads* hi' });
      expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: "You are not allowed to mention user group 'leads'." });
      const silent = await send('cordelia', { type: 'stream', to: channelId(t, 'Verona'), topic: uniqueTopic(), content: '@_*leads* hi' });
      expect(silent.status).toBe(200);
    } finally {
      setGroupPermission(t.server.state, gid, 'can_mention_group', { direct_members: [], direct_subgroups: [t.server.state.db.prepare("SELECT id FROM user_groups WHERE name = 'role:everyone'").pluck().get() as number] });
    }
  });

  it('wildcards in direct messages are not restricted', async () => {
    await withRealm({ wildcard_mention_threshold: 0 }, async () => {
      const r = await send('hamlet', { type: 'direct', to: [t.userId('othello')], content: '@**all** hi' });
      expect(r.status).toBe(200);
    });
  });
});

describe('POST /messages: events', () => {
  it('every recipient gets a message event with their own flags', async () => {
    const qo = openQueue(t, 'othello');
    const qc = openQueue(t, 'cordelia');
    const r = await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic: uniqueTopic(), content: 'hi @**Othello, the Moor of Venice**' });
    const [eo] = await qo.ofType('message');
    const [ec] = await qc.ofType('message');
    expect(eo).toMatchObject({ type: 'message', flags: ['mentioned'], message: { id: r.json.id, sender_id: t.userId('hamlet') } });
    expect(ec).toMatchObject({ type: 'message', flags: [], message: { id: r.json.id } });
    expect((eo!.message as Record<string, unknown>).flags).toBeUndefined();
  });

  it("the sender's queue gets its own message, read, and non-recipients get nothing", async () => {
    const qh = openQueue(t, 'hamlet');
    const qp = openQueue(t, 'polonius');
    await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic: uniqueTopic(), content: 'x' });
    expect((await qh.ofType('message'))[0]).toMatchObject({ flags: ['read'] });
    expect(await qp.ofType('message')).toEqual([]);
  });

  it('queue_id + local_id: the sending queue gets local_message_id, other queues do not', async () => {
    const q1 = openQueue(t, 'hamlet');
    const q2 = openQueue(t, 'hamlet');
    const r = await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic: uniqueTopic(), content: 'x', queue_id: q1.id, local_id: '100.01' });
    expect(r.status).toBe(200);
    expect((await q1.ofType('message'))[0]).toMatchObject({ local_message_id: '100.01' });
    expect((await q2.ofType('message'))[0]!.local_message_id).toBeUndefined();
    expect((await q1.ofType('message'))[0]!.local_id).toBeUndefined();
  });

  it('queue_id without local_id is rejected', async () => {
    const r = await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic: 'x', content: 'x', queue_id: 'abc' });
    expect(r.json).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'local_id' });
  });

  it('events are shaped per queue: apply_markdown, client_gravatar, empty_topic_name', async () => {
    const plain = openQueue(t, 'othello', { applyMarkdown: false, clientGravatar: true, capabilities: {} });
    const html = openQueue(t, 'othello', { applyMarkdown: true, clientGravatar: false, capabilities: { empty_topic_name: true } });
    await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic: '', content: '*hi*' });
    const p = (await plain.ofType('message'))[0]!.message as Record<string, unknown>;
    const h = (await html.ofType('message'))[0]!.message as Record<string, unknown>;
    expect(p).toMatchObject({ content: '*hi*', content_type: 'text/x-markdown', avatar_url: null, subject: getRealm(t.server.state).empty_topic_display_name });
    expect(h).toMatchObject({ content: '<p><em>hi</em></p>', content_type: 'text/html', subject: '' });
    expect(typeof h.avatar_url).toBe('string');
  });

  it("register's narrow filters message events", async () => {
    const q = openQueue(t, 'othello', { narrow: [['stream', 'Denmark']] });
    const qAll = openQueue(t, 'othello');
    await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic: uniqueTopic(), content: 'verona' });
    expect(await q.ofType('message')).toEqual([]);
    expect(await qAll.ofType('message')).toHaveLength(1);
  });

  it('all_public_streams queues get public channel messages they did not receive, with no flags', async () => {
    const q = openQueue(t, 'othello', { allPublicStreams: true });
    await send('iago', { type: 'stream', to: channelId(t, 'Denmark'), topic: uniqueTopic(), content: 'x' });
    expect((await q.ofType('message'))[0]).toMatchObject({ flags: [] });
  });
});

describe('POST /messages: channel bookkeeping', () => {
  it("the first message of a channel sets first_message_id and announces it", async () => {
    const db = t.server.state.db;
    db.prepare("INSERT INTO recipients (type) VALUES ('channel')").run();
    const rid = db.prepare('SELECT MAX(id) FROM recipients').pluck().get() as number;
    db.prepare("INSERT INTO channels (name, date_created, recipient_id) VALUES ('fresh', 0, ?)").run(rid);
    const cid = db.prepare("SELECT id FROM channels WHERE name = 'fresh'").pluck().get() as number;
    db.prepare('UPDATE recipients SET channel_id = ? WHERE id = ?').run(cid, rid);
    const q = openQueue(t, 'cordelia');
    const r = await send('hamlet', { type: 'stream', to: cid, topic: 'first', content: 'first!' });
    expect(db.prepare('SELECT first_message_id FROM channels WHERE id = ?').pluck().get(cid)).toBe(r.json.id);
    expect(await q.ofType('stream')).toEqual([expect.objectContaining({ op: 'update', stream_id: cid, property: 'first_message_id', value: r.json.id })]);
    await send('hamlet', { type: 'stream', to: cid, topic: 'first', content: 'second' });
    expect(db.prepare('SELECT first_message_id FROM channels WHERE id = ?').pluck().get(cid)).toBe(r.json.id);
  });

  it('sent messages are full-text indexed', async () => {
    await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic: uniqueTopic(), content: 'xylophonist extraordinaire' });
    const r = await t.as('hamlet').get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'search', operand: 'xylophonist' }] });
    expect((r.json.messages as unknown[]).length).toBe(1);
  });
});

describe('POST /messages: automatic topic visibility (Zulip defaults)', () => {
  const policyOf = (who: string, channel: string, topic: string) =>
    t.server.state.db.prepare('SELECT visibility_policy FROM user_topics WHERE user_id = ? AND channel_id = ? AND topic = ?').pluck().get(t.userId(who), channelId(t, channel), topic);

  it('starting a topic follows it (automatically_follow_topics_policy 3) and says so in the response', async () => {
    const topic = uniqueTopic('started');
    const q = openQueue(t, 'cordelia');
    const r = await send('cordelia', { type: 'stream', to: channelId(t, 'Verona'), topic, content: 'first' });
    expect(r.json.automatic_new_visibility_policy).toBe(3);
    expect(policyOf('cordelia', 'Verona', topic)).toBe(3);
    expect(await q.ofType('user_topic')).toEqual([expect.objectContaining({ stream_id: channelId(t, 'Verona'), topic_name: topic, visibility_policy: 3 })]);
    const again = await send('cordelia', { type: 'stream', to: channelId(t, 'Verona'), topic, content: 'second' });
    expect(again.json).not.toHaveProperty('automatic_new_visibility_policy');
  });

  it('replying in a topic someone else started changes nothing by default', async () => {
    const topic = uniqueTopic('reply');
    await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic, content: 'first' });
    const r = await send('cordelia', { type: 'stream', to: channelId(t, 'Verona'), topic, content: 'reply' });
    expect(r.json).not.toHaveProperty('automatic_new_visibility_policy');
    expect(policyOf('cordelia', 'Verona', topic)).toBeUndefined();
  });

  it('policy 2 (topics the user sends to) follows on every send; 4 (never) does not', async () => {
    const topic = uniqueTopic('send');
    await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic, content: 'first' });
    setUserSetting(t.server.state, t.userId('shiva'), 'automatically_follow_topics_policy', 2);
    setUserSetting(t.server.state, t.userId('othello'), 'automatically_follow_topics_policy', 4);
    try {
      expect((await send('shiva', { type: 'stream', to: channelId(t, 'Verona'), topic, content: 'me' })).json.automatic_new_visibility_policy).toBe(3);
      expect((await send('othello', { type: 'stream', to: channelId(t, 'Verona'), topic: uniqueTopic(), content: 'me' })).json).not.toHaveProperty('automatic_new_visibility_policy');
    } finally {
      setUserSetting(t.server.state, t.userId('shiva'), 'automatically_follow_topics_policy', 3);
      setUserSetting(t.server.state, t.userId('othello'), 'automatically_follow_topics_policy', 3);
    }
  });

  it('sending in a muted channel unmutes the topic (automatically_unmute_topics_in_muted_streams_policy 2)', async () => {
    const topic = uniqueTopic('muted channel');
    const db = t.server.state.db;
    await send('iago', { type: 'stream', to: channelId(t, 'Denmark'), topic, content: 'first' });
    db.prepare('UPDATE subscriptions SET is_muted = 1 WHERE user_id = ? AND channel_id = ?').run(t.userId('cordelia'), channelId(t, 'Denmark'));
    try {
      const r = await send('cordelia', { type: 'stream', to: channelId(t, 'Denmark'), topic, content: 'reply' });
      expect(r.json.automatic_new_visibility_policy).toBe(2);
      expect(policyOf('cordelia', 'Denmark', topic)).toBe(2);
    } finally {
      db.prepare('UPDATE subscriptions SET is_muted = 0 WHERE user_id = ? AND channel_id = ?').run(t.userId('cordelia'), channelId(t, 'Denmark'));
    }
  });

  it('recipients mentioned personally follow the topic unless they muted it', async () => {
    const topic = uniqueTopic('mentioned');
    const db = t.server.state.db;
    db.prepare('INSERT INTO user_topics (user_id, channel_id, topic, topic_key, visibility_policy, last_updated) VALUES (?, ?, ?, ?, 1, 0)').run(t.userId('shiva'), channelId(t, 'Verona'), topic, topicKey(topic));
    await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic, content: '@**Othello, the Moor of Venice** @**Shiva** look' });
    expect(policyOf('othello', 'Verona', topic)).toBe(3);
    expect(policyOf('shiva', 'Verona', topic)).toBe(1);
  });

  it('direct messages change no topic visibility', async () => {
    const r = await send('hamlet', { type: 'direct', to: [t.userId('othello')], content: 'dm' });
    expect(r.json).not.toHaveProperty('automatic_new_visibility_policy');
  });
});
