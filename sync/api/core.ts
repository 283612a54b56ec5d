/**
 * The one place that encodes requests, authenticates, enforces deadlines, classifies errors and
 * parses responses. Route modules only say method, path, parameters and schema.
 */
import type * as z from 'zod';
import { classifyResponse } from './classify.js';
import { encodeParams, type Params } from './encoding.js';
import { AbortedError, MalformedResponseError, NetworkError, TimeoutError, type ApiError, type RequestContext } from './errors.js';
import { parseRateLimitHeaders, type RateLimitInfo } from './rate-limit.js';
import type { NetworkSettings } from './network.js';
import { createUndiciTransport, ResponseTooLargeError, type BytesResponse, type BytesTransport, type HttpMethod, type HttpResponse, type Transport } from './transport.js';

/** The feature level this client is written against (the spec's). Assumed when the server's is unknown. */
export const CLIENT_FEATURE_LEVEL = 420;
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Zulip's historical long-poll period is 90 s; the margin covers a slow heartbeat. */
export const DEFAULT_LONG_POLL_TIMEOUT_MS = 100_000;
export const LONG_POLL_MARGIN_MS = 10_000;
const MiB = 1024 * 1024;
/** Body caps: generous where a realm's size shows (history, the snapshot, users, an event backlog). */
export const LARGE_RESPONSE_BYTES = 64 * MiB;
/** Other reads (channels, groups, snippets, one message, ...). */
export const READ_RESPONSE_BYTES = 16 * MiB;
/** Writes answer a few fields. */
export const WRITE_RESPONSE_BYTES = 1 * MiB;
const LARGE = new Set(['POST /register', 'GET /messages', 'GET /events', 'GET /users']);

/** The body cap for an operation: past it the answer is `malformed` (for a write: verify by reading). */
export function responseLimitFor(method: HttpMethod, path: string): number {
  if (LARGE.has(`${method} ${path}`)) return LARGE_RESPONSE_BYTES;
  return method === 'GET' ? READ_RESPONSE_BYTES : WRITE_RESPONSE_BYTES;
}

/** The longest long-poll period believed from a server (Zulip's is 90 s); a larger one is clipped. */
export const MAX_LONG_POLL_SECONDS = 600;
/** The largest delay `setTimeout` honours; beyond it (or for NaN) it fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A deadline any timer can hold: NaN, zero or negative means the default; at most 2^31 - 1 ms. */
function timerSafe(ms: number, fallback: number): number {
  if (Number.isNaN(ms) || ms <= 0) return fallback;
  return Math.min(ms, MAX_TIMER_MS);
}

export interface ApiLogger {
  warn(message: string, data?: Readonly<Record<string, unknown>>): void;
}

export const silentLogger: ApiLogger = { warn: () => undefined };
export const consoleLogger: ApiLogger = {
  warn: (message, data) => console.warn(`[api] ${message}`, data ?? ''),
};

export interface ResponseMeta {
  readonly method: HttpMethod;
  readonly path: string;
  readonly httpStatus: number;
  readonly rateLimit: RateLimitInfo | undefined;
  readonly ignoredParameters: readonly string[];
}

export interface ConnectionOptions {
  /** The organization's URL, e.g. `https://chat.example.com` (no `/api/v1`). */
  readonly realmUrl: string;
  readonly email: string;
  readonly apiKey: string;
  /** Defaults to an undici transport with keep-alive and a bounded pool. */
  readonly transport?: Transport;
  /** For the default transport: proxy and extra trusted certificates (network.ts). */
  readonly network?: NetworkSettings;
  /** For files (`fetchRealmFile`): defaults to the undici pool's (one is made on first use when `transport` is a custom one). */
  readonly bytesTransport?: BytesTransport;
  readonly timeoutMs?: number;
  readonly longPollTimeoutMs?: number;
  /** The server's feature level, if already known (e.g. stored from an earlier session). */
  readonly featureLevel?: number;
  readonly logger?: ApiLogger;
  readonly userAgent?: string;
  readonly now?: () => number;
  /** Called after every HTTP answer, success or not, with the rate-limit state and ignored params. */
  readonly onResponse?: (meta: ResponseMeta) => void;
}

