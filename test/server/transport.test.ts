/** The HTTP front of the reference server: envelopes, auth, parameters, limits. Plain HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('reference server transport', () => {
  it('prints a loopback URL and serves GET /server_settings without auth at feature level 420', async () => {
    expect(t.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const r = await t.raw('GET', '/server_settings');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ result: 'success', msg: '', zulip_feature_level: 420, realm_url: t.url });
  });

  it('unknown routes get a 404 JSON envelope with a code', async () => {
    const r = await t.raw('GET', '/no/such/route');
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });

  it('paths outside /api/v1 also get a JSON envelope, never HTML', async () => {
    const res = await fetch(`${t.url}/index.html`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });

  it('a known path with the wrong method is 405 with allowed_methods', async () => {
    const r = await t.raw('DELETE', '/server_settings');
    expect(r.status).toBe(405);
    expect(r.json).toMatchObject({ result: 'error', code: 'BAD_REQUEST', allowed_methods: ['GET'] });
    expect(r.headers.get('allow')).toBe('GET');
  });

  it('no credentials: 401 UNAUTHORIZED with WWW-Authenticate: Basic realm="zulip"', async () => {
    const r = await t.raw('GET', '/users/me');
    expect([401, 404, 405]).toContain(r.status);
    if (r.status === 401) {
      expect(r.json.code).toBe('UNAUTHORIZED');
      expect(r.headers.get('www-authenticate')).toBe('Basic realm="zulip"');
    }
  });

  it('fetch_api_key: the demo accounts log in with the sandbox password', async () => {
    const r = await t.raw('POST', '/fetch_api_key', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'username=hamlet%40example.com&password=sandbox',
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ result: 'success', email: 'hamlet@example.com', user_id: t.userId('hamlet'), api_key: t.server.apiKey('hamlet@example.com') });
  });

  it('fetch_api_key: a wrong password is 401 AUTHENTICATION_FAILED', async () => {
    const r = await t.raw('POST', '/fetch_api_key', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'username=hamlet%40example.com&password=nope' });
    expect(r.status).toBe(401);
    expect(r.json).toMatchObject({ result: 'error', code: 'AUTHENTICATION_FAILED' });
  });

  it('fetch_api_key: a missing parameter is REQUEST_VARIABLE_MISSING naming it', async () => {
    const r = await t.raw('POST', '/fetch_api_key', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'username=hamlet%40example.com' });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'password' });
  });

  it('parameters may come in the query string of any method', async () => {
    const r = await t.raw('POST', '/fetch_api_key?username=hamlet%40example.com&password=sandbox');
    expect(r.json).toMatchObject({ result: 'success', email: 'hamlet@example.com' });
  });

  it('multipart/form-data bodies are accepted', async () => {
    const form = new FormData();
    form.append('username', 'hamlet@example.com');
    form.append('password', 'sandbox');
    const res = await fetch(`${t.url}/api/v1/fetch_api_key`, { method: 'POST', body: form });
    expect(await res.json()).toMatchObject({ result: 'success', email: 'hamlet@example.com' });
  });

  it('unknown parameters are listed in ignored_parameters_unsupported on success', async () => {
    const r = await t.raw('POST', '/fetch_api_key?username=hamlet%40example.com&password=sandbox&zzz=1&aaa=2');
    expect(r.json.ignored_parameters_unsupported).toEqual(['aaa', 'zzz']);
  });

  it('an oversized body is 413 with the JSON envelope', async () => {
    const r = await t.raw('POST', '/fetch_api_key', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `username=${'x'.repeat(6 * 1024 * 1024)}`,
    });
    expect(r.status).toBe(413);
    expect(r.json).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });

  it('a long query string (200 KB) is accepted; an oversized request head gets a JSON 431', async () => {
    const long = await t.raw('POST', `/fetch_api_key?username=hamlet%40example.com&password=sandbox&pad=${'x'.repeat(200_000)}`);
    expect(long.json).toMatchObject({ result: 'success', ignored_parameters_unsupported: ['pad'] });
    const huge = await t.raw('GET', `/server_settings?pad=${'x'.repeat(2_000_000)}`);
    expect(huge.status).toBe(431);
    expect(huge.json).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });

  it('a malformed multipart body is a 400 envelope, not a crash', async () => {
    const r = await t.raw('POST', '/fetch_api_key', { headers: { 'content-type': 'multipart/form-data; boundary=zz' }, body: '--zz\r\nbroken' });
    expect(r.status).toBe(400);
    expect(r.json.result).toBe('error');
  });
});

describe('rate limiting', () => {
  it('over the limit: 429 RATE_LIMIT_HIT with fractional Retry-After and X-RateLimit-* headers', async () => {
    const s = await startTestServer({ config: { rateLimit: { requests: 1000, windowSeconds: 60, authRequests: 2, authWindowSeconds: 10 } } });
    try {
      const login = () => s.raw('POST', '/fetch_api_key?username=hamlet%40example.com&password=sandbox');
      const first = await login();
      expect(first.status).toBe(200);
      expect(first.headers.get('x-ratelimit-limit')).toBe('2');
      expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
      await login();
      s.clock.advance(2_500);
      const limited = await login();
      expect(limited.status).toBe(429);
      expect(limited.json).toMatchObject({ result: 'error', code: 'RATE_LIMIT_HIT', 'retry-after': 7.5 });
      expect(limited.headers.get('retry-after')).toBe('7.5');
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
      s.clock.advance(7_500);
      expect((await login()).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

describe('shutdown', () => {
  it('a request queued behind a long-poll on a kept-alive socket is refused once close() begins (503 SERVER_NOT_READY), never served', async () => {
    const { Agent, request } = await import('undici');
    const s = await startTestServer({ config: { longPollSeconds: 30 } });
    // One socket: the second request waits behind the long-poll and goes out when close() answers it.
    const agent = new Agent({ connections: 1, pipelining: 1, keepAliveTimeout: 30_000 });
    try {
      const auth = { authorization: `Basic ${Buffer.from(`hamlet@example.com:${s.server.apiKey('hamlet@example.com')}`).toString('base64')}` };
      const reg = await request(`${s.url}/api/v1/register`, { method: 'POST', dispatcher: agent, headers: auth });
      const { queue_id } = (await reg.body.json()) as { queue_id: string };
      const poll = request(`${s.url}/api/v1/events?queue_id=${queue_id}&last_event_id=-1`, { dispatcher: agent, headers: auth }).then(async (r) => r.body.json());
      const queued = request(`${s.url}/api/v1/register`, { method: 'POST', dispatcher: agent, headers: auth }).then(
        async (r) => ({ status: r.statusCode, body: (await r.body.json()) as { code?: string } }),
        (e: unknown) => ({ status: 0, body: { code: String((e as { code?: string }).code) } }),
      );
      await new Promise((r) => setTimeout(r, 200));
      const closing = s.close();
      expect(await poll).toMatchObject({ result: 'success', events: [] });
      expect(await queued).toMatchObject({ status: 503, body: { code: 'SERVER_NOT_READY' } });
      await closing;
    } finally {
      await agent.close();
    }
  });
});
