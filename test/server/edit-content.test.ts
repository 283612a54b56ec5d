/**
 * PATCH /messages/{message_id}: content edits (spec "PATCH /messages/{message_id}", States and
 * transitions "Message content", Errors; docs/zulip-behaviour.md "PATCH /messages/{message_id}", "update_message"). Plain HTTP.
 */
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { atomically } from '../../server/events/emit.js';
import { FLAG } from '../../server/model/flags.js';
import { createUpload, uploadUrl } from '../../server/model/uploads.js';
import { withoutIds } from './events-helpers.js';
import { channelId, dm, flagsOf, history, post, queue, realm, row } from './edit-helpers.js';
import { startTestServer, type TestServer } from './harness.js';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(() => t.close());

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const now = () => Math.floor(t.clock.now() / 1000);

describe('PATCH /messages/{id}: content', () => {
  it('the sender edits the content: success with an empty detached_uploads', async () => {
    const id = post(t, 'hamlet', 'Verona', 'castle', 'hello');
    const r = await t.as('hamlet').patch(`/messages/${id}`, { content: 'hello world' });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ result: 'success', msg: '', detached_uploads: [] });
    expect(row(t, id)?.content).toBe('hello world');
  });

  it('the new content is re-rendered', async () => {
    const id = post(t, 'hamlet', 'Verona', 'castle', 'hello');
    await t.as('hamlet').patch(`/messages/${id}`, { content: '**bold**' });
    expect(row(t, id)?.rendered_content).toBe('<p><strong>bold</strong></p>');
  });

  it('a content edit sets last_edit_timestamp and not last_moved_timestamp', async () => {
    const id = post(t, 'hamlet', 'Verona', 'castle', 'hello');
    t.clock.advance(5000);
    await t.as('hamlet').patch(`/messages/${id}`, { content: 'changed' });
    expect(row(t, id)).toMatchObject({ last_edit_timestamp: now(), last_moved_timestamp: null });
  });

  it('the edit history entry of a content edit has user_id, timestamp, prev_content and prev_rendered_content only', async () => {
    const id = post(t, 'hamlet', 'Verona', 'castle', 'hello');
    await t.as('hamlet').patch(`/messages/${id}`, { content: 'changed' });
    expect(history(t, id)).toEqual([{ user_id: t.userId('hamlet'), timestamp: now(), prev_content: 'hello', prev_rendered_content: '<p>hello</p>' }]);
  });

  it('edit history is most recent first', async () => {
    const id = post(t, 'hamlet', 'Verona', 'castle', 'one');
    await t.as('hamlet').patch(`/messages/${id}`, { content: 'two' });
    t.clock.advance(1000);
    await t.as('hamlet').patch(`/messages/${id}`, { content: 'three' });
    expect(history(t, id).map((e) => e.prev_content)).toEqual(['two', 'one']);
  });

  it('only the sender may edit the content', async () => {
    const id = post(t, 'hamlet', 'Verona', 'castle', 'hello');
    const r = await t.as('othello').patch(`/messages/${id}`, { content: 'mine now' });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: "You don't have permission to edit this message" });
    expect(row(t, id)?.content).toBe('hello');
  });

  it("administrators cannot edit other users' content either", async () => {
    const id = post(t, 'hamlet', 'Verona', 'castle', 'hello');
    const r = await t.as('iago').patch(`/messages/${id}`, { content: 'admin edit' });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: "You don't have permission to edit this message" });
  });

  it('allow_message_editing false refuses content edits', async () => {
    realm(t, { allow_message_editing: false });
    const id = post(t, 'hamlet', 'Verona', 'castle', 'hello');
    const r = await t.as('hamlet').patch(`/messages/${id}`, { content: 'x' });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Your organization has turned off message editing' });
  });

  it('content edits past message_content_edit_limit_seconds (plus Zulip\'s 20 s grace) are refused', async () => {
    const id = post(t, 'hamlet', 'Verona', 'castle', 'hello', 600 + 21);
    const r = await t.as('hamlet').patch(`/messages/${id}`, { content: 'late' });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'The time limit for editing this message has passed' });
  });

  it('content edits within the limit plus the grace period are accepted', async () => {
    const id = post(t, 'hamlet', 'Verona', 'castle', 'hello', 600 + 15);
    const r = await t.as('hamlet').patch(`/messages/${id}`, { content: 'just in time' });
    expect(r.json.result).toBe('success');
  });

  it('message_content_edit_limit_seconds null means no limit', async () => {
    realm(t, { message_content_edit_limit_seconds: null });
    const id = post(t, 'hamlet', 'Verona', 'castle', 'hello', 86400 * 365);
    const r = await t.as('hamlet').patch(`/messages/${id}`, { content: 'a year later' });
    expect(r.json.result).toBe('success');
  });

  it('the content time limit does not bind moderators and administrators', async () => {
    const a = post(t, 'shiva', 'Verona', 'castle', 'moderator', 3600);
    const b = post(t, 'iago', 'Verona', 'castle', 'admin', 3600);
    expect((await t.as('shiva').patch(`/messages/${a}`, { content: 'edited' })).json.result).toBe('success');
    expect((await t.as('iago').patch(`/messages/${b}`, { content: 'edited' })).json.result).toBe('success');
  });

  it('prev_content_sha256 matching the stored content is accepted', async () => {
    const id = post(t, 'hamlet', 'Verona', 'castle', 'héllo wörld');
    const r = await t.as('hamlet').patch(`/messages/${id}`, { content: 'new', prev_content_sha256: sha256('héllo wörld') });
    expect(r.json.result).toBe('success');
  });

  it('prev_content_sha256 mismatch is HTTP 400 EXPECTATION_MISMATCH with field_name', async () => {
    const id = post(t, 'hamlet', 'Verona', 'castle', 'hello');
    const r = await t.as('hamlet').patch(`/messages/${id}`, { content: 'new', prev_content_sha256: sha256('something else') });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      result: 'error',
      code: 'EXPECTATION_MISMATCH',
      msg: "'prev_content_sha256' value does not match the expected value.",
      field_name: 'prev_content_sha256',
    });
    expect(row(t, id)?.content).toBe('hello');
  });

  it('content and stream_id together are rejected', async () => {
    const id = post(t, 'hamlet', 'Verona', 'castle', 'hello');
    const r = await t.as('hamlet').patch(`/messages/${id}`, { content: 'x', stream_id: channelId(t, 'Denmark') });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Cannot change message content while changing channel' });
  });

  it('content with stream_id naming the message\'s own channel is rejected too (the raw parameter counts, as in Zulip)', async () => {
    const id = post(t, 'hamlet', 'Verona', 'castle', 'hello');
    const r = await t.as('hamlet').patch(`/messages/${id}`, { content: 'x', stream_id: channelId(t, 'Verona') });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Cannot change message content while changing channel' });
    expect(row(t, id)?.content).toBe('hello');
  });

  it('an edit with nothing to change is rejected', async () => {
    const id = post(t, 'hamlet', 'Verona', 'castle', 'hello');
    const r = await t.as('hamlet').patch(`/messages/${id}`, {});
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Nothing to change' });
  });

  it('only change_one is valid for a content-only edit', async () => {
    const id = post(t, 'hamlet', 'Verona', 'castle', 'hello');
    const r = await t.as('hamlet').patch(`/messages/${id}`, { content: 'x', propagate_mode: 'change_all' });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid propagate_mode without topic edit' });
  });

  it('an unknown propagate_mode is rejected', async () => {
    const id = post(t, 'hamlet', 'Verona', 'castle', 'hello');
    const r = await t.as('hamlet').patch(`/messages/${id}`, { content: 'x', propagate_mode: 'change_some' });
    expect(r.json).toMatchObject({ code: 'REQUEST_VARIABLE_INVALID', var_name: 'propagate_mode' });
  });

  it('a nonexistent message is BAD_REQUEST "Invalid message(s)"', async () => {
    const r = await t.as('hamlet').patch('/messages/999999', { content: 'x' });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid message(s)' });
  });

  it('a message the actor cannot see is "Invalid message(s)" too', async () => {
    const id = dm(t, 'hamlet', ['othello'], 'secret');
    const r = await t.as('cordelia').patch(`/messages/${id}`, { content: 'x' });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid message(s)' });
  });

  it('blank content is stored as "(deleted)"', async () => {
    const id = post(t, 'hamlet', 'Verona', 'castle', 'hello');
    await t.as('hamlet').patch(`/messages/${id}`, { content: '   ' });
    expect(row(t, id)?.content).toBe('(deleted)');
  });

  it('content longer than max_message_length is truncated', async () => {
    realm(t, { max_message_length: 50 });
    const id = post(t, 'hamlet', 'Verona', 'castle', 'hello');
    await t.as('hamlet').patch(`/messages/${id}`, { content: 'x'.repeat(80) });
    const content = row(t, id)!.content;
    expect([...content].length).toBe(50);
    expect(content.endsWith('\n[message truncated]')).toBe(true);
  });

  it('direct messages can be edited by their sender', async () => {
    const id = dm(t, 'hamlet', ['othello'], 'psst');
    const r = await t.as('hamlet').patch(`/messages/${id}`, { content: 'psst!' });
    expect(r.json.result).toBe('success');
    expect(row(t, id)?.content).toBe('psst!');
  });

  it('unsupported parameters (a redundant message_id) come back in ignored_parameters_unsupported', async () => {
    const id = post(t, 'hamlet', 'Verona', 'castle', 'hello');
    const r = await t.as('hamlet').patch(`/messages/${id}`, { content: 'x', message_id: id });
    expect(r.json).toMatchObject({ result: 'success', ignored_parameters_unsupported: ['message_id'] });
  });
});

