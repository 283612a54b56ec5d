import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { ApiConnection, CLIENT_FEATURE_LEVEL } from '../../../sync/api/core.js';
import { AbortedError, TimeoutError } from '../../../sync/api/errors.js';
import { emptySuccess, success } from '../../../sync/api/schemas/envelope.js';
import type { Transport } from '../../../sync/api/transport.js';
import { fakeServer, ok } from './fake-transport.js';

/** A transport that never answers until its signal fires. */
const hangingTransport: Transport = (req) =>
  new Promise((_resolve, reject) => {
    req.signal.addEventListener('abort', () => reject(req.signal.reason), { once: true });
  });

describe('ApiConnection', () => {
  it('authenticates with HTTP Basic email:api_key', async () => {
    const f = fakeServer();
    await f.conn.request({ method: 'GET', path: '/users/me', schema: emptySuccess });
    expect(f.only().headers.authorization).toBe(`Basic ${Buffer.from('hamlet@example.com:key123').toString('base64')}`);
  });

  it('sends no Authorization header on unauthenticated endpoints', async () => {
    const f = fakeServer();
    await f.conn.request({ method: 'POST', path: '/fetch_api_key', auth: false, params: { username: 'a', password: 'b' }, schema: emptySuccess });
    expect(f.only().headers.authorization).toBeUndefined();
  });

  it('puts GET and DELETE parameters in the query string, others in a form body', async () => {
    const f = fakeServer();
    for (const method of ['GET', 'DELETE', 'POST', 'PATCH'] as const) {
      await f.conn.request({ method, path: '/x', params: { a: 'raw', b: [1] }, schema: emptySuccess });
    }
    const [get, del, post, patch] = f.calls;
    expect(get).toMatchObject({ query: { a: 'raw', b: '[1]' }, rawBody: undefined });
    expect(del).toMatchObject({ query: { a: 'raw', b: '[1]' }, rawBody: undefined });
    expect(post).toMatchObject({ query: {}, body: { a: 'raw', b: '[1]' } });
    expect(patch).toMatchObject({ query: {}, body: { a: 'raw', b: '[1]' } });
    expect(post?.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('strips trailing slashes from the realm URL and prefixes /api/v1', async () => {
    const seen: string[] = [];
    const conn = new ApiConnection({
      realmUrl: 'https://chat.example.com//', email: 'e', apiKey: 'k', logger: { warn: () => undefined },
      transport: async (req) => {
        seen.push(req.url);
        return { status: 200, headers: {}, body: '{"result":"success","msg":""}' };
      },
    });
    await conn.request({ method: 'GET', path: '/users/me', schema: emptySuccess });
    expect(seen).toEqual(['https://chat.example.com/api/v1/users/me']);
  });

  it('logs and reports ignored_parameters_unsupported, and returns it to the caller', async () => {
    const warn = vi.fn();
    const onResponse = vi.fn();
    const f = fakeServer({ logger: { warn }, onResponse });
    f.reply(ok({ ignored_parameters_unsupported: ['message_id'] }));
    const res = await f.conn.request({ method: 'PATCH', path: '/messages/1', schema: emptySuccess });
    expect(res.ignored_parameters_unsupported).toEqual(['message_id']);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('ignored'), { ignored: ['message_id'] });
    expect(onResponse).toHaveBeenCalledWith(expect.objectContaining({ ignoredParameters: ['message_id'], httpStatus: 200 }));
  });

  it('parses X-RateLimit-* headers and exposes the latest on the connection', async () => {
    const f = fakeServer();
    f.reply({ json: { result: 'success', msg: '' }, headers: { 'X-RateLimit-Limit': '200', 'X-RateLimit-Remaining': '199', 'X-RateLimit-Reset': '1700000060' } });
    await f.conn.request({ method: 'GET', path: '/x', schema: emptySuccess });
    expect(f.conn.rateLimit).toEqual({ limit: 200, remaining: 199, resetAtSeconds: 1700000060 });
  });

  it('a request past its deadline is a timeout error', async () => {
    const conn = new ApiConnection({ realmUrl: 'http://x', email: 'e', apiKey: 'k', transport: hangingTransport, timeoutMs: 30 });
    const err = await conn.request({ method: 'GET', path: '/x', schema: emptySuccess }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).toMatchObject({ kind: 'timeout', timeoutMs: 30, transient: true });
  });

  it('long-poll requests use the separate, longer deadline', async () => {
    const deadlines: number[] = [];
    const transport: Transport = (req) =>
      new Promise((_resolve, reject) => {
        const t0 = Date.now();
        req.signal.addEventListener('abort', () => {
          deadlines.push(Date.now() - t0);
          reject(req.signal.reason);
        });
      });
    const conn = new ApiConnection({ realmUrl: 'http://x', email: 'e', apiKey: 'k', transport, timeoutMs: 20, longPollTimeoutMs: 150 });
    const err = await conn.request({ method: 'GET', path: '/events', longPoll: true, schema: emptySuccess }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'timeout', timeoutMs: 150 });
    expect(deadlines[0]).toBeGreaterThanOrEqual(140);
  });

  it("the caller's AbortSignal gives an aborted error, not a timeout", async () => {
    const conn = new ApiConnection({ realmUrl: 'http://x', email: 'e', apiKey: 'k', transport: hangingTransport });
    const ac = new AbortController();
    const p = conn.request({ method: 'GET', path: '/x', schema: emptySuccess, signal: ac.signal });
    ac.abort();
    const err = await p.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AbortedError);
    expect(err).toMatchObject({ kind: 'aborted', transient: false });
  });

  it('an already-aborted signal sends nothing', async () => {
    const f = fakeServer();
    const ac = new AbortController();
    ac.abort();
    await expect(f.conn.request({ method: 'GET', path: '/x', schema: emptySuccess, signal: ac.signal })).rejects.toMatchObject({ kind: 'aborted' });
    expect(f.calls).toHaveLength(0);
  });

  it('a transport failure is a network error with its errno', async () => {
    const conn = new ApiConnection({
      realmUrl: 'http://x', email: 'e', apiKey: 'k',
      transport: async () => { throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }); },
    });
    await expect(conn.request({ method: 'GET', path: '/x', schema: emptySuccess })).rejects.toMatchObject({ kind: 'network', errno: 'ECONNRESET' });
  });

  it('typed results come from the schema', async () => {
    const f = fakeServer();
    f.reply(ok({ id: 7 }));
    const res = await f.conn.request({ method: 'POST', path: '/messages', schema: success({ id: z.number() }) });
    expect(res.id).toBe(7);
  });
});

