/**
 * GET /messages and GET /messages/{message_id} (spec sections of the same names, spec "Message
 * object", docs/zulip-behaviour.md "GET /messages"): anchors, ranges, found_* flags, message_ids, presentation options.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRealmSettings } from '../../server/model/realm.js';
import { startTestServer, type TestServer } from './harness.js';
import { channelId, uniqueTopic } from './messages-util.js';

let t: TestServer;
let topic: string;
let ids: number[];
const narrowOf = (tp: string) => [
  { operator: 'channel', operand: 'Verona' },
  { operator: 'topic', operand: tp },
];

beforeAll(async () => {
  t = await startTestServer();
  topic = uniqueTopic('range');
  ids = [];
  for (let i = 0; i < 10; i++) {
    const r = await t.as(i % 2 ? 'othello' : 'hamlet').post('/messages', { type: 'stream', to: channelId(t, 'Verona'), topic, content: `message ${i}` });
    ids.push(r.json.id as number);
  }
});
afterAll(() => t.close());

const get = (params: Record<string, unknown>, who = 'hamlet') => t.as(who).get('/messages', params as Record<string, string>);
const idsOf = (r: { json: Record<string, unknown> }) => (r.json.messages as Array<{ id: number }>).map((m) => m.id);

describe('GET /messages: anchors and ranges', () => {
  it('an integer anchor returns num_before older, the anchor, and num_after newer, sorted by id', async () => {
    const r = await get({ anchor: String(ids[5]), num_before: 2, num_after: 2, narrow: narrowOf(topic) });
    expect(r.status).toBe(200);
    expect(idsOf(r)).toEqual(ids.slice(3, 8));
    expect(r.json).toMatchObject({ anchor: ids[5], found_anchor: true, found_oldest: false, found_newest: false, history_limited: false });
  });

  it('include_anchor false leaves the anchor out and found_anchor false', async () => {
    const r = await get({ anchor: String(ids[5]), include_anchor: false, num_before: 1, num_after: 1, narrow: narrowOf(topic) });
    expect(idsOf(r)).toEqual([ids[4], ids[6]]);
    expect(r.json.found_anchor).toBe(false);
  });

  it('an anchor that does not match the narrow is not found but still splits the range', async () => {
    const other = await t.as('hamlet').post('/messages', { type: 'stream', to: channelId(t, 'Denmark'), topic: 'elsewhere', content: 'x' });
    const r = await get({ anchor: String(other.json.id), num_before: 3, num_after: 3, narrow: narrowOf(topic) });
    expect(r.json.found_anchor).toBe(false);
    expect(idsOf(r)).toEqual(ids.slice(7));
  });

  it('anchor newest returns the latest messages with found_newest and the numeric anchor 10^16', async () => {
    const r = await get({ anchor: 'newest', num_before: 3, num_after: 0, narrow: narrowOf(topic) });
    expect(idsOf(r)).toEqual(ids.slice(7));
    expect(r.json).toMatchObject({ anchor: 10000000000000000, found_newest: true, found_oldest: false, found_anchor: false });
  });

  it('anchor oldest returns the first messages with found_oldest and anchor 0', async () => {
    const r = await get({ anchor: 'oldest', num_before: 0, num_after: 3, narrow: narrowOf(topic) });
    expect(idsOf(r)).toEqual(ids.slice(0, 3));
    expect(r.json).toMatchObject({ anchor: 0, found_oldest: true, found_newest: false });
  });

  it('found_oldest and found_newest are true when the range reaches both ends', async () => {
    const r = await get({ anchor: String(ids[5]), num_before: 100, num_after: 100, narrow: narrowOf(topic) });
    expect(idsOf(r)).toEqual(ids);
    expect(r.json).toMatchObject({ found_oldest: true, found_newest: true });
  });

  it('anchor first_unread is the oldest unread message matching the narrow', async () => {
    // Hamlet sent the even ones (read); othello's odd ones are unread for hamlet.
    const r = await get({ anchor: 'first_unread', num_before: 0, num_after: 1, narrow: narrowOf(topic) });
    expect(r.json.anchor).toBe(ids[1]);
    expect(idsOf(r)).toEqual([ids[1], ids[2]]);
  });

  it('anchor first_unread with nothing unread behaves like newest', async () => {
    const r = await get({ anchor: 'first_unread', num_before: 2, num_after: 2, narrow: narrowOf(topic) }, 'cordelia');
    await t.as('cordelia').post('/messages/flags', { messages: ids, op: 'add', flag: 'read' });
    const after = await get({ anchor: 'first_unread', num_before: 2, num_after: 2, narrow: narrowOf(topic) }, 'cordelia');
    expect(r.json.anchor).toBe(ids[0]);
    expect(after.json).toMatchObject({ anchor: 10000000000000000, found_newest: true });
    expect(idsOf(after)).toEqual(ids.slice(8));
  });

  it('use_first_unread_anchor (deprecated) means anchor first_unread', async () => {
    const r = await get({ use_first_unread_anchor: true, num_before: 0, num_after: 1, narrow: narrowOf(topic) });
    expect(r.json.anchor).toBe(ids[1]);
  });

  it('use_first_unread_anchor together with anchor is an error', async () => {
    const r = await get({ use_first_unread_anchor: true, anchor: 'newest', num_before: 0, num_after: 1 });
    expect(r.json.code).toBe('BAD_REQUEST');
  });

  it('a missing anchor is an error', async () => {
    const r = await get({ num_before: 1, num_after: 1 });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('BAD_REQUEST');
  });

  it('an invalid anchor is BAD_REQUEST', async () => {
    for (const anchor of ['latest', '-5', '1.5']) {
      const r = await get({ anchor, num_before: 1, num_after: 1 });
      expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid anchor' });
    }
  });

  it('num_before and num_after are required without message_ids', async () => {
    expect((await get({ anchor: 'newest', num_after: 0 })).json).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'num_before' });
    expect((await get({ anchor: 'newest', num_before: 0 })).json).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'num_after' });
  });

  it('negative num_before is REQUEST_VARIABLE_INVALID', async () => {
    expect((await get({ anchor: 'newest', num_before: -1, num_after: 0 })).json.code).toBe('REQUEST_VARIABLE_INVALID');
  });

  it('more than 5000 messages in one request is an error', async () => {
    const r = await get({ anchor: 'newest', num_before: 4000, num_after: 1001 });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Too many messages requested (maximum 5000).' });
    expect((await get({ anchor: 'newest', num_before: 5000, num_after: 0 })).status).toBe(200);
  });

  it('the default narrow is the empty narrow (all of the user’s messages)', async () => {
    const r = await get({ anchor: 'newest', num_before: 1000, num_after: 0 });
    expect(idsOf(r)).toEqual(expect.arrayContaining(ids));
  });
});

describe('GET /messages: message_ids (FL 300)', () => {
  it('returns the messages that exist, are accessible and match the narrow; no anchor field', async () => {
    const priv = await t.as('iago').post('/messages', { type: 'stream', to: channelId(t, 'core team'), topic: 'secret', content: 'x' });
    const r = await get({ message_ids: [ids[0], ids[1], 99999999, priv.json.id], narrow: narrowOf(topic) }, 'cordelia');
    expect(idsOf(r)).toEqual([ids[0], ids[1]]);
    expect(r.json.anchor).toBeUndefined();
    expect(r.json).toMatchObject({ result: 'success', history_limited: false });
  });

  it('includes readable channel history the user did not receive', async () => {
    const m = await t.as('iago').post('/messages', { type: 'stream', to: channelId(t, 'Scotland'), topic: 'moors', content: 'x' });
    const r = await get({ message_ids: [m.json.id] }, 'hamlet');
    expect(idsOf(r)).toEqual([m.json.id]);
    expect((r.json.messages as Array<{ flags: string[] }>)[0]!.flags).toEqual(['read', 'historical']);
  });

  it('filters by the narrow', async () => {
    const r = await get({ message_ids: ids, narrow: [{ operator: 'sender', operand: t.userId('othello') }, ...narrowOf(topic)] });
    expect(idsOf(r)).toEqual(ids.filter((_, i) => i % 2 === 1));
  });

  it('is an error together with anchor, include_anchor, use_first_unread_anchor, num_before or num_after', async () => {
    for (const extra of [{ anchor: 'newest' }, { include_anchor: true }, { use_first_unread_anchor: false }, { num_before: 1 }, { num_after: 1 }]) {
      const r = await get({ message_ids: [ids[0]], ...extra });
      expect(r.json.code).toBe('BAD_REQUEST');
      expect(r.json.parameters).toContain('message_ids');
    }
  });
});

describe('GET /messages: the message object', () => {
  it('carries every field of the spec message object', async () => {
    const r = await get({ anchor: String(ids[1]), num_before: 0, num_after: 0, narrow: narrowOf(topic) });
    const m = (r.json.messages as Array<Record<string, unknown>>)[0]!;
    expect(m).toMatchObject({
      id: ids[1],
      type: 'stream',
      stream_id: channelId(t, 'Verona'),
      subject: topic,
      topic_links: [],
      content: '<p>message 1</p>',
      content_type: 'text/html',
      client: expect.any(String),
      display_recipient: 'Verona',
      recipient_id: expect.any(Number),
      sender_id: t.userId('othello'),
      sender_email: 'othello@example.com',
      sender_full_name: 'Othello, the Moor of Venice',
      sender_realm_str: expect.any(String),
      is_me_message: false,
      flags: [],
      reactions: [],
      submessages: [],
    });
    expect(typeof m.timestamp).toBe('number');
    expect(m).not.toHaveProperty('edit_history');
    expect(m).not.toHaveProperty('last_edit_timestamp');
    expect(m).not.toHaveProperty('last_moved_timestamp');
  });

  it('client_gravatar defaults to true: avatar_url null when the email is visible', async () => {
    const r = await get({ anchor: String(ids[1]), num_before: 0, num_after: 0, narrow: narrowOf(topic) });
    expect((r.json.messages as Array<Record<string, unknown>>)[0]!.avatar_url).toBeNull();
    const g = await get({ anchor: String(ids[1]), num_before: 0, num_after: 0, narrow: narrowOf(topic), client_gravatar: false });
    expect(typeof (g.json.messages as Array<Record<string, unknown>>)[0]!.avatar_url).toBe('string');
  });

  it('apply_markdown false returns raw Markdown as text/x-markdown', async () => {
    const r = await get({ anchor: String(ids[1]), num_before: 0, num_after: 0, narrow: narrowOf(topic), apply_markdown: false });
    expect((r.json.messages as Array<Record<string, unknown>>)[0]).toMatchObject({ content: 'message 1', content_type: 'text/x-markdown' });
  });

  it('allow_empty_topic_name false (default) writes the realm display name for the empty topic', async () => {
    const sent = await t.as('hamlet').post('/messages', { type: 'stream', to: channelId(t, 'Verona'), topic: '', content: 'empty topic' });
    const byDefault = await get({ message_ids: [sent.json.id] });
    const allowed = await get({ message_ids: [sent.json.id], allow_empty_topic_name: true });
    expect((byDefault.json.messages as Array<Record<string, unknown>>)[0]!.subject).toBe('general chat');
    expect((allowed.json.messages as Array<Record<string, unknown>>)[0]!.subject).toBe('');
  });

  it('a direct message has display_recipient user objects and no stream_id', async () => {
    const sent = await t.as('hamlet').post('/messages', { type: 'direct', to: [t.userId('othello')], content: 'dm' });
    const r = await get({ message_ids: [sent.json.id] });
    const m = (r.json.messages as Array<Record<string, unknown>>)[0]!;
    expect(m).not.toHaveProperty('stream_id');
    expect(m.subject).toBe('');
    expect(m.display_recipient).toEqual([
      { id: t.userId('hamlet'), email: 'hamlet@example.com', full_name: 'King Hamlet', is_mirror_dummy: false },
      { id: t.userId('othello'), email: 'othello@example.com', full_name: 'Othello, the Moor of Venice', is_mirror_dummy: false },
    ]);
  });

  it('reactions carry user_id', async () => {
    await t.as('cordelia').post(`/messages/${ids[2]}/reactions`, { emoji_name: 'octopus' });
    const r = await get({ message_ids: [ids[2]] });
    expect((r.json.messages as Array<Record<string, unknown>>)[0]!.reactions).toEqual([
      { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji', user_id: t.userId('cordelia') },
    ]);
  });

  it('submessages carry msg_type, content, message_id, sender_id and id', async () => {
    t.server.state.db.prepare("INSERT INTO submessages (message_id, sender_id, msg_type, content) VALUES (?, ?, 'widget', '{}')").run(ids[3], t.userId('hamlet'));
    const r = await get({ message_ids: [ids[3]] });
    expect((r.json.messages as Array<Record<string, unknown>>)[0]!.submessages).toEqual([
      { msg_type: 'widget', content: '{}', message_id: ids[3], sender_id: t.userId('hamlet'), id: expect.any(Number) },
    ]);
  });

  it('edit_history (most recent first), last_edit_timestamp and last_moved_timestamp follow the stored values and the realm policy', async () => {
    const history = [
      { user_id: t.userId('hamlet'), timestamp: 200, prev_topic: 'old', topic },
      { user_id: t.userId('hamlet'), timestamp: 100, prev_content: 'before', prev_rendered_content: '<p>before</p>' },
    ];
    t.server.state.db.prepare('UPDATE messages SET edit_history = ?, last_edit_timestamp = 100, last_moved_timestamp = 200 WHERE id = ?').run(JSON.stringify(history), ids[4]);
    const all = (await get({ message_ids: [ids[4]] })).json.messages as Array<Record<string, unknown>>;
    expect(all[0]).toMatchObject({ edit_history: history, last_edit_timestamp: 100, last_moved_timestamp: 200 });
    setRealmSettings(t.server.state, { message_edit_history_visibility_policy: 'moves' });
    const moves = (await get({ message_ids: [ids[4]] })).json.messages as Array<Record<string, unknown>>;
    expect(moves[0]!.edit_history).toEqual([history[0]]);
    setRealmSettings(t.server.state, { message_edit_history_visibility_policy: 'none' });
    const none = (await get({ message_ids: [ids[4]] })).json.messages as Array<Record<string, unknown>>;
    expect(none[0]).not.toHaveProperty('edit_history');
    setRealmSettings(t.server.state, { message_edit_history_visibility_policy: 'all' });
  });
});

describe('GET /messages/{message_id}', () => {
  it('returns message (with flags) and the deprecated raw_content', async () => {
    const r = await t.as('hamlet').get(`/messages/${ids[1]}`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ raw_content: 'message 1', message: { id: ids[1], content: '<p>message 1</p>', flags: expect.any(Array) } });
  });

  it('apply_markdown false returns the raw content', async () => {
    const r = await t.as('hamlet').get(`/messages/${ids[1]}`, { apply_markdown: false });
    expect(r.json.message).toMatchObject({ content: 'message 1', content_type: 'text/x-markdown' });
  });

  it('allow_empty_topic_name defaults to false', async () => {
    const sent = await t.as('hamlet').post('/messages', { type: 'stream', to: channelId(t, 'Verona'), topic: '', content: 'x' });
    expect(((await t.as('hamlet').get(`/messages/${sent.json.id}`)).json.message as Record<string, unknown>).subject).toBe('general chat');
    expect(((await t.as('hamlet').get(`/messages/${sent.json.id}`, { allow_empty_topic_name: true })).json.message as Record<string, unknown>).subject).toBe('');
  });

  it('a missing message is BAD_REQUEST "Invalid message(s)"', async () => {
    const r = await t.as('hamlet').get('/messages/99999999');
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid message(s)' });
  });

  it('a message the user may not see is BAD_REQUEST "Invalid message(s)"', async () => {
    const priv = await t.as('iago').post('/messages', { type: 'stream', to: channelId(t, 'core team'), topic: 'secret', content: 'x' });
    const r = await t.as('othello').get(`/messages/${priv.json.id}`);
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid message(s)' });
  });

  it('a redundant message_id query parameter is reported as ignored', async () => {
    const r = await t.as('hamlet').get(`/messages/${ids[1]}`, { message_id: ids[1] });
    expect(r.json.ignored_parameters_unsupported).toEqual(['message_id']);
  });
});

describe('Zulip extras: POST /messages/render and GET /messages/matches_narrow', () => {
  it('POST /messages/render answers the rendered HTML without sending', async () => {
    const r = await t.as('hamlet').post('/messages/render', { content: '**hi** @**Iago**' });
    expect(r.json).toEqual({ result: 'success', msg: '', rendered: `<p><strong>hi</strong> <span class="user-mention" data-user-id="${t.userId('iago')}">@Iago</span></p>` });
  });

  it('GET /messages/matches_narrow answers which of msg_ids match, with match fields', async () => {
    const r = await t.as('hamlet').get('/messages/matches_narrow', { msg_ids: [ids[0], ids[1]], narrow: [{ operator: 'sender', operand: t.userId('othello') }] });
    expect(r.json.messages).toEqual({ [ids[1]!]: { match_content: '<p>message 1</p>', match_subject: topic } });
  });
});