describe('PATCH /messages/{id}: what readers see afterwards', () => {
  const search = async (word: string) => {
    const r = await t.as('othello').get('/messages', { anchor: 'newest', num_before: 50, num_after: 0, narrow: [{ operator: 'search', operand: word }] });
    return (r.json.messages as Array<{ id: number }>).map((m) => m.id);
  };

  it('full-text search follows the new content', async () => {
    const id = post(t, 'hamlet', 'Verona', 'castle', 'a quokka appears');
    await t.as('hamlet').patch(`/messages/${id}`, { content: 'a wombat appears' });
    expect(await search('wombat')).toEqual([id]);
    expect(await search('quokka')).toEqual([]);
  });

  it('GET /messages/{id} shows the new content, last_edit_timestamp and the edit history', async () => {
    const id = post(t, 'hamlet', 'Verona', 'castle', 'before');
    t.clock.advance(1000);
    await t.as('hamlet').patch(`/messages/${id}`, { content: 'after' });
    const r = await t.as('othello').get(`/messages/${id}`, { apply_markdown: false });
    expect(r.json.message).toMatchObject({
      content: 'after',
      last_edit_timestamp: now(),
      edit_history: [{ user_id: t.userId('hamlet'), timestamp: now(), prev_content: 'before', prev_rendered_content: '<p>before</p>' }],
    });
    expect(r.json.message).not.toHaveProperty('last_moved_timestamp');
  });
});