/** Per-call options every operation accepts as its last argument. */
export interface RequestOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  /** An upload's progress: bytes of the request body the connection has taken (transport's `onBodySent`). */
  readonly onBodySent?: (sent: number, total: number) => void;
}

export interface RequestSpec<S extends z.ZodType> extends RequestOptions {
  readonly method: HttpMethod;
  /** Relative to `/api/v1`, starting with `/`, path segments already encoded. */
  readonly path: string;
  readonly params?: Params;
  readonly schema: S;
  /** False only for the unauthenticated endpoints (`fetch_api_key`, `server_settings`). */
  readonly auth?: boolean;
  /** Use the long-poll deadline instead of the normal one. */
  readonly longPoll?: boolean;
  /** Body cap in bytes (default `responseLimitFor(method, path)`). */
  readonly maxResponseBytes?: number;
  /** A body of its own instead of the form-encoded `params` (a multipart upload). */
  readonly body?: { readonly contentType: string; readonly data: Buffer };
}

/** Per-call options of `fetchRealmFile`. */
export interface FileRequestOptions extends RequestOptions {
  /** Body cap in bytes: past it the answer is `malformed` and reading stops. */
  readonly maxResponseBytes: number;
}

export class ApiConnection {
  readonly realmUrl: string;
  readonly email: string;
  private readonly apiKey: string;
  private readonly transport: Transport;
  private readonly closeTransport: (() => Promise<void>) | undefined;
  private bytesTransport: BytesTransport | undefined;
  private closeBytesTransport: (() => Promise<void>) | undefined;
  private readonly logger: ApiLogger;
  private readonly now: () => number;
  private readonly userAgent: string;
  private readonly onResponse: ((meta: ResponseMeta) => void) | undefined;
  timeoutMs: number;
  longPollTimeoutMs: number;

  /** Learnt from `/register`, `/server_settings` or a `restart` event; undefined until then. */
  featureLevel: number | undefined;
  zulipVersion: string | undefined;
  /** `realm_empty_topic_display_name` from `/register`; read as `""` where a topic is sent. */
  emptyTopicDisplayName: string | undefined;
  /** The most recent `X-RateLimit-*` state seen. */
  rateLimit: RateLimitInfo | undefined;

  constructor(opts: ConnectionOptions) {
    this.realmUrl = opts.realmUrl.replace(/\/+$/, '');
    this.email = opts.email;
    this.apiKey = opts.apiKey;
    if (opts.transport) {
      this.transport = opts.transport;
      this.closeTransport = undefined;
    } else {
      const t = createUndiciTransport(opts.network ? { network: opts.network } : {});
      this.transport = t.transport;
      this.closeTransport = t.close;
      this.bytesTransport = t.bytes;
    }
    if (opts.bytesTransport) this.bytesTransport = opts.bytesTransport;
    this.logger = opts.logger ?? consoleLogger;
    this.now = opts.now ?? Date.now;
    this.userAgent = opts.userAgent ?? 'ZulipOfflineDesktop/0.1';
    this.onResponse = opts.onResponse;
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.longPollTimeoutMs = opts.longPollTimeoutMs ?? DEFAULT_LONG_POLL_TIMEOUT_MS;
    this.featureLevel = opts.featureLevel;
  }

  /** The feature level to branch on: the server's when known, else the level this client targets. */
  get effectiveFeatureLevel(): number {
    return this.featureLevel ?? CLIENT_FEATURE_LEVEL;
  }

  /** True when the server is at least at `level` (assumed true while the level is unknown). */
  supports(level: number): boolean {
    return this.effectiveFeatureLevel >= level;
  }

