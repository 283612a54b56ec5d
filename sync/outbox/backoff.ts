/**
 * Retry delays for the outbox (docs/sync-design.md "Error classes"): full-jitter exponential backoff,
 * first bound 0.5 s doubling to a cap of 60 s, and the server's `Retry-After` when it sent one.
 * Full jitter (a uniform draw in [0, bound)) rather than equal jitter because after a network
 * outage every client retries at once; spreading them over the whole window is what unloads the
 * server (AWS Architecture Blog, "Exponential Backoff And Jitter").
 */
import type { ApiError } from '../api/errors.js';
import type { Random } from '../base/seams.js';

export interface BackoffPolicy {
  readonly firstBoundMs: number;
  readonly capMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { firstBoundMs: 500, capMs: 60_000 };

/** The upper bound of the draw for the `attempt`-th failure (1-based). */
export function backoffBound(attempt: number, policy: BackoffPolicy = DEFAULT_BACKOFF): number {
  const n = Math.max(1, Math.floor(attempt));
  // 2 ** n overflows to Infinity long after the cap is reached, and Math.min handles Infinity.
  return Math.min(policy.capMs, policy.firstBoundMs * 2 ** (n - 1));
}

/** A delay in [0, bound) for the `attempt`-th failure. */
export function fullJitter(attempt: number, random: Random, policy: BackoffPolicy = DEFAULT_BACKOFF): number {
  const r = random();
  const u = Number.isFinite(r) ? Math.min(Math.max(r, 0), 1 - Number.EPSILON) : 0.5;
  return Math.floor(u * backoffBound(Number.isFinite(attempt) ? attempt : 1, policy));
}

/**
 * How long to wait after `error`: the server's Retry-After when given (it knows its own rate-limit
 * window; waiting less only earns another 429), else the jittered backoff; never more than the cap
 * (60 s): `Retry-After: 86400` must not leave a change unsent for a day, and 10^8 s would overflow
 * a timer. The row's `last_error` keeps what the server asked.
 */
export function retryDelay(error: ApiError | undefined, attempt: number, random: Random, policy: BackoffPolicy = DEFAULT_BACKOFF): number {
  if (error?.kind === 'rate_limited' && error.retryAfterMs !== undefined && !Number.isNaN(error.retryAfterMs)) {
    return Math.min(policy.capMs, Math.max(0, Math.ceil(error.retryAfterMs)));
  }
  return fullJitter(attempt, random, policy);
}