describe('PATCH /messages/{id}: content and mentions', () => {
  it('adding a mention sets the mentioned flag; removing it clears the flag', async () => {
    const id = post(t, 'hamlet', 'Verona', 'castle', 'hello');
    await t.as('hamlet').patch(`/messages/${id}`, { content: 'hello @**Othello, the Moor of Venice**' });
    expect(flagsOf(t, 'othello', id)! & FLAG.mentioned).toBeTruthy();
    t.clock.advance(1000);
    await t.as('hamlet').patch(`/messages/${id}`, { content: 'hello' });
    expect(flagsOf(t, 'othello', id)! & FLAG.mentioned).toBe(0);
  });

  it('an edit that adds a channel wildcard in a channel above the threshold needs can_mention_many_users_group: STREAM_WILDCARD_MENTION_NOT_ALLOWED', async () => {
    realm(t, { wildcard_mention_threshold: 2 });
    const id = post(t, 'hamlet', 'Verona', 'castle', 'hello');
    const r = await t.as('hamlet').patch(`/messages/${id}`, { content: 'hello @**all**' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      result: 'error',
      code: 'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
      msg: 'You do not have permission to use channel wildcard mentions in this channel.',
    });
  });

  it('an edit that keeps an existing channel wildcard needs no permission', async () => {
    const id = post(t, 'hamlet', 'Verona', 'castle', 'hello @**all**');
    realm(t, { wildcard_mention_threshold: 2 });
    const r = await t.as('hamlet').patch(`/messages/${id}`, { content: 'hello again @**all**' });
    expect(r.json.result).toBe('success');
  });

  it('members of can_mention_many_users_group may add channel wildcards', async () => {
    realm(t, { wildcard_mention_threshold: 2 });
    const id = post(t, 'iago', 'Verona', 'castle', 'hello');
    const r = await t.as('iago').patch(`/messages/${id}`, { content: 'hello @**all**' });
    expect(r.json.result).toBe('success');
    expect(flagsOf(t, 'othello', id)! & FLAG.stream_wildcard_mentioned).toBeTruthy();
  });

  it('an edit that adds a topic wildcard in a topic with many participants: TOPIC_WILDCARD_MENTION_NOT_ALLOWED', async () => {
    realm(t, { wildcard_mention_threshold: 1 });
    post(t, 'othello', 'Verona', 'castle', 'first');
    const id = post(t, 'hamlet', 'Verona', 'castle', 'second');
    const r = await t.as('hamlet').patch(`/messages/${id}`, { content: 'hey @**topic**' });
    expect(r.json).toEqual({
      result: 'error',
      code: 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED',
      msg: 'You do not have permission to use topic wildcard mentions in this topic.',
    });
  });
});

