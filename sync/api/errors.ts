/**
 * The closed union of everything a request can fail with. Classified once, in `classify.ts`;
 * callers switch on `kind` (and, for `api`, on `code` / `details.code`), never on `msg`.
 *
 *   network      the request never got an HTTP answer (DNS, refused, reset, TLS, ...)
 *   timeout      our own per-request deadline passed before the answer was complete
 *   aborted      the caller's AbortSignal fired
 *   server       HTTP 5xx, or an error answer that is not JSON (HTML error page from a proxy, ...);
 *                `mayHaveApplied` says whether the server may have carried the request out (a
 *                gateway's 502/504, a 5xx that is not the app's own error envelope)
 *   rate_limited HTTP 429 or code RATE_LIMIT_HIT, with the delay to honour
 *   unauthorized HTTP 401 (bad or missing key, deactivated user or realm, failed login)
 *   api          a well-formed Zulip error envelope: `code`, HTTP status, typed extra fields
 *   malformed    a success status whose body is not JSON (an HTML page, truncated JSON, a body
 *                over the size cap) or does not match the operation's schema: the request
 *                probably succeeded
 */
import type { ApiErrorDetails } from './error-details.js';
import type { RateLimitInfo } from './rate-limit.js';

export type ApiErrorKind =
  | 'network'
  | 'timeout'
  | 'aborted'
  | 'server'
  | 'rate_limited'
  | 'unauthorized'
  | 'api'
  | 'malformed';

export interface RequestContext {
  readonly method: string;
  readonly path: string;
}

abstract class ApiErrorBase extends Error {
  abstract readonly kind: ApiErrorKind;
  readonly method: string;
  readonly path: string;
  constructor(message: string, ctx: RequestContext, options?: { cause?: unknown }) {
    super(`${ctx.method} ${ctx.path}: ${message}`, options);
    this.method = ctx.method;
    this.path = ctx.path;
  }
  /** Transient errors are worth retrying with backoff; the others need a person or a code change. */
  get transient(): boolean {
    return (
      this.kind === 'network' ||
      this.kind === 'timeout' ||
      this.kind === 'server' ||
      this.kind === 'rate_limited'
    );
  }
}

/** The base of one member of the union: its `kind` and its class name, declared once. */
function apiError<K extends ApiErrorKind>(kind: K, name: string) {
  abstract class Member extends ApiErrorBase {
    readonly kind: K = kind;
    override readonly name: string = name;
  }
  return Member;
}

export class NetworkError extends apiError('network', 'NetworkError') {
  /** Low-level error code when known (ECONNRESET, ECONNREFUSED, UND_ERR_SOCKET, ...). */
  readonly errno: string | undefined;
  constructor(ctx: RequestContext, cause: unknown) {
    const errno = errnoOf(cause);
    super(`network error${errno ? ` (${errno})` : ''}: ${messageOf(cause)}`, ctx, { cause });
    this.errno = errno;
  }
}

export class TimeoutError extends apiError('timeout', 'TimeoutError') {
  constructor(
    ctx: RequestContext,
    readonly timeoutMs: number,
  ) {
    super(`no complete answer within ${timeoutMs} ms`, ctx);
  }
}

export class AbortedError extends apiError('aborted', 'AbortedError') {
  constructor(ctx: RequestContext, cause: unknown) {
    super('aborted by the caller', ctx, { cause });
  }
}

export class ServerError extends apiError('server', 'ServerError') {
  constructor(
    ctx: RequestContext,
    readonly httpStatus: number,
    /** Present when the 5xx carried a Zulip error envelope (e.g. FAILED_TO_CONNECT_BOUNCER). */
    readonly code: string | undefined,
    readonly serverMsg: string | undefined,
    /** The first bytes of the body, for logs. */
    readonly bodySnippet: string,
    /**
     * The server may have applied the request: a gateway answered (502, 504: the app may have
     * committed before the gateway gave up) or the answer is not the app's own JSON error
     * envelope. False for the app's envelope (e.g. a 503 with Retry-After while it restarts):
     * the app said it did not do it. Writes that may have been applied are verified by reading.
     */
    readonly mayHaveApplied = false,
  ) {
    super(`server error HTTP ${httpStatus}${code ? ` ${code}` : ''}${serverMsg ? `: ${serverMsg}` : ''}`, ctx);
  }
}

export class RateLimitedError extends apiError('rate_limited', 'RateLimitedError') {
  constructor(
    ctx: RequestContext,
    readonly httpStatus: number,
    /** How long to wait before trying again, in milliseconds (fractional seconds kept). */
    readonly retryAfterMs: number | undefined,
    readonly rateLimit: RateLimitInfo | undefined,
    readonly serverMsg: string | undefined,
  ) {
    super(`rate limited${retryAfterMs !== undefined ? `, retry after ${retryAfterMs} ms` : ''}`, ctx);
  }
  readonly code = 'RATE_LIMIT_HIT' as const;
}

export class UnauthorizedError extends apiError('unauthorized', 'UnauthorizedError') {
  constructor(
    ctx: RequestContext,
    readonly httpStatus: number,
    /** UNAUTHORIZED, INVALID_API_KEY, USER_DEACTIVATED, REALM_DEACTIVATED, AUTHENTICATION_FAILED, ... */
    readonly code: string,
    readonly serverMsg: string,
    /** The `WWW-Authenticate` header, when the server sent one. */
    readonly wwwAuthenticate: string | undefined,
  ) {
    super(`unauthorized (${code}): ${serverMsg}`, ctx);
  }
}

export class ZulipApiError extends apiError('api', 'ZulipApiError') {
  constructor(
    ctx: RequestContext,
    readonly httpStatus: number,
    readonly code: string,
    readonly serverMsg: string,
    /** Typed extra fields for the codes that have them; undefined for plain codes. */
    readonly details: ApiErrorDetails | undefined,
    /** Every extra field of the envelope as sent (beyond result, msg, code). */
    readonly extra: Readonly<Record<string, unknown>>,
  ) {
    super(`${code} (HTTP ${httpStatus}): ${serverMsg}`, ctx);
  }
}

export class MalformedResponseError extends apiError('malformed', 'MalformedResponseError') {
  constructor(
    ctx: RequestContext,
    readonly httpStatus: number,
    /** Where the body departs from the schema, one line per problem. */
    readonly problems: readonly string[],
    readonly bodySnippet: string,
  ) {
    super(`malformed response: ${problems.slice(0, 3).join('; ')}`, ctx);
  }
}

export type ApiError =
  | NetworkError
  | TimeoutError
  | AbortedError
  | ServerError
  | RateLimitedError
  | UnauthorizedError
  | ZulipApiError
  | MalformedResponseError;

/**
 * Thrown before any request when an operation (or one of its parameters) needs a newer server
 * than the connected one. Not a request failure, so not part of `ApiError`: nothing was sent.
 */
export class UnsupportedFeatureError extends Error {
  override readonly name = 'UnsupportedFeatureError';
  constructor(
    readonly feature: string,
    readonly requiredFeatureLevel: number,
    readonly serverFeatureLevel: number,
  ) {
    super(`${feature} needs feature level ${requiredFeatureLevel}; the server is at ${serverFeatureLevel}`);
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiErrorBase;
}

function errnoOf(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let depth = 0; depth < 4 && typeof cur === 'object' && cur !== null; depth++) {
    if ('code' in cur && typeof cur.code === 'string') return cur.code;
    cur = 'cause' in cur ? cur.cause : undefined;
  }
  return undefined;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
