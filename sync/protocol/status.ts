/**
 * What the UI is told about an account's connection (protocol: shared with the renderer, so zod
 * only). One status at a time; `syncing` carries progress, `offline` the next retry time so the UI
 * can count down and offer "retry now".
 */
import * as z from 'zod';

const int = z.number().int();

/**
 * Phases of catching up: the initial history, the gap after an expired queue, refreshing cached
 * messages; and sending the outbox's pending changes (the stream is live meanwhile).
 */
export const syncPhase = z.enum(['register', 'history', 'gap', 'refresh', 'outbox']);
export type SyncPhase = z.output<typeof syncPhase>;

export const syncProgress = z.lazy(() => z.object({
  phase: syncPhase,
  /** Messages fetched (or refreshed) so far in this phase; for `outbox`, changes settled. */
  done: int.nonnegative(),
  /** The target when known (the backfill depth, the number of cached messages to refresh). */
  total: int.nonnegative().nullable(),
}));
export type SyncProgress = z.output<typeof syncProgress>;

/**
 * What kind of failure the last one was (the API error union's `kind`, or `internal`), so the UI
 * can say it in words instead of showing the technical `error` line. Optional: older engines did
 * not send it.
 */
export const failureCause = z.enum(['network', 'timeout', 'aborted', 'server', 'rate_limited', 'unauthorized', 'api', 'malformed', 'internal']);
export type FailureCause = z.output<typeof failureCause>;

export const sessionStatus = z.lazy(() => z.discriminatedUnion('state', [
  /** Not started, or stopped by the user. */
  z.object({ state: z.literal('stopped') }),
  /** Resuming the stored queue, or registering, before anything is known to be current. */
  z.object({ state: z.literal('connecting') }),
  /** Catching up (registering, backfilling), or sending pending changes on a live stream (phase `outbox`). */
  z.object({ state: z.literal('syncing'), progress: syncProgress }),
  /** The event stream is flowing; local reads are current. */
  z.object({ state: z.literal('live') }),
  /**
   * Consecutive transient failures; retrying at `nextRetryAt` (UNIX ms). `serverAskedRetryAfterMs`:
   * the server asked (Retry-After) to wait longer than the engine waits (its cap); the UI may say so.
   */
  z.object({ state: z.literal('offline'), failures: int, nextRetryAt: int, error: z.string(), cause: failureCause.optional(), serverAskedRetryAfterMs: int.nonnegative().optional() }),
  /** The server refused the credentials: nothing more is tried until the user acts. */
  z.object({ state: z.literal('unauthorized'), error: z.string() }),
  /**
   * The disk refuses the account's writes (`reason` full, or `io`: the device failed a write) since
   * `since`: the user's changes are refused in words, syncing waits, and everything is tried again
   * at `nextRetryAt` (UNIX ms) and resumes by itself once a write works; nothing queued is lost.
   */
  z.object({ state: z.literal('disk_full'), reason: z.enum(['full', 'io']), since: int, nextRetryAt: int, error: z.string() }),
  /** Repeated non-transient failures (a bug or an incompatible server); still retrying. */
  z.object({ state: z.literal('error'), failures: int, nextRetryAt: int, error: z.string(), cause: failureCause.optional(), serverAskedRetryAfterMs: int.nonnegative().optional() }),
]));
export type SessionStatus = z.output<typeof sessionStatus>;
