/** `X-RateLimit-*` headers and `Retry-After`, parsed leniently: a bad header is dropped, never fatal. */

export interface RateLimitInfo {
  /** `X-RateLimit-Limit`: the strictest limit that applies. */
  readonly limit: number | undefined;
  /** `X-RateLimit-Remaining`. */
  readonly remaining: number | undefined;
  /** `X-RateLimit-Reset`: UNIX seconds at which all limits clear. */
  readonly resetAtSeconds: number | undefined;
}

export type HeaderBag = Readonly<Record<string, string | undefined>>;

function num(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const t = v.trim();
  if (t === '') return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

export function parseRateLimitHeaders(headers: HeaderBag): RateLimitInfo | undefined {
  const limit = num(headers['x-ratelimit-limit']);
  const remaining = num(headers['x-ratelimit-remaining']);
  const resetAtSeconds = num(headers['x-ratelimit-reset']);
  if (limit === undefined && remaining === undefined && resetAtSeconds === undefined) return undefined;
  return { limit, remaining, resetAtSeconds };
}

/**
 * Milliseconds to wait, from the `Retry-After` header (seconds, possibly fractional, or an HTTP
 * date) or else the body's `retry-after` field (float seconds). Negative values become 0.
 */
export function parseRetryAfterMs(
  header: string | undefined,
  bodyValue: unknown,
  nowMs: number,
): number | undefined {
  if (header !== undefined && header.trim() !== '') {
    const secs = Number(header.trim());
    if (Number.isFinite(secs)) return Math.max(0, Math.round(secs * 1000));
    const date = Date.parse(header);
    if (Number.isFinite(date)) return Math.max(0, date - nowMs);
  }
  if (typeof bodyValue === 'number' && Number.isFinite(bodyValue)) {
    return Math.max(0, Math.round(bodyValue * 1000));
  }
  if (typeof bodyValue === 'string' && Number.isFinite(Number(bodyValue)) && bodyValue.trim() !== '') {
    return Math.max(0, Math.round(Number(bodyValue) * 1000));
  }
  return undefined;
}
