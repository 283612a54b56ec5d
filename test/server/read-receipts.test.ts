/**
 * GET /messages/{message_id}/read_receipts (OpenAPI get-read-receipts; Zulip's
 * zerver/views/read_receipts.py): who read a message, ascending; never the sender, nor users whose
 * `send_read_receipts` is off, nor anyone muted by or muting the requester; the realm's
 * `enable_read_receipts` off is an error; a message the requester cannot access is "Invalid message(s)".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { sendAs, uniqueTopic } from './messages-util.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const receipts = async (who: string, id: number) => (await t.as(who).get(`/messages/${id}/read_receipts`)).json;
const markRead = (who: string, id: number) => t.as(who).post('/messages/flags', { messages: JSON.stringify([id]), op: 'add', flag: 'read' });

describe('GET /messages/{message_id}/read_receipts', () => {
  it('the readers, the requester included, never the sender, nor those not sending receipts, nor muted ones either way', async () => {
    const id = Number((await sendAs(t, 'hamlet', { type: 'stream', to: 'Verona', topic: uniqueTopic('receipts'), content: 'Who read this?' })).json.id);
    expect(await receipts('iago', id)).toEqual({ result: 'success', msg: '', user_ids: [] });
    for (const who of ['iago', 'cordelia', 'othello', 'desdemona']) await markRead(who, id);
    const all = ['iago', 'cordelia', 'othello', 'desdemona'].map((w) => t.userId(w)).sort((a, b) => a - b);
    expect((await receipts('iago', id)).user_ids).toEqual(all);
    // The sender reads its own message: still never listed.
    expect((await receipts('hamlet', id)).user_ids).toEqual(all);

    await t.as('othello').patch('/settings', { send_read_receipts: false });
    await t.as('desdemona').post(`/users/me/muted_users/${t.userId('iago')}`);
    await t.as('iago').post(`/users/me/muted_users/${t.userId('cordelia')}`);
    expect((await receipts('iago', id)).user_ids).toEqual([t.userId('iago')]);
    // Muting is between the two: hamlet still sees cordelia and desdemona.
    expect((await receipts('hamlet', id)).user_ids).toEqual([t.userId('iago'), t.userId('cordelia'), t.userId('desdemona')].sort((a, b) => a - b));
    await t.as('othello').patch('/settings', { send_read_receipts: true });
    await t.as('desdemona').delete(`/users/me/muted_users/${t.userId('iago')}`);
    await t.as('iago').delete(`/users/me/muted_users/${t.userId('cordelia')}`);
  });

  it("Zulip's errors: an unknown or inaccessible message; the realm's read receipts turned off", async () => {
    expect(await receipts('iago', 99_999_999)).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid message(s)' });
    const dm = Number((await sendAs(t, 'hamlet', { type: 'private', to: JSON.stringify([t.userId('othello')]), content: 'between us' })).json.id);
    expect(await receipts('cordelia', dm)).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid message(s)' });
    expect((await t.as('iago').patch('/realm', { enable_read_receipts: false })).json).toMatchObject({ result: 'success' });
    expect((await t.as('iago').post('/register', { fetch_event_types: ['realm'] })).json.realm_enable_read_receipts).toBe(false);
    expect(await receipts('othello', dm)).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Read receipts are disabled in this organization.' });
    await t.as('iago').patch('/realm', { enable_read_receipts: true });
    expect((await receipts('othello', dm)).user_ids).toEqual([]);
  });
});
