/**
 * The one place a finished HTTP exchange becomes either a parsed success body or an `ApiError`.
 * Order matters: 429 / RATE_LIMIT_HIT first, then 401, then 5xx and non-JSON error answers, then a
 * success status with a body that is not a JSON object (malformed: it probably succeeded), then
 * error envelopes, then the success schema.
 *
 * Whether a failed write may have been applied is decided here, once (`ServerError.mayHaveApplied`,
 * and `malformed` always may): a gateway's 502/504 and any 5xx that is not the app's own JSON error
 * envelope may follow a commit, as may a 2xx whose body is HTML or cut short.
 */
import type * as z from 'zod';
import { parseErrorDetails } from './error-details.js';
import {
  MalformedResponseError,
  RateLimitedError,
  ServerError,
  UnauthorizedError,
  ZulipApiError,
  type ApiError,
  type RequestContext,
} from './errors.js';
import { parseRateLimitHeaders, parseRetryAfterMs } from './rate-limit.js';
import type { HttpResponse } from './transport.js';

const SNIPPET = 300;

export type Classified<T> = { ok: true; data: T } | { ok: false; error: ApiError };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function extrasOf(body: Record<string, unknown>): Record<string, unknown> {
  const { result: _r, msg: _m, code: _c, ...rest } = body;
  return rest;
}

export function formatZodIssues(error: z.ZodError): string[] {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
}

export function classifyResponse<S extends z.ZodType>(
  ctx: RequestContext,
  res: HttpResponse,
  schema: S,
  nowMs: number,
): Classified<z.output<S>> {
  const snippet = res.body.slice(0, SNIPPET);
  let json: unknown;
  let isJson = false;
  try {
    json = JSON.parse(res.body);
    isJson = true;
  } catch {
    isJson = false;
  }
  const body = isJson && isRecord(json) ? json : undefined;
  const code = body && typeof body.code === 'string' ? body.code : undefined;
  const msg = body && typeof body.msg === 'string' ? body.msg : undefined;

  if (res.status === 429 || code === 'RATE_LIMIT_HIT') {
    const retryAfterMs = parseRetryAfterMs(res.headers['retry-after'], body?.['retry-after'], nowMs);
    return {
      ok: false,
      error: new RateLimitedError(ctx, res.status, retryAfterMs, parseRateLimitHeaders(res.headers), msg),
    };
  }
  if (res.status === 401) {
    return {
      ok: false,
      error: new UnauthorizedError(
        ctx,
        res.status,
        code ?? 'UNAUTHORIZED',
        msg ?? snippet,
        res.headers['www-authenticate'],
      ),
    };
  }
  const success = res.status >= 200 && res.status < 300;
  const appEnvelope = body !== undefined && body.result === 'error';
  if (res.status >= 500 || (!isJson && !success)) {
    const gateway = res.status === 502 || res.status === 504;
    const clientError = res.status >= 400 && res.status < 500;
    const mayHaveApplied = gateway || (!appEnvelope && !clientError);
    return { ok: false, error: new ServerError(ctx, res.status, code, msg, snippet, mayHaveApplied) };
  }
  if (!isJson) {
    return { ok: false, error: new MalformedResponseError(ctx, res.status, ['(root): not JSON (an HTML page, or cut short)'], snippet) };
  }
  if (!body) {
    return { ok: false, error: new MalformedResponseError(ctx, res.status, ['(root): not a JSON object'], snippet) };
  }
  if (body.result === 'error' || res.status >= 400) {
    // Zulip's default code is BAD_REQUEST; a 405 envelope carries no code at all.
    const c = code ?? 'BAD_REQUEST';
    const extra = extrasOf(body);
    return {
      ok: false,
      error: new ZulipApiError(ctx, res.status, c, msg ?? '', parseErrorDetails(c, extra), extra),
    };
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    return { ok: false, error: new MalformedResponseError(ctx, res.status, formatZodIssues(parsed.error), snippet) };
  }
  return { ok: true, data: parsed.data };
}
