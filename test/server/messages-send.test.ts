/**
 * POST /messages (docs/zulip-behaviour.md "POST /messages"; spec conventions 5 and 7): addressing, topics and content. What a sent
 * message does (flags, events, permissions) is in messages-effects.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRealm, type RealmSettings } from '../../server/model/realm.js';
import { startTestServer, withRealm as withRealmOn, type TestServer } from './harness.js';
import { channelId, uniqueTopic, fetchMessageAs, sendAs } from './messages-util.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const withRealm = (changes: Partial<RealmSettings>, fn: () => Promise<void>) => withRealmOn(t, changes, fn);

const send = (who: string, params: Record<string, unknown>) => sendAs(t, who, params);
const fetchOne = (who: string, id: number, extra: Record<string, boolean> = {}) => fetchMessageAs(t, who, id, extra);

describe('POST /messages: addressing', () => {
  it('a channel message by channel id answers {id}', async () => {
    const r = await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic: uniqueTopic(), content: 'hello' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ result: 'success', msg: '' });
    expect(typeof r.json.id).toBe('number');
    expect(r.json.ignored_parameters_unsupported).toBeUndefined();
  });

  it('a channel may be named by its raw name', async () => {
    const r = await send('hamlet', { type: 'channel', to: 'Denmark', topic: uniqueTopic(), content: 'by name' });
    expect(r.status).toBe(200);
    expect(await fetchOne('hamlet', r.json.id as number)).toMatchObject({ type: 'stream', stream_id: channelId(t, 'Denmark'), display_recipient: 'Denmark' });
  });

  it('a channel may be given as a JSON string or one-element list (legacy)', async () => {
    const a = await send('hamlet', { type: 'stream', to: JSON.stringify('Denmark'), topic: uniqueTopic(), content: 'x' });
    const b = await send('hamlet', { type: 'stream', to: [channelId(t, 'Denmark')], topic: uniqueTopic(), content: 'x' });
    expect([a.status, b.status]).toEqual([200, 200]);
  });

  it('type "channel" and "stream" both send channel messages', async () => {
    for (const type of ['channel', 'stream']) {
      const r = await send('hamlet', { type, to: channelId(t, 'Verona'), topic: uniqueTopic(), content: type });
      expect(r.status).toBe(200);
    }
  });

  it('type "direct" and "private" send direct messages to a JSON list of user ids', async () => {
    for (const type of ['direct', 'private']) {
      const r = await send('hamlet', { type, to: [t.userId('othello')], content: `dm ${type}` });
      expect(r.status).toBe(200);
      const m = await fetchOne('othello', r.json.id as number);
      expect(m).toMatchObject({ type: 'private', subject: '' });
      expect((m.display_recipient as Array<{ id: number }>).map((u) => u.id).sort()).toEqual([t.userId('hamlet'), t.userId('othello')].sort());
    }
  });

  it('direct-message recipients may be a JSON list of emails or a comma-separated string', async () => {
    const a = await send('hamlet', { type: 'direct', to: ['othello@example.com', 'cordelia@example.com'], content: 'group' });
    const b = await send('hamlet', { type: 'direct', to: 'othello@example.com,cordelia@example.com', content: 'group 2' });
    expect([a.status, b.status]).toEqual([200, 200]);
    const ma = await fetchOne('cordelia', a.json.id as number);
    const mb = await fetchOne('cordelia', b.json.id as number);
    expect(ma.recipient_id).toBe(mb.recipient_id);
  });

  it('incoming and outgoing messages of one conversation share a recipient_id (FL 327)', async () => {
    const a = await send('hamlet', { type: 'direct', to: [t.userId('othello')], content: 'to othello' });
    const b = await send('othello', { type: 'direct', to: [t.userId('hamlet')], content: 'to hamlet' });
    expect((await fetchOne('hamlet', a.json.id as number)).recipient_id).toBe((await fetchOne('hamlet', b.json.id as number)).recipient_id);
  });

  it('an unknown channel id is STREAM_DOES_NOT_EXIST with stream_id', async () => {
    const r = await send('hamlet', { type: 'stream', to: 9999, topic: 'x', content: 'x' });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ result: 'error', code: 'STREAM_DOES_NOT_EXIST', stream_id: 9999 });
  });

  it('an unknown channel name is STREAM_DOES_NOT_EXIST with stream', async () => {
    const r = await send('hamlet', { type: 'stream', to: 'Atlantis', topic: 'x', content: 'x' });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', stream: 'Atlantis' });
  });

  it('an unknown user id or email is BAD_REQUEST', async () => {
    const a = await send('hamlet', { type: 'direct', to: [9999], content: 'x' });
    const b = await send('hamlet', { type: 'direct', to: ['nobody@example.com'], content: 'x' });
    expect(a.json).toMatchObject({ code: 'BAD_REQUEST' });
    expect(b.json).toMatchObject({ code: 'BAD_REQUEST', msg: "Invalid email 'nobody@example.com'" });
  });

  it('a deactivated recipient is rejected', async () => {
    const db = t.server.state.db;
    const id = t.userId('cordelia');
    db.prepare('UPDATE users SET is_active = 0 WHERE id = ?').run(id);
    try {
      const r = await send('hamlet', { type: 'direct', to: [id], content: 'x' });
      expect(r.status).toBe(400);
      expect(r.json.code).toBe('BAD_REQUEST');
    } finally {
      db.prepare('UPDATE users SET is_active = 1 WHERE id = ?').run(id);
    }
  });

  it('mixing user ids and emails is rejected', async () => {
    const r = await send('hamlet', { type: 'direct', to: [t.userId('othello'), 'cordelia@example.com'], content: 'x' });
    expect(r.json.code).toBe('BAD_REQUEST');
  });

  it('missing type, to or content is REQUEST_VARIABLE_MISSING', async () => {
    for (const [omit, params] of [
      ['type', { to: 1, topic: 'x', content: 'x' }],
      ['to', { type: 'stream', topic: 'x', content: 'x' }],
      ['content', { type: 'stream', to: 1, topic: 'x' }],
    ] as const) {
      const r = await send('hamlet', params);
      expect(r.json).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: omit });
    }
  });

  it('an unknown type is REQUEST_VARIABLE_INVALID', async () => {
    const r = await send('hamlet', { type: 'carrier-pigeon', to: 1, content: 'x' });
    expect(r.json.code).toBe('REQUEST_VARIABLE_INVALID');
  });

  it('a private channel the sender is not subscribed to refuses the message', async () => {
    const r = await send('othello', { type: 'stream', to: channelId(t, 'core team'), topic: 'x', content: 'x' });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: "Not authorized to send to channel 'core team'" });
  });

  it('a guest may not send to a public channel they are not subscribed to', async () => {
    const r = await send('polonius', { type: 'stream', to: channelId(t, 'Verona'), topic: 'x', content: 'x' });
    expect(r.json.code).toBe('BAD_REQUEST');
  });

  it('a member may send to a public channel they are not subscribed to', async () => {
    const r = await send('cordelia', { type: 'stream', to: channelId(t, 'Scotland'), topic: uniqueTopic(), content: 'visiting' });
    expect(r.status).toBe(200);
  });

  it('an archived channel refuses messages', async () => {
    const db = t.server.state.db;
    const id = channelId(t, 'Scotland');
    db.prepare('UPDATE channels SET is_archived = 1 WHERE id = ?').run(id);
    try {
      const r = await send('iago', { type: 'stream', to: id, topic: 'x', content: 'x' });
      expect(r.json.code).toBe('BAD_REQUEST');
    } finally {
      db.prepare('UPDATE channels SET is_archived = 0 WHERE id = ?').run(id);
    }
  });
});

describe('POST /messages: topics (conventions 5 and 7)', () => {
  it('a channel message without topic is rejected', async () => {
    const r = await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), content: 'x' });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Missing topic' });
  });

  it('the legacy subject parameter is accepted as the topic', async () => {
    const topic = uniqueTopic('legacy');
    const r = await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), subject: topic, content: 'x' });
    expect((await fetchOne('hamlet', r.json.id as number)).subject).toBe(topic);
  });

  it('the empty string is a valid channel topic (FL 334)', async () => {
    const r = await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic: '', content: 'x' });
    expect(r.status).toBe(200);
    expect((await fetchOne('hamlet', r.json.id as number)).subject).toBe('');
  });

  it("the realm's empty-topic display name means the empty topic", async () => {
    const name = getRealm(t.server.state).empty_topic_display_name;
    const r = await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic: name, content: 'x' });
    expect((await fetchOne('hamlet', r.json.id as number)).subject).toBe('');
  });

  it('"(no topic)" means the empty topic (FL 370)', async () => {
    const r = await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic: '(no topic)', content: 'x' });
    expect((await fetchOne('hamlet', r.json.id as number)).subject).toBe('');
  });

  it('topics are trimmed', async () => {
    const r = await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic: '  padded  ', content: 'x' });
    expect((await fetchOne('hamlet', r.json.id as number)).subject).toBe('padded');
  });

  it('control characters in a topic are refused with their position', async () => {
    const r = await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic: 'ab\ncd', content: 'x' });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid character in topic, at position 3!' });
  });

  it('a topic longer than max_topic_length is truncated with "..."', async () => {
    const max = getRealm(t.server.state).max_topic_length;
    const r = await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic: 'x'.repeat(max + 10), content: 'x' });
    const subject = (await fetchOne('hamlet', r.json.id as number)).subject as string;
    expect([...subject].length).toBe(max);
    expect(subject.endsWith('...')).toBe(true);
  });

  it("disable_empty_topic (realm topics_policy) rejects the empty topic", async () => {
    await withRealm({ topics_policy: 'disable_empty_topic' }, async () => {
      const r = await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic: '', content: 'x' });
      expect(r.json.code).toBe('BAD_REQUEST');
      const ok = await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic: 'named', content: 'x' });
      expect(ok.status).toBe(200);
    });
  });

  it("a channel's own topics_policy overrides the realm's", async () => {
    const db = t.server.state.db;
    const id = channelId(t, 'Denmark');
    db.prepare("UPDATE channels SET topics_policy = 'disable_empty_topic' WHERE id = ?").run(id);
    try {
      const r = await send('hamlet', { type: 'stream', to: id, topic: '(no topic)', content: 'x' });
      expect(r.json.code).toBe('BAD_REQUEST');
    } finally {
      db.prepare("UPDATE channels SET topics_policy = 'inherit' WHERE id = ?").run(id);
    }
  });

  it('empty_topic_only accepts only the empty topic', async () => {
    const db = t.server.state.db;
    const id = channelId(t, 'Denmark');
    db.prepare("UPDATE channels SET topics_policy = 'empty_topic_only' WHERE id = ?").run(id);
    try {
      expect((await send('hamlet', { type: 'stream', to: id, topic: 'named', content: 'x' })).json.code).toBe('BAD_REQUEST');
      expect((await send('hamlet', { type: 'stream', to: id, topic: '', content: 'x' })).status).toBe(200);
    } finally {
      db.prepare("UPDATE channels SET topics_policy = 'inherit' WHERE id = ?").run(id);
    }
  });

  it('direct messages have the empty subject whatever topic is sent', async () => {
    const r = await send('hamlet', { type: 'direct', to: [t.userId('othello')], topic: 'ignored', content: 'x' });
    expect((await fetchOne('hamlet', r.json.id as number)).subject).toBe('');
  });
});

describe('POST /messages: content', () => {
  it('empty or whitespace-only content is rejected', async () => {
    for (const content of ['', '   \n ']) {
      const r = await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic: 'x', content });
      expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Message must not be empty' });
    }
  });

  it('content longer than max_message_length is truncated with a marker', async () => {
    await withRealm({ max_message_length: 50 }, async () => {
      const r = await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic: 'x', content: 'y'.repeat(80) });
      const m = await fetchOne('hamlet', r.json.id as number, { apply_markdown: false });
      expect([...(m.content as string)].length).toBe(50);
      expect(m.content).toMatch(/\[message truncated\]$/);
    });
  });

  it('content is stored raw and rendered to HTML', async () => {
    const r = await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic: 'x', content: '**bold**' });
    expect((await fetchOne('hamlet', r.json.id as number)).content).toBe('<p><strong>bold</strong></p>');
    const raw = await t.as('hamlet').get(`/messages/${r.json.id}`, { apply_markdown: false });
    expect(raw.json.message).toMatchObject({ content: '**bold**', content_type: 'text/x-markdown' });
    expect(raw.json.raw_content).toBe('**bold**');
  });

  it('/me messages are is_me_message', async () => {
    const r = await send('hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic: 'x', content: '/me waves' });
    expect((await fetchOne('hamlet', r.json.id as number)).is_me_message).toBe(true);
  });
});

