/**
 * Request bodies are bounded and read only after authentication: a total limit per request
 * (multipart included), small for unauthenticated routes, enforced from `Content-Length` before any
 * byte is read and while reading a chunked body; past it the server answers 413 at once, stops
 * parsing, and drops what still arrives (briefly) before closing, so a client still sending gets the
 * answer instead of a reset. Raw sockets on loopback, every wait bounded.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

let t: TestServer;
beforeAll(async () => {
  // A 1 MiB upload limit keeps the multipart cases small: their total limit is 2 MiB.
  t = await startTestServer({ config: { maxFileUploadMib: 1 } });
});
afterAll(() => t.close());

interface RawExchange {
  /** Everything the server answered before it closed the connection (or the deadline). */
  readonly response: string;
  /** Body bytes this client had written when the first byte of the answer arrived. */
  readonly sentBeforeAnswer: number;
  /** Whether the server closed the connection. */
  readonly closed: boolean;
}

/**
 * Sends a request head, then body chunks one by one (waiting for each to be flushed and a moment
 * after), stopping as soon as an answer starts, after `maxBody` bytes, or at the deadline.
 */
function exchange(head: string, chunk: Buffer, maxBody: number, opts: { chunked?: boolean; deadlineMs?: number } = {}): Promise<RawExchange> {
  const url = new URL(t.url);
  return new Promise((resolve) => {
    const socket: Socket = connect(Number(url.port), '127.0.0.1');
    let response = '';
    let sent = 0;
    let sentBeforeAnswer = -1;
    let closed = false;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      socket.destroy();
      resolve({ response, sentBeforeAnswer: sentBeforeAnswer < 0 ? sent : sentBeforeAnswer, closed });
    };
    const deadline = setTimeout(finish, opts.deadlineMs ?? 5_000);
    socket.on('data', (d: Buffer) => {
      if (sentBeforeAnswer < 0) sentBeforeAnswer = sent;
      response += d.toString('latin1');
    });
    socket.on('end', () => {
      closed = true;
      finish();
    });
    socket.on('close', () => {
      closed = true;
      finish();
    });
    socket.on('error', () => undefined); // the server may reset a connection it stopped reading
    const pump = () => {
      if (done || sentBeforeAnswer >= 0 || sent >= maxBody) return;
      const piece = opts.chunked ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]) : chunk;
      sent += chunk.length;
      socket.write(piece, () => setTimeout(pump, 2));
    };
    socket.write(head, () => setTimeout(pump, 20));
  });
}

/**
 * A client that reads nothing until it has written its whole body (as many simple clients do) and
 * gives up at the first write error: it sees an answer only if the server lets the body arrive.
 */
function writeAllThenRead(head: string, body: Buffer): Promise<{ readonly response: string; readonly error?: string }> {
  const url = new URL(t.url);
  return new Promise((resolve) => {
    const socket: Socket = connect(Number(url.port), '127.0.0.1');
    socket.pause();
    let response = '';
    const deadline = setTimeout(() => {
      socket.destroy();
      resolve({ response, error: 'deadline' });
    }, 10_000);
    socket.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(deadline);
      resolve({ response, error: e.code ?? e.message });
    });
    socket.on('data', (d: Buffer) => (response += d.toString('latin1')));
    socket.on('end', () => {
      clearTimeout(deadline);
      socket.destroy();
      resolve({ response });
    });
    socket.write(head);
    socket.end(body, () => socket.resume());
  });
}