describe('PATCH /messages/{id}: group mentions', () => {
  it("an edit mentioning a group the editor may not mention is refused (the group's can_mention_group)", async () => {
    const db = t.server.state.db;
    const nobody = db.prepare("SELECT id FROM user_groups WHERE name = 'role:nobody'").pluck().get() as number;
    const settings = JSON.parse(db.prepare("SELECT settings FROM user_groups WHERE name = 'leads'").pluck().get() as string) as Record<string, unknown>;
    db.prepare("UPDATE user_groups SET settings = ? WHERE name = 'leads'").run(JSON.stringify({ ...settings, can_mention_group: nobody }));
    const id = post(t, 'hamlet', 'Verona', 'castle', 'hello');
    const r = await t.as('hamlet').patch(`/messages/${id}`, { content: 'hello @*leads*' });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: "You are not allowed to mention user group 'leads'." });
  });

  it('an edit adding a group mention sets mentioned for the members', async () => {
    const id = post(t, 'iago', 'Verona', 'castle', 'hello');
    await t.as('iago').patch(`/messages/${id}`, { content: 'hello @*leads*' });
    expect(flagsOf(t, 'othello', id)! & FLAG.mentioned).toBeTruthy();
    expect(flagsOf(t, 'cordelia', id)! & FLAG.mentioned).toBe(0);
  });
});

