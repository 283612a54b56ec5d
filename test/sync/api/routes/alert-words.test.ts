import { describe, expect, it } from 'vitest';
import { MalformedResponseError, ZulipApiError } from '../../../../sync/api/errors.js';
import { addAlertWords, getAlertWords, removeAlertWords } from '../../../../sync/api/routes/alert-words.js';
import { fakeServer, ok } from '../fake-transport.js';

describe('alert word routes', () => {
  it('getAlertWords GETs /users/me/alert_words and returns the list', async () => {
    const f = fakeServer();
    f.reply(ok({ alert_words: ['natural', 'illustrious'] }));
    const res = await getAlertWords(f.conn);
    const req = f.only();
    expect([req.method, req.path, req.query]).toEqual(['GET', '/users/me/alert_words', {}]);
    expect(res.alert_words).toEqual(['natural', 'illustrious']);
  });

  it('addAlertWords POSTs alert_words as a JSON list in the body', async () => {
    const f = fakeServer();
    f.reply(ok({ alert_words: ['foo', 'a, b'] }));
    const res = await addAlertWords(f.conn, { alert_words: ['foo', 'a, b'] });
    const req = f.only();
    expect([req.method, req.path]).toEqual(['POST', '/users/me/alert_words']);
    expect(req.body).toEqual({ alert_words: '["foo","a, b"]' });
    expect(res.alert_words).toEqual(['foo', 'a, b']);
  });

  it('removeAlertWords DELETEs with alert_words as a JSON list in the query', async () => {
    const f = fakeServer();
    f.reply(ok({ alert_words: [] }));
    await removeAlertWords(f.conn, { alert_words: ['foo'] });
    const req = f.only();
    expect([req.method, req.path, req.query]).toEqual(['DELETE', '/users/me/alert_words', { alert_words: '["foo"]' }]);
  });

  it('a too-long word is a BAD_REQUEST api error; a list of non-strings is malformed', async () => {
    const f = fakeServer();
    f.reply({ status: 400, json: { result: 'error', code: 'BAD_REQUEST', msg: 'alert_words[0] is too long (limit: 100 characters)' } });
    expect(await addAlertWords(f.conn, { alert_words: ['x'.repeat(101)] }).catch((e: unknown) => e)).toBeInstanceOf(ZulipApiError);
    f.reply(ok({ alert_words: [1] }));
    expect(await getAlertWords(f.conn).catch((e: unknown) => e)).toBeInstanceOf(MalformedResponseError);
  });
});
