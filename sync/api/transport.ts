/**
 * The seam between the API core and the network. The core builds a fully encoded request and hands
 * it to a `Transport`; tests pass a recording fake, the app passes the undici transport below.
 * A transport either resolves with the whole response (status, lower-cased headers, body text) or
 * rejects; the core decides what a rejection means (timeout, abort, network, too large).
 *
 * Bodies are bounded: past `maxBodyBytes` (announced by Content-Length, or counted while reading)
 * the transport stops reading, drops the connection and rejects with `ResponseTooLargeError`, so a
 * never-ending answer costs at most the cap in memory, not everything until the deadline.
 */
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { loadUndici, networkDispatcher, type NetworkSettings } from './network.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface HttpRequest {
  readonly method: HttpMethod;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Form or query text; bytes for a multipart upload. */
  readonly body: string | Buffer | undefined;
  readonly signal: AbortSignal;
  /** Stop reading (and reject with `ResponseTooLargeError`) past this many body bytes. */
  readonly maxBodyBytes?: number;
  /** Told how many bytes of a `Buffer` body the connection has taken so far (an upload's progress). */
  readonly onBodySent?: (sent: number, total: number) => void;
}

/** The answer's body went past the request's `maxBodyBytes`: reading stopped there. */
export class ResponseTooLargeError extends Error {
  override readonly name = 'ResponseTooLargeError';
  constructor(
    readonly status: number,
    readonly limitBytes: number,
    /** Body bytes actually read before giving up (0 when Content-Length announced too much). */
    readonly bytesRead: number,
  ) {
    super(`response body over ${limitBytes} bytes (HTTP ${status}; ${bytesRead} bytes read, the rest refused)`);
  }
}

export interface HttpResponse {
  readonly status: number;
  /** Header names lower-cased; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string;
}

export type Transport = (req: HttpRequest) => Promise<HttpResponse>;

/**
 * Slices handed to the socket when it asks for more: its pace is the network's (after the socket's
 * buffers). 1 MiB: a 10 MB file still reports ten steps, and each slice is one turn of the event
 * loop (64 KiB slices made a 10 MB upload's drain 2.9x a plain upload against 1.7-2.0x).
 */
const BODY_SLICE = 1024 * 1024;

/** A buffer as a stream that says how much of it was taken each time the connection asks for more. */
function countedBody(body: Buffer, onSent: (sent: number, total: number) => void): Readable {
  let at = 0;
  return new Readable({
    highWaterMark: BODY_SLICE,
    read() {
      if (at > 0) onSent(at, body.length);
      if (at >= body.length) {
        this.push(null);
        return;
      }
      const next = Math.min(at + BODY_SLICE, body.length);
      this.push(body.subarray(at, next));
      at = next;
    },
  });
}

/** An answer whose body is kept as bytes (uploaded files), not decoded as text. */
export interface BytesResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: Buffer;
}

/** Like `Transport`, for binary bodies; the same cap and the same `ResponseTooLargeError`. */
export type BytesTransport = (req: HttpRequest) => Promise<BytesResponse>;

export interface UndiciTransportOptions {
  /** Upper bound on sockets per origin (the pool). Default 6, like browsers. */
  readonly connections?: number;
  /** How long an idle keep-alive socket stays open. Default 30 s. */
  readonly keepAliveTimeoutMs?: number;
  /** Proxy and extra trusted certificates (network.ts); none: straight to the server, system roots. */
  readonly network?: NetworkSettings;
}

export interface ClosableTransport {
  readonly transport: Transport;
  /** The same pool, for binary bodies. */
  readonly bytes: BytesTransport;
  close(): Promise<void>;
}

/** An undici `Agent` with keep-alive and a bounded pool; deadlines come from the request's signal. */
export function createUndiciTransport(opts: UndiciTransportOptions = {}): ClosableTransport {
  const base = {
    connections: opts.connections ?? 6,
    keepAliveTimeout: opts.keepAliveTimeoutMs ?? 30_000,
    keepAliveMaxTimeout: 10 * 60_000,
    // Our AbortSignal enforces the real deadlines (the long-poll one is long); these are backstops.
    headersTimeout: 0,
    bodyTimeout: 0,
  };
  // Made on the first request (undici loads then: network.ts `loadUndici`).
  let agent: Promise<Dispatcher> | undefined;
  const dispatcher = () => (agent ??= loadUndici().then((u) => (opts.network ? networkDispatcher(u, opts.network, base) : new u.Agent(base))));
  const bytes: BytesTransport = async (req) => {
    const { onBodySent, body } = req;
    const [{ request }, dispatcherNow] = await Promise.all([loadUndici(), dispatcher()]);
    const counted = onBodySent && Buffer.isBuffer(body) ? countedBody(body, onBodySent) : undefined;
    const res = await request(req.url, {
      method: req.method,
      // A counted body goes as a stream, so its length must be said (no chunked encoding).
      headers: counted ? { ...req.headers, 'content-length': String(body!.length) } : req.headers,
      body: counted ?? body,
      signal: req.signal,
      dispatcher: dispatcherNow,
    });
    const limit = req.maxBodyBytes ?? Number.POSITIVE_INFINITY;
    const announced = Number(res.headers['content-length']);
    if (Number.isFinite(announced) && announced > limit) {
      res.body.destroy();
      throw new ResponseTooLargeError(res.statusCode, limit, 0);
    }
    const chunks: Buffer[] = [];
    let read = 0;
    for await (const chunk of res.body) {
      const buf: Buffer = Buffer.isBuffer(chunk) ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk) : Buffer.from(String(chunk), 'utf8');
      read += buf.length;
      if (read > limit) {
        // Destroying the body closes the socket: nothing more is read or buffered.
        res.body.destroy();
        throw new ResponseTooLargeError(res.statusCode, limit, read);
      }
      chunks.push(buf);
    }
    const headers: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(res.headers)) {
      headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
    }
    return { status: res.statusCode, headers, body: Buffer.concat(chunks) };
  };
  const transport: Transport = async (req) => {
    const res = await bytes(req);
    return { status: res.status, headers: res.headers, body: res.body.toString('utf8') };
  };
  return { transport, bytes, close: async () => (agent === undefined ? undefined : (await agent).close()) };
}