describe('PATCH /messages/{id}: detached_uploads', () => {
  it('an edit that removes the only link to an upload of the actor reports it in detached_uploads', async () => {
    const srv = t.server.state;
    const upload = atomically(srv, () => createUpload(srv, t.userId('hamlet'), 'plan.txt', 'text/plain', Buffer.from('the plan')));
    const id = post(t, 'hamlet', 'Verona', 'castle', `see [plan.txt](${uploadUrl(upload.path_id)})`);
    const r = await t.as('hamlet').patch(`/messages/${id}`, { content: 'never mind' });
    expect(r.json.detached_uploads).toEqual([
      { id: upload.id, name: 'plan.txt', path_id: upload.path_id, size: 8, create_time: upload.create_time, messages: [] },
    ]);
  });

  it('an upload still linked from another message is not detached', async () => {
    const srv = t.server.state;
    const upload = atomically(srv, () => createUpload(srv, t.userId('hamlet'), 'plan.txt', 'text/plain', Buffer.from('x')));
    const link = `[plan.txt](${uploadUrl(upload.path_id)})`;
    post(t, 'hamlet', 'Verona', 'castle', link);
    const id = post(t, 'hamlet', 'Verona', 'castle', link);
    const r = await t.as('hamlet').patch(`/messages/${id}`, { content: 'gone' });
    expect(r.json.detached_uploads).toEqual([]);
  });
});

describe('PATCH /messages/{id}: the update_message event of a content edit', () => {
  it('carries the real Zulip fields: no op, stream_id/stream_name, orig_* and new content, no move fields', async () => {
    const id = post(t, 'hamlet', 'Verona', 'castle', 'hello');
    const q = await queue(t, 'cordelia');
    t.clock.advance(2000);
    await t.as('hamlet').patch(`/messages/${id}`, { content: '**hi**' });
    const events = withoutIds(await q.events('update_message'));
    expect(events).toEqual([
      {
        type: 'update_message',
        user_id: t.userId('hamlet'),
        edit_timestamp: now(),
        message_id: id,
        message_ids: [id],
        flags: [],
        rendering_only: false,
        stream_id: channelId(t, 'Verona'),
        stream_name: 'Verona',
        orig_content: 'hello',
        orig_rendered_content: '<p>hello</p>',
        content: '**hi**',
        rendered_content: '<p><strong>hi</strong></p>',
        is_me_message: false,
      },
    ]);
  });

  it('flags are the receiving user\'s flags after the edit', async () => {
    const id = post(t, 'hamlet', 'Verona', 'castle', 'hello');
    const q = await queue(t, 'othello');
    await t.as('hamlet').patch(`/messages/${id}`, { content: 'hi @**Othello, the Moor of Venice**' });
    const [e] = await q.events('update_message');
    expect(e?.flags).toEqual(['mentioned']);
  });

  it('content is the raw Markdown even for queues registered with apply_markdown', async () => {
    const id = post(t, 'hamlet', 'Verona', 'castle', 'hello');
    const q = await queue(t, 'cordelia', undefined, { apply_markdown: true });
    await t.as('hamlet').patch(`/messages/${id}`, { content: '*x*' });
    const [e] = await q.events('update_message');
    expect(e).toMatchObject({ content: '*x*', rendered_content: '<p><em>x</em></p>' });
  });

  it('a direct-message edit has no channel fields and reaches the participants only', async () => {
    const id = dm(t, 'hamlet', ['othello'], 'psst');
    const qo = await queue(t, 'othello');
    const qc = await queue(t, 'cordelia');
    await t.as('hamlet').patch(`/messages/${id}`, { content: 'psst!' });
    const [e] = await qo.events('update_message');
    expect(e).toBeDefined();
    expect(e).not.toHaveProperty('stream_id');
    expect(e).not.toHaveProperty('stream_name');
    expect(e).not.toHaveProperty('propagate_mode');
    expect(await qc.events('update_message')).toEqual([]);
  });

  it('a /me edit reports is_me_message true', async () => {
    const id = post(t, 'hamlet', 'Verona', 'castle', 'hello');
    const q = await queue(t, 'othello');
    await t.as('hamlet').patch(`/messages/${id}`, { content: '/me waves' });
    const [e] = await q.events('update_message');
    expect(e?.is_me_message).toBe(true);
  });
});
