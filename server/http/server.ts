/**
 * The HTTP front: `/api/v1/*` (and uploaded files under `/user_uploads/*`), JSON envelopes for
 * every answer (including 404, 405, 413, malformed input and internal errors), Basic auth, rate
 * limits, parameters from body and query.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { atomically } from '../events/emit.js';
import { authenticate } from './auth.js';
import { readBody, type BodyLimits } from './body.js';
import { JsonableError } from './errors.js';
import { Params } from './params.js';
import { RawResponse } from './raw.js';
import { RateLimiter } from './ratelimit.js';
import type { Router } from './router.js';
import type { PublicCtx } from '../routes/context.js';
import type { ServerState } from '../state.js';

const API_PREFIX = '/api/v1';
/** Served outside the API, as in Zulip. */
const ROOT_PREFIXES = ['/user_uploads/', '/user_avatars/', '/external_content/', '/static/generated/emoji/'];

/** With `unread`, the request whose body is still arriving: the answer goes out now, the close after it (`closeAfterBody`). */
function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}, unread?: IncomingMessage): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    ...headers,
  });
  if (unread === undefined) {
    res.end(text);
  } else {
    res.write(text);
    closeAfterBody(unread, res);
  }
}

function sendError(res: ServerResponse, e: JsonableError, headers: Record<string, string> = {}, unread?: IncomingMessage): void {
  send(res, e.httpStatus, { result: 'error', msg: e.message, code: e.code, ...e.extra }, { ...headers, ...e.headers }, unread);
}

function sendRaw(res: ServerResponse, r: RawResponse, headers: Record<string, string>): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(r.status, { ...headers, ...r.headers, 'content-length': String(r.body.length) });
  res.end(r.body);
}

/**
 * `router` serves the API below `/api/v1`; `rootRouter` the few paths real Zulip serves outside
 * it (uploaded files under `/user_uploads/`, custom emoji under `/user_avatars/`, the emoji name table under `/static/generated/emoji/`), with the same authentication and error envelopes.
 */