  noteServerVersion(info: { featureLevel?: number | undefined; zulipVersion?: string | undefined }): void {
    if (info.featureLevel !== undefined) this.featureLevel = info.featureLevel;
    if (info.zulipVersion !== undefined) this.zulipVersion = info.zulipVersion;
  }

  /** Long-poll deadline from the server's `event_queue_longpoll_timeout_seconds`, plus a margin. */
  noteLongPollTimeout(seconds: number | undefined): void {
    if (seconds !== undefined && seconds > 0) this.longPollTimeoutMs = Math.min(seconds, MAX_LONG_POLL_SECONDS) * 1000 + LONG_POLL_MARGIN_MS;
  }

  /** The topic as it must be sent: the empty-topic display name means `""` (FL 334+). */
  topicForWire(topic: string): string {
    if (this.supports(334) && this.emptyTopicDisplayName !== undefined && topic === this.emptyTopicDisplayName) {
      return '';
    }
    return topic;
  }

  /** The topic as the client stores it: a display name the server wrote in place of `""` becomes `""`. */
  topicFromWire(topic: string): string {
    return this.emptyTopicDisplayName !== undefined && topic === this.emptyTopicDisplayName ? '' : topic;
  }

  async request<S extends z.ZodType>(spec: RequestSpec<S>): Promise<z.output<S>> {
    const ctx: RequestContext = { method: spec.method, path: spec.path };
    const encoded = encodeParams(spec.params);
    const inQuery = spec.method === 'GET' || spec.method === 'DELETE';
    const url = `${this.realmUrl}/api/v1${spec.path}${inQuery && encoded ? `?${encoded}` : ''}`;
    const headers: Record<string, string> = { 'user-agent': this.userAgent, accept: 'application/json' };
    if (spec.auth !== false) {
      headers.authorization = `Basic ${Buffer.from(`${this.email}:${this.apiKey}`, 'utf8').toString('base64')}`;
    }
    let body: string | Buffer | undefined;
    if (spec.body) {
      body = spec.body.data;
      headers['content-type'] = spec.body.contentType;
    } else if (!inQuery) {
      body = encoded;
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }

    const timeoutMs = timerSafe(spec.timeoutMs ?? (spec.longPoll ? this.longPollTimeoutMs : this.timeoutMs), DEFAULT_TIMEOUT_MS);
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error('deadline')), timeoutMs);
    const signal = spec.signal ? AbortSignal.any([spec.signal, deadline.signal]) : deadline.signal;

    const maxBodyBytes = spec.maxResponseBytes ?? responseLimitFor(spec.method, spec.path);
    let res: HttpResponse;
    try {
      if (spec.signal?.aborted) throw spec.signal.reason;
      res = await this.transport({ method: spec.method, url, headers, body, signal, maxBodyBytes, ...(spec.onBodySent ? { onBodySent: spec.onBodySent } : {}) });
    } catch (e) {
      throw this.failureOf(ctx, e, spec.signal, deadline.signal, timeoutMs);
    } finally {
      clearTimeout(timer);
    }
    // A transport that does not enforce the cap itself (a test fake, a custom one) is held to it here.
    if (res.body.length > maxBodyBytes / 4 && Buffer.byteLength(res.body, 'utf8') > maxBodyBytes) {
      throw tooLarge(ctx, new ResponseTooLargeError(res.status, maxBodyBytes, Buffer.byteLength(res.body, 'utf8')));
    }

    const rateLimit = parseRateLimitHeaders(res.headers);
    if (rateLimit) this.rateLimit = rateLimit;
    const result = classifyResponse(ctx, res, spec.schema, this.now());
    const ignored = result.ok ? ignoredParametersOf(result.data) : [];
    if (ignored.length > 0) {
      this.logger.warn(`server ignored unsupported parameters on ${spec.method} ${spec.path}`, { ignored });
    }
    this.onResponse?.({ method: spec.method, path: spec.path, httpStatus: res.status, rateLimit, ignoredParameters: ignored });
    if (!result.ok) throw result.error;
    return result.data;
  }

  /**
   * A file of the realm outside `/api/v1` (`realmPath` like `/user_uploads/2/ab/x.png`, already
   * encoded), authenticated with the API key as HTTP Basic (Zulip's `override_api_url_scheme`).
   * Any HTTP status is an answer (the caller decides what a 404 means); a failure to get one is
   * `network` / `timeout` / `aborted`, and a body past `maxResponseBytes` is `malformed`.
   */
  async fetchRealmFile(realmPath: string, opts: FileRequestOptions): Promise<BytesResponse> {
    if (!realmPath.startsWith('/')) throw new TypeError(`fetchRealmFile: a realm-relative path, not ${realmPath}`);
    const authorization = `Basic ${Buffer.from(`${this.email}:${this.apiKey}`, 'utf8').toString('base64')}`;
    return this.fetchFile(`${this.realmUrl}${realmPath}`, realmPath, { authorization }, opts);
  }

  /**
   * A public file of another site (a Gravatar avatar): the same deadlines and cap, and never the
   * realm's credentials. Only http(s).
   */
  async fetchPublicFile(url: string, opts: FileRequestOptions): Promise<BytesResponse> {
    const u = new URL(url);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new TypeError(`fetchPublicFile: http(s) only, not ${u.protocol}`);
    return this.fetchFile(u.href, u.pathname, {}, opts);
  }

  private async fetchFile(fullUrl: string, path: string, auth: Record<string, string>, opts: FileRequestOptions): Promise<BytesResponse> {
    const ctx: RequestContext = { method: 'GET', path };
    const headers = { 'user-agent': this.userAgent, accept: 'image/*', ...auth };
    const timeoutMs = timerSafe(opts.timeoutMs ?? this.timeoutMs, DEFAULT_TIMEOUT_MS);
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error('deadline')), timeoutMs);
    const signal = opts.signal ? AbortSignal.any([opts.signal, deadline.signal]) : deadline.signal;
    let res: BytesResponse;
    try {
      if (opts.signal?.aborted) throw opts.signal.reason;
      res = await this.bytes()({ method: 'GET', url: fullUrl, headers, body: undefined, signal, maxBodyBytes: opts.maxResponseBytes });
    } catch (e) {
      throw this.failureOf(ctx, e, opts.signal, deadline.signal, timeoutMs);
    } finally {
      clearTimeout(timer);
    }
    // A transport that does not enforce the cap itself is held to it here.
    if (res.body.length > opts.maxResponseBytes) throw tooLarge(ctx, new ResponseTooLargeError(res.status, opts.maxResponseBytes, res.body.length));
    return res;
  }

  private bytes(): BytesTransport {
    if (!this.bytesTransport) {
      const t = createUndiciTransport();
      this.bytesTransport = t.bytes;
      this.closeBytesTransport = t.close;
    }
    return this.bytesTransport;
  }

  private failureOf(
    ctx: RequestContext,
    e: unknown,
    callerSignal: AbortSignal | undefined,
    deadline: AbortSignal,
    timeoutMs: number,
  ): ApiError {
    if (e instanceof ResponseTooLargeError) return tooLarge(ctx, e);
    if (callerSignal?.aborted) return new AbortedError(ctx, e);
    if (deadline.aborted) return new TimeoutError(ctx, timeoutMs);
    return new NetworkError(ctx, e);
  }

  /** Close pooled sockets (only those of a transport this connection created). */
  async close(): Promise<void> {
    await this.closeTransport?.();
    await this.closeBytesTransport?.();
  }
}

/** Too large is malformed: for a write the request probably succeeded (verify by reading). */
function tooLarge(ctx: RequestContext, e: ResponseTooLargeError): MalformedResponseError {
  return new MalformedResponseError(ctx, e.status, [`(body): ${e.message}`], '');
}

function ignoredParametersOf(data: unknown): string[] {
  if (typeof data !== 'object' || data === null || !('ignored_parameters_unsupported' in data)) return [];
  const v = data.ignored_parameters_unsupported;
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}