const status = (response: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1]);
const jsonBody = (response: string) => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
const host = () => new URL(t.url).host;
const basic = (email: string, key: string) => `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;

describe('request body limits', () => {
  it('fetch_api_key (no auth) with a declared 100 MiB body: 413 at once, before the client sends any of it', async () => {
    const head = `POST /api/v1/fetch_api_key HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${100 * 1024 * 1024}\r\n\r\n`;
    const r = await exchange(head, Buffer.alloc(16 * 1024, 'x'), 100 * 1024 * 1024);
    expect(status(r.response)).toBe(413);
    expect(jsonBody(r.response)).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Request body too large (limit: 65536 bytes)', max_bytes: 65536 });
    expect(r.response.toLowerCase()).toContain('connection: close');
    expect(r.sentBeforeAnswer).toBeLessThanOrEqual(64 * 1024);
    expect(r.closed).toBe(true);
  });

  it('fetch_api_key with a chunked body (no length): 413 once 64 KiB have arrived, long before the 64 MiB the client would send', async () => {
    const head = `POST /api/v1/fetch_api_key HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const r = await exchange(head, Buffer.alloc(16 * 1024, 'x'), 64 * 1024 * 1024, { chunked: true });
    expect(status(r.response)).toBe(413);
    expect(jsonBody(r.response)).toMatchObject({ code: 'BAD_REQUEST', max_bytes: 65536 });
    // The server stops at 64 KiB; what the client wrote beyond that sat in socket buffers.
    expect(r.sentBeforeAnswer).toBeLessThan(8 * 1024 * 1024);
    expect(r.closed).toBe(true);
  });

  it('a client still sending when the 413 is answered gets it, not a reset: the rest of its body is read and dropped before the close', async () => {
    const body = Buffer.alloc(4 * 1024 * 1024, 'x');
    const declared = `POST /api/v1/fetch_api_key HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n`;
    const first = await writeAllThenRead(declared, body);
    expect(first.error).toBeUndefined();
    expect(status(first.response)).toBe(413);
    expect(jsonBody(first.response)).toMatchObject({ code: 'BAD_REQUEST', max_bytes: 65536 });

    const chunked = `POST /api/v1/fetch_api_key HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const encoded = Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
    const second = await writeAllThenRead(chunked, encoded);
    expect(second.error).toBeUndefined();
    expect(status(second.response)).toBe(413);
  });

  it('the same for multipart to fetch_api_key: the small limit holds whatever the content type', async () => {
    const head = `POST /api/v1/fetch_api_key HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: multipart/form-data; boundary=zz\r\nContent-Length: ${10 * 1024 * 1024}\r\n\r\n`;
    const r = await exchange(head, Buffer.alloc(16 * 1024, 'x'), 10 * 1024 * 1024);
    expect(status(r.response)).toBe(413);
    expect(r.sentBeforeAnswer).toBeLessThanOrEqual(64 * 1024);
  });

  it('an authenticated route with a bad key answers 401 without reading a large declared body', async () => {
    const head =
      `POST /api/v1/user_uploads HTTP/1.1\r\nHost: ${host()}\r\nAuthorization: ${basic('hamlet@example.com', 'wrong')}\r\n` +
      `Content-Type: multipart/form-data; boundary=zz\r\nContent-Length: ${50 * 1024 * 1024}\r\n\r\n`;
    const r = await exchange(head, Buffer.alloc(16 * 1024, 'x'), 50 * 1024 * 1024);
    expect(status(r.response)).toBe(401);
    expect(jsonBody(r.response)).toMatchObject({ code: 'INVALID_API_KEY' });
    expect(r.sentBeforeAnswer).toBeLessThanOrEqual(64 * 1024);
    expect(r.closed).toBe(true);
  });

  it('a multipart body over the total limit (upload size + 1 MiB) is 413 even when every part is under it', async () => {
    const key = t.server.apiKey('hamlet@example.com');
    const fd = new FormData();
    for (let i = 0; i < 3; i++) fd.append(`field${i}`, 'y'.repeat(900 * 1024));
    fd.append('file', new Blob(['small']), 'small.txt');
    const res = await fetch(`${t.url}/api/v1/user_uploads`, { method: 'POST', headers: { authorization: basic('hamlet@example.com', key) }, body: fd });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: `Request body too large (limit: ${2 * 1024 * 1024} bytes)`, max_bytes: 2 * 1024 * 1024 });
  });

  it('an upload within the limits still works, and a small refused body keeps the connection alive', async () => {
    const { Agent, request } = await import('undici');
    const agent = new Agent({ connections: 1, keepAliveTimeout: 10_000 });
    try {
      const key = t.server.apiKey('hamlet@example.com');
      const bad = await request(`${t.url}/api/v1/users/me/alert_words`, {
        method: 'POST',
        headers: { authorization: basic('hamlet@example.com', 'wrong'), 'content-type': 'application/x-www-form-urlencoded' },
        body: 'a=1',
        dispatcher: agent,
      });
      expect(bad.statusCode).toBe(401);
      expect(bad.headers.connection).not.toBe('close');
      await bad.body.text();
      const fd = new FormData();
      fd.append('file', new Blob([Buffer.alloc(900 * 1024, 'z')]), 'big.bin');
      const encoded = new Request('http://localhost/', { method: 'POST', body: fd });
      const ok = await request(`${t.url}/api/v1/user_uploads`, {
        method: 'POST',
        headers: { authorization: basic('hamlet@example.com', key), 'content-type': encoded.headers.get('content-type')! },
        body: Buffer.from(await encoded.arrayBuffer()),
        dispatcher: agent,
      });
      expect(ok.statusCode).toBe(200);
      expect(((await ok.body.json()) as { filename: string }).filename).toBe('big.bin');
    } finally {
      await agent.close();
    }
  });
});
