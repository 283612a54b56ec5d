/**
 * Error classification end to end: the real undici transport against a real node:http server on
 * 127.0.0.1 (port 0), one route per failure mode. Every case is bounded by short deadlines.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ApiConnection } from '../../../sync/api/core.js';
import { success } from '../../../sync/api/schemas/envelope.js';
import { createUndiciTransport } from '../../../sync/api/transport.js';

const sockets = new Set<Socket>();
const remotePorts: number[] = [];
let connectionsOpened = 0;
let lastRequest: { url: string; headers: IncomingMessage['headers']; body: string } | undefined;
let lastBodyBytes = 0;

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  '/api/v1/ok': (_req, res) => json(res, 200, { result: 'success', msg: '', id: 1 }, { 'X-RateLimit-Limit': '200', 'X-RateLimit-Remaining': '150', 'X-RateLimit-Reset': '1700000000' }),
  '/api/v1/unauthorized': (_req, res) =>
    json(res, 401, { result: 'error', msg: 'Not logged in: API authentication or user session required', code: 'UNAUTHORIZED' }, { 'WWW-Authenticate': 'Basic realm="zulip"' }),
  '/api/v1/rate-limited': (_req, res) =>
    json(res, 429, { result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT', 'retry-after': 1.5 }, { 'Retry-After': '0.75', 'X-RateLimit-Limit': '200', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '1700000001' }),
  '/api/v1/bad-gateway': (_req, res) => {
    res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>');
  },
  '/api/v1/reset': (req) => req.socket.destroy(),
  '/api/v1/stall': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"result":"success",'); // ...and never finishes
  },
  '/api/v1/invalid-json': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"success","msg":"",');
  },
  '/api/v1/missing-field': (_req, res) => json(res, 200, { result: 'success', msg: '' }),
  '/api/v1/echo': (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      lastRequest = { url: req.url ?? '', headers: req.headers, body };
      lastBodyBytes = Buffer.byteLength(body, 'utf8');
      remotePorts.push(req.socket.remotePort ?? 0);
      json(res, 200, { result: 'success', msg: '', id: 2 });
    });
  },
};

const server = createServer((req, res) => {
  const path = (req.url ?? '').split('?')[0] ?? '';
  const handler = routes[path];
  if (handler) handler(req, res);
  else json(res, 404, { result: 'error', msg: 'Not found', code: 'BAD_REQUEST' });
});
server.on('connection', (s: Socket) => {
  sockets.add(s);
  connectionsOpened++;
  s.on('close', () => sockets.delete(s));
});

let base = '';
let transport: ReturnType<typeof createUndiciTransport>;
let conn: ApiConnection;
const schema = success({ id: z.number().int() });

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  transport = createUndiciTransport({ connections: 2 });
  conn = new ApiConnection({ realmUrl: base, email: 'iago@example.com', apiKey: 'k3y', transport: transport.transport, timeoutMs: 2_000, logger: { warn: () => undefined } });
});

afterAll(async () => {
  await transport.close();
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const get = (path: string, timeoutMs?: number) =>
  conn.request({ method: 'GET', path, schema, ...(timeoutMs ? { timeoutMs } : {}) }).then(
    (v) => ({ ok: true as const, v }),
    (e: unknown) => ({ ok: false as const, e }),
  );

describe('error classification over loopback HTTP', () => {
  it('a success parses, with X-RateLimit-* exposed', async () => {
    const r = await get('/ok');
    expect(r).toMatchObject({ ok: true, v: { id: 1 } });
    expect(conn.rateLimit).toEqual({ limit: 200, remaining: 150, resetAtSeconds: 1700000000 });
  });

  it('401 with WWW-Authenticate is unauthorized', async () => {
    const r = await get('/unauthorized');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.e).toMatchObject({ kind: 'unauthorized', httpStatus: 401, code: 'UNAUTHORIZED', wwwAuthenticate: 'Basic realm="zulip"' });
  });

  it('429 with a fractional Retry-After is rate limited, header first', async () => {
    const r = await get('/rate-limited');
    expect(!r.ok && r.e).toMatchObject({ kind: 'rate_limited', httpStatus: 429, retryAfterMs: 750, rateLimit: { remaining: 0 } });
  });

  it('502 with an HTML body is a server error', async () => {
    const r = await get('/bad-gateway');
    expect(!r.ok && r.e).toMatchObject({ kind: 'server', httpStatus: 502, code: undefined });
    expect(!r.ok && (r.e as { bodySnippet: string }).bodySnippet).toContain('502 Bad Gateway');
  });

  it('a connection reset is a network error', async () => {
    const r = await get('/reset');
    expect(!r.ok && r.e).toMatchObject({ kind: 'network', transient: true });
  });

  it('a response that stalls mid-body hits the timeout', async () => {
    const t0 = Date.now();
    const r = await get('/stall', 300);
    expect(!r.ok && r.e).toMatchObject({ kind: 'timeout', timeoutMs: 300 });
    expect(Date.now() - t0).toBeLessThan(2_000);
  });

  it('invalid JSON with a 200 is malformed (it probably succeeded: a write is verified), never a crash', async () => {
    const r = await get('/invalid-json');
    expect(!r.ok && r.e).toMatchObject({ kind: 'malformed', httpStatus: 200 });
  });

  it('a success body missing a required field is malformed', async () => {
    const r = await get('/missing-field');
    expect(!r.ok && r.e).toMatchObject({ kind: 'malformed', httpStatus: 200 });
  });

  it('a refused connection is a network error', async () => {
    const dead = new ApiConnection({ realmUrl: 'http://127.0.0.1:1', email: 'e', apiKey: 'k', timeoutMs: 2_000, transport: transport.transport });
    await expect(dead.request({ method: 'GET', path: '/ok', schema })).rejects.toMatchObject({ kind: 'network' });
  });

  it("an upload's body reports its progress as the connection takes it, with its length announced", async () => {
    const data = Buffer.alloc(8 * 1024 * 1024, 'a');
    const seen: Array<[number, number]> = [];
    const res = await conn.request({ method: 'POST', path: '/echo', schema, body: { contentType: 'application/octet-stream', data }, onBodySent: (sent, total) => seen.push([sent, total]) });
    expect(res.id).toBe(2);
    expect(lastRequest?.headers['content-length']).toBe(String(data.length));
    expect(lastRequest?.headers['transfer-encoding']).toBeUndefined();
    expect(lastBodyBytes).toBe(data.length);
    // Slices of 1 MiB, each told once, rising to the whole body.
    expect(seen.length).toBeGreaterThanOrEqual(4);
    expect(seen.every(([, total]) => total === data.length)).toBe(true);
    expect(seen.every(([sent], i) => i === 0 || sent > seen[i - 1]![0])).toBe(true);
    expect(seen.at(-1)).toEqual([data.length, data.length]);
  });

  it('sends Basic auth and a urlencoded body, and reuses the kept-alive connection', async () => {
    await conn.request({ method: 'GET', path: '/echo', schema }); // warm the pool
    const opened = connectionsOpened;
    remotePorts.length = 0;
    await conn.request({ method: 'POST', path: '/echo', params: { content: 'héllo wörld', flag: true }, schema });
    expect(lastRequest?.headers.authorization).toBe(`Basic ${Buffer.from('iago@example.com:k3y').toString('base64')}`);
    expect(lastRequest?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(lastRequest?.body))).toEqual({ content: 'héllo wörld', flag: 'true' });
    await conn.request({ method: 'GET', path: '/echo', params: { a: 1 }, schema });
    expect(lastRequest?.url).toBe('/api/v1/echo?a=1');
    expect(remotePorts).toHaveLength(2);
    expect(connectionsOpened).toBe(opened); // both answered on an already-open socket
  });

  it('the pool is bounded: 8 concurrent requests use at most 2 sockets', async () => {
    remotePorts.length = 0;
    await Promise.all(Array.from({ length: 8 }, () => conn.request({ method: 'GET', path: '/echo', schema })));
    expect(remotePorts).toHaveLength(8);
    expect(new Set(remotePorts).size).toBeLessThanOrEqual(2);
  });
});
