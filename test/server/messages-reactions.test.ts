/**
 * Reactions: POST and DELETE /messages/{message_id}/reactions (docs/zulip-behaviour.md "Error codes
 * and HTTP status", "Flags and reactions").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addReaction } from '../../server/model/reactions.js';
import { getUser } from '../../server/model/users.js';
import { atomically } from '../../server/events/emit.js';
import { startTestServer, type TestServer } from './harness.js';
import { channelId, openQueue, uniqueTopic } from './messages-util.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function send(who: string, channel: string): Promise<number> {
  return (await t.as(who).post('/messages', { type: 'stream', to: channelId(t, channel), topic: uniqueTopic(), content: 'x' })).json.id as number;
}
async function reactionsOf(who: string, id: number) {
  return ((await t.as(who).get(`/messages/${id}`)).json.message as { reactions: unknown[] }).reactions;
}
const react = (who: string, id: number, params: Record<string, string>) => t.as(who).post(`/messages/${id}/reactions`, params);
const unreact = (who: string, id: number, params: Record<string, string>) => t.as(who).delete(`/messages/${id}/reactions`, params);

describe('POST /messages/{message_id}/reactions', () => {
  it('adds a Unicode emoji reaction by name', async () => {
    const id = await send('hamlet', 'Verona');
    const r = await react('othello', id, { emoji_name: 'octopus' });
    expect(r.json).toEqual({ result: 'success', msg: '' });
    expect(await reactionsOf('hamlet', id)).toEqual([{ emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji', user_id: t.userId('othello') }]);
  });

  it('accepts an explicit emoji_code and reaction_type', async () => {
    const id = await send('hamlet', 'Verona');
    expect((await react('othello', id, { emoji_name: 'heart', emoji_code: '2764', reaction_type: 'unicode_emoji' })).status).toBe(200);
  });

  it('the same reaction twice is REACTION_ALREADY_EXISTS', async () => {
    const id = await send('hamlet', 'Verona');
    await react('othello', id, { emoji_name: 'smile' });
    const r = await react('othello', id, { emoji_name: 'smile' });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'REACTION_ALREADY_EXISTS' });
  });

  it('an unknown emoji name is BAD_REQUEST', async () => {
    const id = await send('hamlet', 'Verona');
    expect((await react('othello', id, { emoji_name: 'no_such_emoji_here' })).json.code).toBe('BAD_REQUEST');
  });

  it('a code that does not match the name is BAD_REQUEST', async () => {
    const id = await send('hamlet', 'Verona');
    expect((await react('othello', id, { emoji_name: 'smile', emoji_code: '1f419', reaction_type: 'unicode_emoji' })).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid emoji code.' });
  });

  it("a vote for an existing reaction (same code) keeps the existing emoji's name", async () => {
    const id = await send('hamlet', 'Verona');
    await react('othello', id, { emoji_name: '+1' });
    await react('cordelia', id, { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' });
    expect((await reactionsOf('hamlet', id)).map((r) => (r as { emoji_name: string }).emoji_name)).toEqual(['+1', '+1']);
  });

  it('the zulip extra emoji is supported', async () => {
    const id = await send('hamlet', 'Verona');
    await react('othello', id, { emoji_name: 'zulip' });
    expect(await reactionsOf('hamlet', id)).toEqual([{ emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji', user_id: t.userId('othello') }]);
  });

  it('emoji_name is required', async () => {
    const id = await send('hamlet', 'Verona');
    expect((await react('othello', id, {})).json).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'emoji_name' });
  });

  it('a message the user cannot see is "Invalid message(s)"', async () => {
    const id = await send('iago', 'core team');
    expect((await react('othello', id, { emoji_name: 'smile' })).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid message(s)' });
    expect((await react('othello', 99999999, { emoji_name: 'smile' })).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid message(s)' });
  });

  it('reacting to readable channel history gives the reactor a historical row', async () => {
    const id = await send('iago', 'Scotland');
    await react('hamlet', id, { emoji_name: 'smile' });
    expect(((await t.as('hamlet').get(`/messages/${id}`)).json.message as { flags: string[] }).flags).toEqual(['read', 'historical']);
    expect(t.server.state.db.prepare('SELECT flags FROM user_messages WHERE user_id = ? AND message_id = ?').get(t.userId('hamlet'), id)).toBeDefined();
  });

  it('sends a reaction add event (with user_id and the deprecated user) to the message recipients', async () => {
    const id = await send('hamlet', 'Verona');
    const q = openQueue(t, 'cordelia');
    const outsider = openQueue(t, 'polonius');
    await react('othello', id, { emoji_name: 'tada' });
    expect(await q.ofType('reaction')).toEqual([
      expect.objectContaining({
        type: 'reaction',
        op: 'add',
        message_id: id,
        emoji_name: 'tada',
        emoji_code: '1f389',
        reaction_type: 'unicode_emoji',
        user_id: t.userId('othello'),
        user: { user_id: t.userId('othello'), email: 'othello@example.com', full_name: 'Othello, the Moor of Venice' },
      }),
    ]);
    expect(await outsider.ofType('reaction')).toEqual([]);
  });

  it('addReaction is callable from the model (demo seed)', async () => {
    const id = await send('hamlet', 'Verona');
    const srv = t.server.state;
    atomically(srv, () => addReaction(srv, getUser(srv, t.userId('iago'))!, id, { emojiName: 'rocket' }));
    expect(await reactionsOf('hamlet', id)).toHaveLength(1);
  });
});

describe('DELETE /messages/{message_id}/reactions', () => {
  it('removes the reaction by name and sends a remove event', async () => {
    const id = await send('hamlet', 'Verona');
    await react('othello', id, { emoji_name: 'smile' });
    const q = openQueue(t, 'hamlet');
    const r = await unreact('othello', id, { emoji_name: 'smile' });
    expect(r.json).toEqual({ result: 'success', msg: '' });
    expect(await reactionsOf('hamlet', id)).toEqual([]);
    expect(await q.ofType('reaction')).toEqual([expect.objectContaining({ op: 'remove', message_id: id, emoji_code: '263a', user_id: t.userId('othello') })]);
  });

  it('removes by emoji_code and reaction_type alone', async () => {
    const id = await send('hamlet', 'Verona');
    await react('othello', id, { emoji_name: 'smile' });
    expect((await unreact('othello', id, { emoji_code: '263a', reaction_type: 'unicode_emoji' })).status).toBe(200);
  });

  it("a reaction the user has not made is REACTION_DOES_NOT_EXIST", async () => {
    const id = await send('hamlet', 'Verona');
    await react('othello', id, { emoji_name: 'smile' });
    const r = await unreact('cordelia', id, { emoji_name: 'smile' });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'REACTION_DOES_NOT_EXIST' });
  });

  it('neither emoji_name nor emoji_code is BAD_REQUEST', async () => {
    const id = await send('hamlet', 'Verona');
    expect((await unreact('othello', id, {})).json.code).toBe('BAD_REQUEST');
  });
});
