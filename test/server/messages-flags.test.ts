/**
 * Personal flags: POST /messages/flags, POST /messages/flags/narrow, POST /mark_topic_as_read
 * (spec section; docs/zulip-behaviour.md "Marking a topic read", "Flags and reactions").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { channelId, openQueue, uniqueTopic } from './messages-util.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function send(who: string, channel: string, topic: string, content = 'x'): Promise<number> {
  const r = await t.as(who).post('/messages', { type: 'stream', to: channelId(t, channel), topic, content });
  return r.json.id as number;
}
async function flagsOf(who: string, id: number): Promise<string[]> {
  return ((await t.as(who).get(`/messages/${id}`)).json.message as { flags: string[] }).flags;
}
const flags = (who: string, params: Record<string, unknown>) => t.as(who).post('/messages/flags', params as Record<string, string>);

describe('POST /messages/flags', () => {
  it('adds and removes read, starred and collapsed, answering the changed ids', async () => {
    const id = await send('hamlet', 'Verona', uniqueTopic());
    for (const flag of ['read', 'starred', 'collapsed']) {
      const add = await flags('othello', { messages: [id], op: 'add', flag });
      expect(add.json).toMatchObject({ result: 'success', messages: [id] });
      expect(await flagsOf('othello', id)).toContain(flag);
      const remove = await flags('othello', { messages: [id], op: 'remove', flag });
      expect(remove.json.messages).toEqual([id]);
      expect(await flagsOf('othello', id)).not.toContain(flag);
    }
  });

  it('messages whose flag already has the value are not reported as changed', async () => {
    const id = await send('hamlet', 'Verona', uniqueTopic());
    await flags('othello', { messages: [id], op: 'add', flag: 'starred' });
    expect((await flags('othello', { messages: [id], op: 'add', flag: 'starred' })).json.messages).toEqual([]);
  });

  it('mentioned, wildcard and other computed flags are not editable', async () => {
    const id = await send('hamlet', 'Verona', uniqueTopic());
    for (const flag of ['mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'wildcard_mentioned', 'has_alert_word', 'historical']) {
      const r = await flags('othello', { messages: [id], op: 'add', flag });
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: `Flag not editable: '${flag}'` });
    }
  });

  it('an unknown flag is BAD_REQUEST "Invalid flag"', async () => {
    const r = await flags('othello', { messages: [1], op: 'add', flag: 'shiny' });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: "Invalid flag: 'shiny'" });
  });

  it('an unknown op is BAD_REQUEST', async () => {
    const r = await flags('othello', { messages: [1], op: 'toggle', flag: 'read' });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: "Invalid message flag operation: 'toggle'" });
  });

  it('starring a readable message without a row creates a historical row', async () => {
    const id = await send('iago', 'Scotland', uniqueTopic());
    await flags('hamlet', { messages: [id], op: 'add', flag: 'starred' });
    expect(await flagsOf('hamlet', id)).toEqual(['read', 'starred', 'historical']);
  });

  it('starring a message the user cannot read is "Invalid message(s)" and changes nothing', async () => {
    const secret = await send('iago', 'core team', uniqueTopic());
    const r = await flags('othello', { messages: [secret], op: 'add', flag: 'starred' });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid message(s)' });
  });

  it('marking read a message without a row is a no-op (it already counts as read)', async () => {
    const id = await send('iago', 'Scotland', uniqueTopic());
    expect((await flags('hamlet', { messages: [id, 99999999], op: 'add', flag: 'read' })).json.messages).toEqual([]);
  });

  it('marking unread ignores messages of channels the user is not subscribed to, and says which', async () => {
    const id = await send('iago', 'Scotland', uniqueTopic());
    const r = await flags('hamlet', { messages: [id], op: 'remove', flag: 'read' });
    expect(r.json).toMatchObject({ messages: [], ignored_because_not_subscribed_channels: [channelId(t, 'Scotland')] });
    expect(await flagsOf('hamlet', id)).toEqual(['read', 'historical']);
  });

  it('ignored_because_not_subscribed_channels appears only for read/remove', async () => {
    const id = await send('hamlet', 'Verona', uniqueTopic());
    expect((await flags('othello', { messages: [id], op: 'add', flag: 'read' })).json).not.toHaveProperty('ignored_because_not_subscribed_channels');
  });

  it('the update_message_flags add event has op, operation, flag, messages and all', async () => {
    const id = await send('hamlet', 'Verona', uniqueTopic());
    const q = openQueue(t, 'othello');
    await flags('othello', { messages: [id], op: 'add', flag: 'starred' });
    expect(await q.ofType('update_message_flags')).toEqual([
      expect.objectContaining({ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'starred', messages: [id], all: false }),
    ]);
  });

  it('removing read sends message_details to rebuild unread state', async () => {
    const topic = uniqueTopic();
    const ch = await send('hamlet', 'Verona', topic, 'hi @**Othello, the Moor of Venice**');
    const dm = (await t.as('hamlet').post('/messages', { type: 'direct', to: [t.userId('othello'), t.userId('cordelia')], content: 'x' })).json.id as number;
    await flags('othello', { messages: [ch, dm], op: 'add', flag: 'read' });
    const q = openQueue(t, 'othello');
    await flags('othello', { messages: [ch, dm], op: 'remove', flag: 'read' });
    const [e] = await q.ofType('update_message_flags');
    expect(e).toMatchObject({ op: 'remove', operation: 'remove', flag: 'read', messages: [ch, dm], all: false });
    expect(e!.message_details).toEqual({
      [ch]: { type: 'stream', stream_id: channelId(t, 'Verona'), topic, unmuted_stream_msg: true, mentioned: true },
      [dm]: { type: 'private', user_ids: [t.userId('hamlet'), t.userId('cordelia')].sort((a, b) => a - b) },
    });
  });

  it('message_details topics follow the empty_topic_name capability', async () => {
    const id = await send('hamlet', 'Verona', '');
    await flags('othello', { messages: [id], op: 'add', flag: 'read' });
    const old = openQueue(t, 'othello', { capabilities: {} });
    await flags('othello', { messages: [id], op: 'remove', flag: 'read' });
    const [e] = await old.ofType('update_message_flags');
    expect((e!.message_details as Record<string, { topic: string }>)[id]!.topic).toBe('general chat');
  });
});

describe('POST /messages/flags/narrow', () => {
  it('updates the flag on the range and reports counts, ids and found_*', async () => {
    const topic = uniqueTopic();
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await send('hamlet', 'Verona', topic));
    await flags('othello', { messages: [ids[1]], op: 'add', flag: 'read' });
    const r = await t.as('othello').post('/messages/flags/narrow', {
      anchor: 'oldest',
      num_before: 0,
      num_after: 10,
      narrow: [{ operator: 'channel', operand: 'Verona' }, { operator: 'topic', operand: topic }],
      op: 'add',
      flag: 'read',
    });
    expect(r.json).toMatchObject({
      result: 'success',
      processed_count: 5,
      updated_count: 4,
      first_processed_id: ids[0],
      last_processed_id: ids[4],
      found_oldest: true,
      found_newest: true,
    });
    expect(r.json).not.toHaveProperty('ignored_because_not_subscribed_channels');
  });

  it('a partial range says found_newest false so the client continues from last_processed_id', async () => {
    const topic = uniqueTopic();
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await send('hamlet', 'Verona', topic));
    const r = await t.as('othello').post('/messages/flags/narrow', {
      anchor: String(ids[0]),
      num_before: 0,
      num_after: 1,
      narrow: [['stream', 'Verona'], ['topic', topic]],
      op: 'add',
      flag: 'starred',
    });
    expect(r.json).toMatchObject({ processed_count: 2, first_processed_id: ids[0], last_processed_id: ids[1], found_newest: false });
  });

  it('an empty range answers null ids', async () => {
    const r = await t.as('othello').post('/messages/flags/narrow', {
      anchor: 'newest',
      num_before: 0,
      num_after: 0,
      narrow: [],
      op: 'add',
      flag: 'read',
    });
    expect(r.json).toMatchObject({ processed_count: 0, updated_count: 0, first_processed_id: null, last_processed_id: null });
  });

  it('read/remove reports ignored_because_not_subscribed_channels', async () => {
    const topic = uniqueTopic();
    await send('iago', 'Scotland', topic);
    const r = await t.as('hamlet').post('/messages/flags/narrow', {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [{ operator: 'channel', operand: 'Scotland' }, { operator: 'topic', operand: topic }],
      op: 'remove',
      flag: 'read',
    });
    expect(r.json).toMatchObject({ processed_count: 1, updated_count: 0, ignored_because_not_subscribed_channels: [channelId(t, 'Scotland')] });
  });

  it('anchor, num_before, num_after, narrow, op and flag are required', async () => {
    const full = { anchor: 'newest', num_before: 0, num_after: 0, narrow: [], op: 'add', flag: 'read' };
    for (const name of Object.keys(full)) {
      const params: Record<string, unknown> = { ...full };
      delete params[name];
      const r = await t.as('hamlet').post('/messages/flags/narrow', params as Record<string, string>);
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: name });
    }
  });

  it('excluding the anchor in the middle of a range is an error', async () => {
    const r = await t.as('hamlet').post('/messages/flags/narrow', { anchor: 'newest', include_anchor: false, num_before: 1, num_after: 1, narrow: [], op: 'add', flag: 'read' });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'The anchor can only be excluded at an end of the range' });
  });

  it('a bad narrow is BAD_NARROW', async () => {
    const r = await t.as('hamlet').post('/messages/flags/narrow', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [['bogus', 'x']], op: 'add', flag: 'read' });
    expect(r.json.code).toBe('BAD_NARROW');
  });
});

describe('POST /mark_topic_as_read (deprecated)', () => {
  it('marks every unread message of the topic read and sends one add/read event', async () => {
    const topic = uniqueTopic();
    const a = await send('hamlet', 'Verona', topic);
    const b = await send('hamlet', 'Verona', topic);
    const other = await send('hamlet', 'Verona', uniqueTopic());
    const q = openQueue(t, 'othello');
    const r = await t.as('othello').post('/mark_topic_as_read', { stream_id: channelId(t, 'Verona'), topic_name: topic });
    expect(r.json).toEqual({ result: 'success', msg: '' });
    expect(await flagsOf('othello', a)).toContain('read');
    expect(await flagsOf('othello', b)).toContain('read');
    expect(await flagsOf('othello', other)).not.toContain('read');
    expect(await q.ofType('update_message_flags')).toEqual([expect.objectContaining({ op: 'add', flag: 'read', messages: [a, b], all: false })]);
  });

  it('the topic matches case-insensitively and the display name means the empty topic', async () => {
    const id = await send('hamlet', 'Denmark', '');
    await t.as('cordelia').post('/mark_topic_as_read', { stream_id: channelId(t, 'Denmark'), topic_name: 'general chat' });
    expect(await flagsOf('cordelia', id)).toContain('read');
  });

  it('an unknown topic is BAD_REQUEST', async () => {
    const r = await t.as('othello').post('/mark_topic_as_read', { stream_id: channelId(t, 'Verona'), topic_name: 'no such topic here' });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: "No such topic 'no such topic here'" });
  });

  it('an inaccessible or unknown channel is BAD_REQUEST', async () => {
    expect((await t.as('othello').post('/mark_topic_as_read', { stream_id: channelId(t, 'core team'), topic_name: 'x' })).json.code).toBe('BAD_REQUEST');
    expect((await t.as('othello').post('/mark_topic_as_read', { stream_id: 9999, topic_name: 'x' })).json.code).toBe('BAD_REQUEST');
  });

  it('stream_id and topic_name are required', async () => {
    expect((await t.as('othello').post('/mark_topic_as_read', { topic_name: 'x' })).json).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'stream_id' });
    expect((await t.as('othello').post('/mark_topic_as_read', { stream_id: 1 })).json).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'topic_name' });
  });
});
