/**
 * Zulip-style rate limiting: a sliding window per key (user id, or client address for login
 * attempts). Every limited response carries `X-RateLimit-Limit/Remaining/Reset` (reset in UNIX
 * seconds); over the limit gives 429 RATE_LIMIT_HIT with `Retry-After` and `retry-after` in
 * (fractional) seconds.
 */
import type { Clock } from '../clock.js';
import { JsonableError } from './errors.js';

export interface RateDecision {
  readonly headers: Record<string, string>;
}

export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly limit: number,
    private readonly windowSeconds: number,
  ) {}

  /** Record one request for `key`; throws the 429 error when over the limit. */
  hit(key: string): RateDecision {
    const now = this.clock.now();
    const windowMs = this.windowSeconds * 1000;
    const list = (this.hits.get(key) ?? []).filter((t) => t > now - windowMs);
    const oldest = list[0];
    if (list.length >= this.limit && oldest !== undefined) {
      this.hits.set(key, list);
      const retryAfter = (oldest + windowMs - now) / 1000;
      const headers = this.headers(0, oldest + windowMs);
      throw new JsonableError(
        'RATE_LIMIT_HIT',
        'API usage exceeded rate limit',
        429,
        { 'retry-after': retryAfter },
        { ...headers, 'Retry-After': String(retryAfter) },
      );
    }
    list.push(now);
    this.hits.set(key, list);
    return { headers: this.headers(this.limit - list.length, (list[0] ?? now) + windowMs) };
  }

  private headers(remaining: number, resetMs: number): Record<string, string> {
    return {
      'X-RateLimit-Limit': String(this.limit),
      'X-RateLimit-Remaining': String(Math.max(0, remaining)),
      'X-RateLimit-Reset': String(Math.ceil(resetMs / 1000)),
    };
  }
}
