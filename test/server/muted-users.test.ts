/**
 * Muted users (OpenAPI mute-user / unmute-user; Zulip's zerver/actions/muted_users.py): the list in
 * register, the `muted_users` event, Zulip's errors, and the read flags: muting marks the muted
 * user's messages read for the muter, and their later messages arrive read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { fetchMessageAs, openQueue, sendAs, uniqueTopic } from './messages-util.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const mutedOf = async (who: string) => (await t.as(who).post('/register', { fetch_event_types: ['muted_users'] })).json.muted_users as Array<{ id: number; timestamp: number }>;

describe('POST and DELETE /users/me/muted_users/{muted_user_id}', () => {
  it('mute: the list in register and an event; earlier messages become read, later ones arrive read', async () => {
    const topic = uniqueTopic('mute');
    const before = Number((await sendAs(t, 'iago', { type: 'stream', to: 'Verona', topic, content: 'before the mute' })).json.id);
    expect(await fetchMessageAs(t, 'cordelia', before)).toMatchObject({ flags: [] });
    const q = openQueue(t, 'cordelia');
    const r = await t.as('cordelia').post(`/users/me/muted_users/${t.userId('iago')}`);
    expect(r.json).toEqual({ result: 'success', msg: '' });
    const list = await mutedOf('cordelia');
    expect(list.map((m) => m.id)).toEqual([t.userId('iago')]);
    expect(list[0]!.timestamp).toBe(Math.floor(t.clock.now() / 1000));
    expect((await q.ofType('muted_users')).map((e) => e['muted_users'])).toEqual([list]);
    expect((await q.ofType('update_message_flags')).some((e) => e['flag'] === 'read' && (e['messages'] as number[]).includes(before))).toBe(true);
    expect((await fetchMessageAs(t, 'cordelia', before)).flags).toContain('read');

    const after = Number((await sendAs(t, 'iago', { type: 'stream', to: 'Verona', topic, content: 'after the mute' })).json.id);
    expect((await fetchMessageAs(t, 'cordelia', after)).flags).toContain('read');
    // Nobody else is affected.
    expect((await fetchMessageAs(t, 'hamlet', after)).flags).not.toContain('read');
    expect(await mutedOf('hamlet')).toEqual([]);
  });

  it('Zulip\'s errors: self, twice, an unknown user; unmute of someone not muted', async () => {
    const iago = t.userId('iago');
    expect((await t.as('cordelia').post(`/users/me/muted_users/${iago}`)).json).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'User already muted' });
    expect((await t.as('cordelia').post(`/users/me/muted_users/${t.userId('cordelia')}`)).json).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Cannot mute self' });
    expect((await t.as('cordelia').post('/users/me/muted_users/999999')).json).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'No such user' });
    expect((await t.as('cordelia').delete('/users/me/muted_users/999999')).json).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'No such user' });
    expect((await t.as('cordelia').delete(`/users/me/muted_users/${t.userId('hamlet')}`)).json).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'User is not muted' });
    expect((await t.as('cordelia').post('/users/me/muted_users/abc')).status).toBe(400);
  });

  it('unmute: gone from the list, an event; new messages arrive unread again', async () => {
    const q = openQueue(t, 'cordelia');
    expect((await t.as('cordelia').delete(`/users/me/muted_users/${t.userId('iago')}`)).json).toEqual({ result: 'success', msg: '' });
    expect(await mutedOf('cordelia')).toEqual([]);
    expect((await q.ofType('muted_users')).map((e) => e['muted_users'])).toEqual([[]]);
    const id = Number((await sendAs(t, 'iago', { type: 'stream', to: 'Verona', topic: uniqueTopic('mute'), content: 'unmuted' })).json.id);
    expect((await fetchMessageAs(t, 'cordelia', id)).flags).not.toContain('read');
  });
});