describe('feature level and topics', () => {
  it('assumes the client level while unknown, and adapts once noted', () => {
    const f = fakeServer();
    expect(f.conn.featureLevel).toBeUndefined();
    expect(f.conn.effectiveFeatureLevel).toBe(CLIENT_FEATURE_LEVEL);
    expect(f.conn.supports(379)).toBe(true);
    f.conn.noteServerVersion({ featureLevel: 300, zulipVersion: '9.0' });
    expect(f.conn.supports(379)).toBe(false);
    expect(f.conn.zulipVersion).toBe('9.0');
  });

  it('derives the long-poll deadline from the server period plus a margin', () => {
    const f = fakeServer();
    f.conn.noteLongPollTimeout(90);
    expect(f.conn.longPollTimeoutMs).toBe(100_000);
    f.conn.noteLongPollTimeout(0);
    expect(f.conn.longPollTimeoutMs).toBe(100_000);
    // A server's absurd period is clipped to 10 min (plus the margin), never past what a timer holds.
    f.conn.noteLongPollTimeout(1e9);
    expect(f.conn.longPollTimeoutMs).toBe(610_000);
    f.conn.noteLongPollTimeout(Number.NaN);
    expect(f.conn.longPollTimeoutMs).toBe(610_000);
  });

  it('a deadline beyond what setTimeout holds (or NaN) does not fire at once', async () => {
    for (const timeoutMs of [1e12, 2 ** 31, Number.POSITIVE_INFINITY, Number.NaN]) {
      const transport: Transport = (req) =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(() => resolve({ status: 200, headers: {}, body: '{"result":"success","msg":""}' }), 30);
          req.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(req.signal.reason);
          });
        });
      const conn = new ApiConnection({ realmUrl: 'http://x', email: 'e', apiKey: 'k', transport, timeoutMs });
      await expect(conn.request({ method: 'GET', path: '/x', schema: emptySuccess }), String(timeoutMs)).resolves.toMatchObject({ result: 'success' });
    }
  });

  it('sends the empty-topic display name as "" from FL 334, unchanged before', () => {
    const f = fakeServer({ featureLevel: 334 });
    f.conn.emptyTopicDisplayName = 'general chat';
    expect(f.conn.topicForWire('general chat')).toBe('');
    expect(f.conn.topicForWire('lunch')).toBe('lunch');
    f.conn.noteServerVersion({ featureLevel: 333 });
    expect(f.conn.topicForWire('general chat')).toBe('general chat');
    expect(f.conn.topicFromWire('general chat')).toBe('');
  });
});
