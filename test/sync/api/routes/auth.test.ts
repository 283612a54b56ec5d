import { describe, expect, it } from 'vitest';
import { RateLimitedError, UnauthorizedError } from '../../../../sync/api/errors.js';
import { fetchApiKey } from '../../../../sync/api/routes/auth.js';
import { emptySuccess } from '../../../../sync/api/schemas/envelope.js';
import { fakeServer, ok } from '../fake-transport.js';

describe('auth routes', () => {
  it('fetchApiKey POSTs username and password raw, without an Authorization header', async () => {
    const f = fakeServer();
    f.reply(ok({ api_key: 'gjA04ZYcqXKalvYMA8OeXSfzUOLrtbZv', email: 'iago@zulip.com', user_id: 5 }));
    const res = await fetchApiKey(f.conn, { username: 'iago@zulip.com', password: 'p&ss=w"rd 1' });
    const req = f.only();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/fetch_api_key');
    expect(req.query).toEqual({});
    expect(req.body).toEqual({ username: 'iago@zulip.com', password: 'p&ss=w"rd 1' });
    expect(Object.keys(req.headers).map((h) => h.toLowerCase())).not.toContain('authorization');
    expect(res).toMatchObject({ api_key: 'gjA04ZYcqXKalvYMA8OeXSfzUOLrtbZv', email: 'iago@zulip.com', user_id: 5 });
  });

  it('authenticated requests on the same connection do carry the header (the test above can fail)', async () => {
    const f = fakeServer();
    await f.conn.request({ method: 'POST', path: '/x', schema: emptySuccess });
    expect(f.only().headers.authorization).toMatch(/^Basic /);
  });

  it('user_id is optional (servers before FL 171)', async () => {
    const f = fakeServer();
    f.reply(ok({ api_key: 'k', email: 'a@b.c' }));
    const res = await fetchApiKey(f.conn, { username: 'ldapuser', password: 'x' });
    expect(res.user_id).toBeUndefined();
    expect(res.api_key).toBe('k');
  });

  it('wrong credentials are a 401 unauthorized error with the code', async () => {
    const f = fakeServer();
    f.reply({ status: 401, json: { result: 'error', msg: 'Your username or password is incorrect', code: 'AUTHENTICATION_FAILED' } });
    const err = await fetchApiKey(f.conn, { username: 'a@b.c', password: 'wrong' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect(err).toMatchObject({ kind: 'unauthorized', code: 'AUTHENTICATION_FAILED', httpStatus: 401 });
  });

  it('too many attempts are rate limited with the retry delay', async () => {
    const f = fakeServer();
    f.reply({
      status: 429,
      json: { result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT', 'retry-after': 28.5 },
      headers: { 'Retry-After': '28.5' },
    });
    const err = await fetchApiKey(f.conn, { username: 'a@b.c', password: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect(err).toMatchObject({ kind: 'rate_limited', retryAfterMs: 28500 });
  });
});
