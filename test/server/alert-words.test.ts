/**
 * Alert words (OpenAPI get/add/remove-alert-words; Zulip's zerver/lib/alert_words.py): the
 * per-user list, its event and register key, and the `has_alert_word` flag (`is:alerted`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { channelId, fetchMessageAs, openQueue, sendAs, uniqueTopic } from './messages-util.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const words = async (who: string) => (await t.as(who).get('/users/me/alert_words')).json.alert_words;

describe('GET, POST, DELETE /users/me/alert_words', () => {
  it('starts empty; POST adds (stripped, empty dropped, case-insensitive duplicates ignored) and answers the whole list', async () => {
    expect(await t.as('cordelia').get('/users/me/alert_words')).toMatchObject({ status: 200, json: { result: 'success', msg: '', alert_words: [] } });
    const r = await t.as('cordelia').post('/users/me/alert_words', { alert_words: ['  Lear ', 'crown', '', 'LEAR', 'France'] });
    expect(r.json).toEqual({ result: 'success', msg: '', alert_words: ['Lear', 'crown', 'France'] });
    const again = await t.as('cordelia').post('/users/me/alert_words', { alert_words: ['CROWN', 'storm'] });
    expect(again.json.alert_words).toEqual(['Lear', 'crown', 'France', 'storm']);
    expect(await words('cordelia')).toEqual(['Lear', 'crown', 'France', 'storm']);
    expect(await words('hamlet')).toEqual([]);
  });

  it('DELETE removes case-insensitively, ignores unknown words, and answers the rest', async () => {
    const r = await t.as('cordelia').delete('/users/me/alert_words', { alert_words: ['lear', 'nothing'] });
    expect(r.json).toEqual({ result: 'success', msg: '', alert_words: ['crown', 'France', 'storm'] });
  });

  it('a word over 100 characters is BAD_REQUEST naming its index; a non-list is refused', async () => {
    const r = await t.as('cordelia').post('/users/me/alert_words', { alert_words: ['ok', 'x'.repeat(101)] });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'alert_words[1] is too long (limit: 100 characters)' });
    expect((await t.as('cordelia').post('/users/me/alert_words', { alert_words: 'crown' })).json.code).toBe('INVALID_JSON');
    expect((await t.as('cordelia').post('/users/me/alert_words', { alert_words: '"crown"' })).json.code).toBe('REQUEST_VARIABLE_INVALID');
    expect((await t.as('cordelia').post('/users/me/alert_words', {})).json).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'alert_words' });
    expect(await words('cordelia')).toEqual(['crown', 'France', 'storm']);
  });

  it('changes send the alert_words event to the user; register returns the list under alert_words', async () => {
    const q = openQueue(t, 'cordelia');
    await t.as('cordelia').post('/users/me/alert_words', { alert_words: ['heath'] });
    expect(await q.ofType('alert_words')).toEqual([expect.objectContaining({ alert_words: ['crown', 'France', 'storm', 'heath'] })]);
    const reg = await t.as('cordelia').post('/register', { fetch_event_types: ['alert_words'] });
    expect(reg.json.alert_words).toEqual(['crown', 'France', 'storm', 'heath']);
  });
});

describe('has_alert_word', () => {
  it('a message containing an alert word (as a word, any case) flags it for that user only, never the sender', async () => {
    await t.as('hamlet').post('/users/me/alert_words', { alert_words: ['ghost'] });
    const topic = uniqueTopic('alerts');
    const hit = (await sendAs(t, 'cordelia', { type: 'stream', to: channelId(t, 'Verona'), topic, content: 'A GHOST, (Ghost) and the ghost.' })).json.id as number;
    const miss = (await sendAs(t, 'cordelia', { type: 'stream', to: channelId(t, 'Verona'), topic, content: 'ghostly ghosts' })).json.id as number;
    const own = (await sendAs(t, 'hamlet', { type: 'stream', to: channelId(t, 'Verona'), topic, content: 'my ghost' })).json.id as number;
    expect((await fetchMessageAs(t, 'hamlet', hit)).flags).toContain('has_alert_word');
    expect((await fetchMessageAs(t, 'hamlet', miss)).flags).not.toContain('has_alert_word');
    expect((await fetchMessageAs(t, 'hamlet', own)).flags).not.toContain('has_alert_word');
    expect((await fetchMessageAs(t, 'othello', hit)).flags).not.toContain('has_alert_word');
    const alerted = await t.as('hamlet').get('/messages', { anchor: 'newest', num_before: 20, num_after: 0, narrow: [{ operator: 'is', operand: 'alerted' }] });
    const ids = (alerted.json.messages as Array<{ id: number }>).map((m) => m.id);
    expect(ids).toContain(hit);
    expect(ids).not.toContain(miss);
  });

  it('an edit recomputes the flag', async () => {
    const id = (await sendAs(t, 'cordelia', { type: 'stream', to: channelId(t, 'Verona'), topic: uniqueTopic('edit'), content: 'plain' })).json.id as number;
    expect((await fetchMessageAs(t, 'hamlet', id)).flags).not.toContain('has_alert_word');
    expect((await t.as('cordelia').patch(`/messages/${id}`, { content: 'a ghost!' })).json.result).toBe('success');
    expect((await fetchMessageAs(t, 'hamlet', id)).flags).toContain('has_alert_word');
    expect((await t.as('cordelia').patch(`/messages/${id}`, { content: 'plain again' })).json.result).toBe('success');
    expect((await fetchMessageAs(t, 'hamlet', id)).flags).not.toContain('has_alert_word');
  });

  it('the message event of a queue narrowed to is:alerted carries only alerted messages', async () => {
    const q = openQueue(t, 'hamlet', { narrow: [['is', 'alerted']] });
    const topic = uniqueTopic('event');
    await sendAs(t, 'cordelia', { type: 'stream', to: channelId(t, 'Verona'), topic, content: 'nothing here' });
    const hit = (await sendAs(t, 'cordelia', { type: 'stream', to: channelId(t, 'Verona'), topic, content: 'ghost' })).json.id as number;
    const events = await q.ofType('message');
    expect(events.map((e) => (e.message as { id: number }).id)).toEqual([hit]);
    expect(events[0]!.flags).toContain('has_alert_word');
  });
});