export function createHttpServer(srv: ServerState, router: Router<PublicCtx>, rootRouter?: Router<PublicCtx>): Server {
  const rl = srv.config.rateLimit;
  const userLimiter = rl ? new RateLimiter(srv.clock, rl.requests, rl.windowSeconds) : undefined;
  const authLimiter = rl ? new RateLimiter(srv.clock, rl.authRequests, rl.authWindowSeconds) : undefined;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let rateHeaders: Record<string, string> = {};
    try {
      if (srv.lifecycle.closing) {
        // A kept-alive socket can still carry a request after close() began; never serve it (it
        // could register a queue on a server that is going away).
        throw new JsonableError('SERVER_NOT_READY', 'The server is shutting down', 503, {}, { Connection: 'close' });
      }
      const url = new URL(req.url ?? '/', 'http://localhost');
      const isApi = url.pathname.startsWith(API_PREFIX + '/');
      if (!isApi && !(rootRouter && ROOT_PREFIXES.some((p) => url.pathname.startsWith(p)))) throw new JsonableError('BAD_REQUEST', 'Not Found', 404);
      const match = isApi ? router.match(req.method ?? 'GET', url.pathname.slice(API_PREFIX.length)) : rootRouter!.match(req.method ?? 'GET', url.pathname);
      if (match.kind === 'not_found') throw new JsonableError('BAD_REQUEST', 'Not Found', 404);
      if (match.kind === 'method_not_allowed') {
        throw new JsonableError('BAD_REQUEST', 'Method Not Allowed', 405, { allowed_methods: match.allowed }, { Allow: match.allowed.join(', ') });
      }
      const { route, pathParams } = match;
      const remoteAddress = req.socket.remoteAddress ?? '';
      const user = route.options.auth === false ? undefined : authenticate(srv, req.headers);
      if (route.options.authAttempt && authLimiter) rateHeaders = authLimiter.hit(`addr:${remoteAddress}`).headers;
      else if (user && userLimiter && !user.is_bot) rateHeaders = userLimiter.hit(`user:${user.id}`).headers;

      // Only now, authenticated (or on a public route), is any of the body read.
      const body = await readBody(req, bodyLimits(srv, route.options.auth === false));
      const values = new Map<string, string>();
      for (const [k, v] of url.searchParams) values.set(k, v);
      for (const [k, v] of body.fields) values.set(k, v); // the body wins, as in Zulip
      const params = new Params(values, body.files);

      const abort = new AbortController();
      res.on('close', () => abort.abort());
      const ctx = { srv, user, params, path: pathParams, signal: abort.signal, remoteAddress };
      const result: unknown = route.options.async ? await route.handler(ctx) : atomically(srv, () => route.handler(ctx));
      if (result instanceof RawResponse) {
        sendRaw(res, result, rateHeaders);
        return;
      }
      const ignored = params.ignored();
      send(
        res,
        200,
        { result: 'success', msg: '', ...(isRecord(result) ? result : {}), ...(ignored.length ? { ignored_parameters_unsupported: ignored } : {}) },
        rateHeaders,
      );
    } catch (e) {
      const closing = settleUnreadBody(req);
      const unread = closing.Connection === undefined ? undefined : req;
      if (e instanceof JsonableError) {
        sendError(res, e, { ...rateHeaders, ...closing }, unread);
      } else {
        srv.log.error(`internal error on ${req.method} ${logUrl(req.url)}`, e);
        send(res, 500, { result: 'error', msg: 'Internal server error', code: 'BAD_REQUEST' }, closing, unread);
      }
    }
  }

  // Long GET query strings (narrows, message_ids) are legitimate: allow 1 MiB of request head.
  const server = createServer({ maxHeaderSize: 1024 * 1024 }, (req, res) => void handle(req, res));
  server.keepAliveTimeout = 65_000;
  // Errors Node's parser raises before any handler runs still get the JSON envelope.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return;
    const tooBig = err.code === 'HPE_HEADER_OVERFLOW';
    const body = JSON.stringify({ result: 'error', msg: tooBig ? 'Request header fields too large' : 'Bad request', code: 'BAD_REQUEST' });
    socket.end(
      `HTTP/1.1 ${tooBig ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\n` +
        `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}

/** Slack above the largest file for a multipart body's other fields and part headers. */
const MULTIPART_SLACK_BYTES = 1024 * 1024;

/** Authenticated routes may carry an upload; unauthenticated ones (fetch_api_key) only a small form. */
function bodyLimits(srv: ServerState, isPublic: boolean): BodyLimits {
  const c = srv.config;
  if (isPublic) return { form: c.publicBodyLimitBytes, multipart: c.publicBodyLimitBytes };
  return { form: c.formBodyLimitBytes, multipart: c.maxFileUploadMib * 1024 * 1024 + MULTIPART_SLACK_BYTES };
}

/** Unread bodies up to this size are drained after an error so the keep-alive connection stays usable. */
const DRAIN_LIMIT_BYTES = 64 * 1024;

/**
 * After an error the request body may be unread (refused before reading: bad auth, 404, a
 * declared length over the limit) or partly read (over the limit while reading). A small declared
 * body is drained to keep the connection; anything else is not parsed further: the answer says
 * `Connection: close` (and `closeAfterBody` closes the connection once the body stops arriving).
 */
function settleUnreadBody(req: IncomingMessage): { Connection?: string } {
  if (req.complete) return {};
  const declared = Number(req.headers['content-length']);
  if (req.readableFlowing === null && Number.isFinite(declared) && declared <= DRAIN_LIMIT_BYTES) {
    req.resume();
    return {};
  }
  req.pause();
  return { Connection: 'close' };
}

/** How long a refused body may keep arriving after the answer, in all and without a byte. */
const LINGER_MAX_MS = 5_000;
const LINGER_IDLE_MS = 500;

/**
 * Ends an answer sent while the client is still sending its (refused) body. Closing a socket with
 * unread bytes makes the kernel reset the connection, and a client that reads only once it has
 * written everything sees a broken pipe instead of the answer. So the rest of the body is read and
 * dropped until it ends, stops arriving for `LINGER_IDLE_MS`, or `LINGER_MAX_MS` have passed;
 * only then does the answer end (and Node close the connection, as `Connection: close` says).
 */
function closeAfterBody(req: IncomingMessage, res: ServerResponse): void {
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    clearTimeout(idle);
    clearTimeout(limit);
    req.off('data', onData);
    if (!res.destroyed) res.end();
  };
  const onData = () => idle.refresh();
  const idle = setTimeout(finish, LINGER_IDLE_MS).unref();
  const limit = setTimeout(finish, LINGER_MAX_MS).unref();
  req.on('data', onData);
  req.once('end', finish);
  req.once('close', finish);
  req.resume();
}

/** Longest URL a log line quotes: query strings are legitimately up to 1 MiB (narrows, message_ids). */
export const LOGGED_URL_MAX = 200;

/** A request URL as log lines quote it: cut to `LOGGED_URL_MAX` characters plus "…". */
export function logUrl(url: string | undefined): string {
  const u = url ?? '';
  return u.length > LOGGED_URL_MAX ? `${u.slice(0, LOGGED_URL_MAX)}…` : u;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
