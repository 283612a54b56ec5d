/**
 * Response bodies are capped: a server that streams for ever (or announces a huge Content-Length)
 * ends the request with a clear `malformed` error once the cap is passed, long before the
 * deadline, having read at most the cap plus one chunk. Local loopback server; bytes counted on
 * both sides.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  ApiConnection,
  createUndiciTransport,
  LARGE_RESPONSE_BYTES,
  READ_RESPONSE_BYTES,
  responseLimitFor,
  ResponseTooLargeError,
  WRITE_RESPONSE_BYTES,
} from '../../../sync/api/index.js';

const MiB = 1024 * 1024;
const CHUNK = 64 * 1024;
let server: http.Server;
let base = '';
let written = 0;
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url?.startsWith('/api/v1/announced')) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * MiB) });
      res.write('{"result":"success"');
      return;
    }
    // For ever, as fast as the client reads (backpressure), counting what was written.
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"result":"success","msg":"","x":"');
    const chunk = Buffer.alloc(CHUNK, 'x');
    const pump = () => {
      while (!res.destroyed) {
        written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
    };
    pump();
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => server.close(() => r()));
});

describe('response body caps', () => {
  it('the transport stops at the cap: bounded bytes read, the connection dropped', async () => {
    const t = createUndiciTransport();
    try {
      written = 0;
      const err = await t
        .transport({ method: 'GET', url: `${base}/api/v1/forever`, headers: {}, body: undefined, signal: AbortSignal.timeout(30_000), maxBodyBytes: 2 * MiB })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ResponseTooLargeError);
      const e = err as ResponseTooLargeError;
      expect(e.status).toBe(200);
      expect(e.bytesRead).toBeGreaterThan(2 * MiB);
      expect(e.bytesRead).toBeLessThanOrEqual(2 * MiB + CHUNK + 64);
      // The server stops too (the socket is gone): what it wrote is the cap plus socket buffers, not more.
      await new Promise((r) => setTimeout(r, 100));
      const after = written;
      await new Promise((r) => setTimeout(r, 200));
      expect(written).toBe(after);
      expect(written).toBeLessThan(2 * MiB + 64 * MiB);
    } finally {
      await t.close();
    }
  });

  it('a Content-Length over the cap is refused before reading anything', async () => {
    const t = createUndiciTransport();
    try {
      const err = await t
        .transport({ method: 'GET', url: `${base}/api/v1/announced`, headers: {}, body: undefined, signal: AbortSignal.timeout(30_000), maxBodyBytes: MiB })
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ name: 'ResponseTooLargeError', bytesRead: 0, limitBytes: MiB });
    } finally {
      await t.close();
    }
  });

  it('through the connection: a write past its (small) cap is malformed, not a timeout, saying why', async () => {
    const conn = new ApiConnection({ realmUrl: base, email: 'e', apiKey: 'k', timeoutMs: 30_000, logger: { warn: () => undefined } });
    try {
      const err = await conn.request({ method: 'POST', path: '/forever', schema: z.object({}) }).catch((e: unknown) => e);
      expect(err).toMatchObject({ kind: 'malformed', httpStatus: 200 });
      expect((err as Error).message).toContain(`over ${WRITE_RESPONSE_BYTES} bytes`);
      const read = await conn.request({ method: 'GET', path: '/forever', schema: z.object({}), maxResponseBytes: 3 * MiB }).catch((e: unknown) => e);
      expect((read as Error).message).toContain(`over ${3 * MiB} bytes`);
    } finally {
      await conn.close();
    }
  });

  it('caps per operation: generous for history, the snapshot, users and events; small for writes', () => {
    expect(responseLimitFor('GET', '/messages')).toBe(LARGE_RESPONSE_BYTES);
    expect(responseLimitFor('POST', '/register')).toBe(LARGE_RESPONSE_BYTES);
    expect(responseLimitFor('GET', '/events')).toBe(LARGE_RESPONSE_BYTES);
    expect(responseLimitFor('GET', '/users')).toBe(LARGE_RESPONSE_BYTES);
    expect(responseLimitFor('GET', '/streams')).toBe(READ_RESPONSE_BYTES);
    expect(responseLimitFor('PATCH', '/messages/1')).toBe(WRITE_RESPONSE_BYTES);
    expect(LARGE_RESPONSE_BYTES).toBe(64 * MiB);
  });

  it('a transport that does not cap is held to the cap by the connection', async () => {
    const big = 'x'.repeat(2 * MiB);
    const conn = new ApiConnection({ realmUrl: base, email: 'e', apiKey: 'k', transport: async () => ({ status: 200, headers: {}, body: `{"result":"success","msg":"","x":"${big}"}` }) });
    const err = await conn.request({ method: 'POST', path: '/x', schema: z.object({}) }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'malformed' });
  });
});
