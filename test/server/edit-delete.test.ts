/**
 * DELETE /messages/{message_id} (referenced operation; Zulip's delete rules: administrators and
 * can_delete_any_message_group any time, senders per can_delete_own_message_group within
 * message_content_delete_limit_seconds) and its `delete_message` / `stream` events
 * (docs/zulip-behaviour.md "delete_message"; spec Events 1). Plain HTTP.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { atomically } from '../../server/events/emit.js';
import { insertUser, ROLE } from '../../server/model/users.js';
import { withoutIds } from './events-helpers.js';
import { channelId, channelPermission, dm, freshTopic, post, queue, row, systemGroup } from './edit-helpers.js';
import { startTestServer, type TestServer } from './harness.js';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(() => t.close());

const setRealm = (name: string, value: unknown) =>
  t.server.state.db.prepare('INSERT INTO realm_settings (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value').run(name, JSON.stringify(value));
const count = (sql: string, ...args: unknown[]) => t.server.state.db.prepare(sql).pluck().get(...args) as number;

describe('DELETE /messages/{id}', () => {
  it('the sender deletes their own recent message; the message and its rows are gone', async () => {
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'oops');
    const r = await t.as('hamlet').delete(`/messages/${id}`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ result: 'success', msg: '' });
    expect(row(t, id)).toBeUndefined();
    expect(count('SELECT COUNT(*) FROM user_messages WHERE message_id = ?', id)).toBe(0);
  });

  it("members cannot delete other users' messages", async () => {
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'mine');
    const r = await t.as('othello').delete(`/messages/${id}`);
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: "You don't have permission to delete this message" });
    expect(row(t, id)).toBeDefined();
  });

  it('administrators delete any message, any time', async () => {
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'old', 30 * 86400);
    expect((await t.as('iago').delete(`/messages/${id}`)).json.result).toBe('success');
    expect(row(t, id)).toBeUndefined();
  });

  it('senders cannot delete past message_content_delete_limit_seconds (Zulip default 600)', async () => {
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'old', 601);
    const r = await t.as('hamlet').delete(`/messages/${id}`);
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'The time limit for deleting this message has passed' });
  });

  it('message_content_delete_limit_seconds null means no limit', async () => {
    setRealm('message_content_delete_limit_seconds', null);
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'old', 30 * 86400);
    expect((await t.as('hamlet').delete(`/messages/${id}`)).json.result).toBe('success');
  });

  it('users outside can_delete_own_message_group cannot delete their own messages', async () => {
    setRealm('can_delete_own_message_group', systemGroup(t, 'role:moderators'));
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x');
    expect((await t.as('hamlet').delete(`/messages/${id}`)).json.msg).toBe("You don't have permission to delete this message");
  });

  it('members of can_delete_any_message_group delete any message', async () => {
    setRealm('can_delete_any_message_group', systemGroup(t, 'role:moderators'));
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x', 3600);
    expect((await t.as('shiva').delete(`/messages/${id}`)).json.result).toBe('success');
  });

  it("a channel's can_delete_any_message_group grants deleting any message in it", async () => {
    channelPermission(t, 'Verona', 'can_delete_any_message_group', 'role:members');
    const id = post(t, 'hamlet', 'Verona', freshTopic(), 'x');
    expect((await t.as('othello').delete(`/messages/${id}`)).json.result).toBe('success');
  });

  it("a bot's owner may delete the bot's messages", async () => {
    const srv = t.server.state;
    const bot = atomically(srv, () => insertUser(srv, { email: 'helper-bot@example.com', full_name: 'Helper', role: ROLE.member, is_bot: true }));
    srv.db.prepare('UPDATE users SET bot_owner_id = ? WHERE id = ?').run(t.userId('hamlet'), bot.id);
    srv.db.prepare('INSERT INTO subscriptions (user_id, channel_id) VALUES (?, ?)').run(bot.id, channelId(t, 'Verona'));
    const id = post(t, 'helper-bot@example.com', 'Verona', freshTopic(), 'beep');
    expect((await t.as('hamlet').delete(`/messages/${id}`)).json.result).toBe('success');
  });

  it('a message that does not exist or is not visible is "Invalid message(s)"', async () => {
    expect((await t.as('hamlet').delete('/messages/999999')).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid message(s)' });
    const id = dm(t, 'othello', ['cordelia'], 'private');
    expect((await t.as('hamlet').delete(`/messages/${id}`)).json.msg).toBe('Invalid message(s)');
  });
});

describe('DELETE /messages/{id}: events', () => {
  it('channel message: delete_message with message_ids, message_type "stream", stream_id and topic (bulk_message_deletion)', async () => {
    const topic = freshTopic();
    const id = post(t, 'hamlet', 'Verona', topic, 'x');
    const q = await queue(t, 'othello');
    await t.as('hamlet').delete(`/messages/${id}`);
    expect(withoutIds(await q.events('delete_message'))).toEqual([{ type: 'delete_message', message_ids: [id], message_type: 'stream', stream_id: channelId(t, 'Verona'), topic }]);
  });

  it('without bulk_message_deletion the event carries message_id', async () => {
    const topic = freshTopic();
    const id = post(t, 'hamlet', 'Verona', topic, 'x');
    const q = await queue(t, 'othello', { empty_topic_name: true });
    await t.as('hamlet').delete(`/messages/${id}`);
    expect(withoutIds(await q.events('delete_message'))).toEqual([{ type: 'delete_message', message_id: id, message_type: 'stream', stream_id: channelId(t, 'Verona'), topic }]);
  });

  it('without empty_topic_name an empty topic is written as the display name', async () => {
    const id = post(t, 'hamlet', 'Verona', '', 'x');
    const q = await queue(t, 'othello', { bulk_message_deletion: true });
    await t.as('hamlet').delete(`/messages/${id}`);
    expect((await q.events('delete_message'))[0]?.topic).toBe('general chat');
  });

  it('direct message: message_type "private", no channel fields, only the participants hear of it', async () => {
    const id = dm(t, 'hamlet', ['othello'], 'x');
    const qo = await queue(t, 'othello');
    const qc = await queue(t, 'cordelia');
    await t.as('hamlet').delete(`/messages/${id}`);
    expect(withoutIds(await qo.events('delete_message'))).toEqual([{ type: 'delete_message', message_ids: [id], message_type: 'private' }]);
    expect(await qc.events('delete_message')).toEqual([]);
  });

  it("users who cannot see the channel's messages hear nothing", async () => {
    const id = post(t, 'hamlet', 'core team', freshTopic(), 'x');
    const q = await queue(t, 'othello');
    await t.as('hamlet').delete(`/messages/${id}`);
    expect(await q.events('delete_message')).toEqual([]);
  });

  it("deleting a channel's oldest message sends a stream update of first_message_id (FL 256)", async () => {
    expect((await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'fresh channel' }], principals: [t.userId('hamlet'), t.userId('othello')] })).json.result).toBe('success');
    const first = post(t, 'hamlet', 'fresh channel', 'start', 'first');
    const second = post(t, 'hamlet', 'fresh channel', 'start', 'second');
    const q = await queue(t, 'othello');
    await t.as('hamlet').delete(`/messages/${first}`);
    expect(withoutIds(await q.events('stream'))).toEqual([
      { type: 'stream', op: 'update', stream_id: channelId(t, 'fresh channel'), name: 'fresh channel', property: 'first_message_id', value: second },
    ]);
  });

  it('deleting a later message does not touch first_message_id', async () => {
    expect((await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'fresh channel' }] })).json.result).toBe('success');
    post(t, 'hamlet', 'fresh channel', 'start', 'first');
    const second = post(t, 'hamlet', 'fresh channel', 'start', 'second');
    const q = await queue(t, 'hamlet');
    await t.as('hamlet').delete(`/messages/${second}`);
    expect(await q.events('stream')).toEqual([]);
  });
});

describe('message ids', () => {
  it('are never reused: deleting the newest message does not hand its id to the next one', async () => {
    const s = await startTestServer();
    try {
      const send = async (content: string) => (await s.as('hamlet').post('/messages', { type: 'channel', to: 'Verona', topic: 'ids', content })).json.id as number;
      const a = await send('first');
      expect((await s.as('iago').delete(`/messages/${a}`)).status).toBe(200);
      const b = await send('second');
      expect(b).toBeGreaterThan(a);
    } finally {
      await s.close();
    }
  });
});
