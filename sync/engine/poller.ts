/**
 * The event-stream policy (docs/sync-design.md "The event stream") as an explicit state machine.
 * It decides WHAT to do; the session supplies HOW (`PollerActions`: register + store + backfill,
 * long-poll, apply in one transaction). Time, sleep and randomness come from the seams, so every
 * transition is unit-tested with a fake clock and a fake API.
 *
 *                    start (stored queue)            start (none)
 *                           |                             |
 *                           v                             v
 *      +--------------> [polling] <------ ok ------- [registering] <-------------+
 *      | ok (apply in   |  |  |  \                    |   |   \                   |
 *      |  the position  |  |  |   \ BAD_EVENT_QUEUE_ID |   |    \ 401            |
 *      |  transaction)  |  |  |    +------------------>+   |     v               |
 *      +----------------+  |  |      (re-register and      |  [unauthorized]     |
 *                          |  |       backfill the gap: at |   (stops; status)    |
 *                          |  |       once the first time; |                      |
 *                          |  |       again before a poll  |                      |
 *                          |  |       succeeded: backoff)  |                      |
 *                          |  | 401 --> backoff, probe --> | transient / other    |
 *                          |  |   refused again: [unauthorized]; works: retry    |
 *                          |  |                            v                      |
 *   transient / 429 ------>+  +-- apply fails --> log event, drop queue,          |
 *          |               |      back off, then re-register (resync) ------------+
 *          |               +----- apply refused by the disk (SQLITE_FULL / IOERR): nothing was
 *          |                      written, the queue kept the events: back off, poll the same
 *          |                      position again (no log line: the session's storage logs once)
 *          v
 *      [backoff] sleeps min(2^((n+1)/2), 90) * U(0.5, 1) s (429: at least Retry-After);
 *          |     nudge('resume' | 'network') cuts the sleep or the stalled poll short
 *          +---> back to where it failed (polling, or registering)
 *
 * n counts consecutive failures; a successful poll resets it. Status (every value valid under the
 * contract `sync/protocol/status.ts` by construction: integer times, integer counts):
 *   `connecting` while registering (after an expired queue too: nothing vouches for "current");
 *   `live` only once a poll has succeeded (the first poll after a register does not block, so
 *   that is at once); `offline` / `error` from the `failuresBeforeStatus`-th consecutive failure
 *   (default 1: the header must not say Live while the server is away), with the next retry time.
 */
import type { ApiError, ZulipEvent } from '../api/index.js';
import { isApiError } from '../api/index.js';
import type { SessionStatus } from '../protocol/status.js';
import { defaultSeams, SleepAborted, type Seams } from '../base/seams.js';
import { storageFault } from '../db/storage.js';

export interface QueuePosition {
  readonly queue_id: string;
  readonly last_event_id: number;
}

/** Why a (re-)registration happens: the session backfills differently for each. */
export type RegisterReason = 'initial' | 'expired' | 'resync';

export interface PollerActions {
  /** POST /register, store the snapshot and the position, backfill as `reason` requires. */
  register(reason: RegisterReason, signal: AbortSignal): Promise<QueuePosition>;
  /** GET /events after `pos`. `dontBlock` answers at once (first poll after resuming a stored queue). */
  getEvents(pos: QueuePosition, dontBlock: boolean, signal: AbortSignal): Promise<readonly ZulipEvent[]>;
  /** Apply the batch and persist `next` in ONE transaction. Throws `EventApplyError` on failure. */
  apply(events: readonly ZulipEvent[], next: QueuePosition): void;
  /**
   * After a 401: ask the server again with a cheap request. True: refused again (confirmed);
   * false: the credentials work (the 401 was transient); undefined: no answer (try again later).
   * Without it a single 401 stops the poller.
   */
  confirmUnauthorized?(signal: AbortSignal): Promise<boolean | undefined>;
}

/** A failure while applying an event, carrying the event for the log. */
export class EventApplyError extends Error {
  override readonly name = 'EventApplyError';
  constructor(
    readonly event: ZulipEvent | undefined,
    override readonly cause: unknown,
  ) {
    super(`applying ${event ? `event ${event.id ?? '?'} (${event.type})` : 'an event batch'} failed: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/** The poller's part of the session status: the contract's own members (no `syncing`: progress is the session's). */
export type PollerStatus = Exclude<SessionStatus, { state: 'syncing' }>;

/** `disk`: writes work again after the disk refused them. */
export type NudgeReason = 'resume' | 'network' | 'disk';

export interface PollerOptions {
  /** Consecutive failures before the status tells the user (default 1). */
  readonly failuresBeforeStatus?: number;
  /** Backoff cap in seconds (Zulip web: 90). */
  readonly maxBackoffSeconds?: number;
  readonly onStatus?: (status: PollerStatus) => void;
  /** Where to resume from (the stored queue), if anywhere. */
  readonly resumeFrom?: QueuePosition;
}

/** Zulip web's poll backoff: `min(2^((n+1)/2), cap) * U(0.5, 1)` seconds, in ms. */
export function backoffMs(failures: number, random: () => number, capSeconds = 90): number {
  const scale = Math.min(2 ** ((Math.max(1, failures) + 1) / 2), capSeconds);
  const r = random();
  const u = Number.isFinite(r) ? Math.min(1, Math.max(0, r)) : 0.5;
  return scale * (0.5 + u / 2) * 1000;
}

/** What the server asked to wait (a 429's Retry-After), in ms, when it said. */
export function serverAskedMs(error: unknown): number | undefined {
  if (isApiError(error) && error.kind === 'rate_limited' && error.retryAfterMs !== undefined && !Number.isNaN(error.retryAfterMs)) {
    return Math.max(0, error.retryAfterMs);
  }
  return undefined;
}

/**
 * The wait after a failure: the backoff, for a 429 at least what the server asked, and never more
 * than the cap (90 s): a Retry-After of a day, or of 10^8 s (past what a timer can hold), must
 * not leave the stream down that long; the status says the server asked for more.
 */
export function retryDelayMs(error: unknown, failures: number, random: () => number, capSeconds = 90): number {
  const base = backoffMs(failures, random, capSeconds);
  const asked = serverAskedMs(error);
  return asked === undefined ? base : Math.min(Math.max(base, asked), capSeconds * 1000);
}

export function isBadEventQueue(e: unknown): boolean {
  return isApiError(e) && e.kind === 'api' && e.code === 'BAD_EVENT_QUEUE_ID';
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class EventPoller {
  private readonly seams: Seams;
  private readonly threshold: number;
  private readonly cap: number;
  private position: QueuePosition | undefined;
  private reason: RegisterReason;
  /** The next poll answers at once (`dont_block`): after resuming a stored queue or registering. */
  private dontBlockNext: boolean;
  private failures = 0;
  /** A BAD_EVENT_QUEUE_ID was answered since the last successful poll. */
  private expiredSinceSuccess = false;
  private stopped = true;
  private current: AbortController | undefined;
  private loop: Promise<void> | undefined;
  private statusValue: PollerStatus = { state: 'stopped' };

  constructor(
    private readonly actions: PollerActions,
    private readonly opts: PollerOptions = {},
    seams: Partial<Seams> = {},
  ) {
    this.seams = { ...defaultSeams, ...seams };
    this.threshold = Math.max(1, Math.floor(opts.failuresBeforeStatus ?? 1));
    this.cap = opts.maxBackoffSeconds ?? 90;
    this.position = opts.resumeFrom;
    this.reason = 'initial';
    this.dontBlockNext = opts.resumeFrom !== undefined;
  }

  get status(): PollerStatus {
    return this.statusValue;
  }
  get consecutiveFailures(): number {
    return this.failures;
  }
  get queuePosition(): QueuePosition | undefined {
    return this.position;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.setStatus({ state: 'connecting' });
    this.loop = this.run();
  }

  /** Abort whatever is in flight and wait for the loop to end. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.current?.abort();
    await this.loop;
    this.loop = undefined;
    if (this.statusValue.state !== 'unauthorized') this.setStatus({ state: 'stopped' });
  }

  /** Resume from sleep or a network change: abort the stalled poll or backoff and poll at once. */
  nudge(reason: NudgeReason): void {
    if (this.stopped) return;
    this.seams.logger.info('event poller nudged', { reason });
    this.current?.abort();
  }

  /** Someone else confirmed the server refuses the credentials: stop, status unauthorized. */
  credentialsRefused(error: string): void {
    if (this.stopped) return;
    this.stopped = true;
    this.current?.abort();
    this.setStatus({ state: 'unauthorized', error });
  }

  /** Resolves when the loop ends (stop, or unauthorized). */
  done(): Promise<void> {
    return this.loop ?? Promise.resolve();
  }

  private setStatus(s: PollerStatus): void {
    this.statusValue = s;
    this.opts.onStatus?.(s);
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const ctrl = new AbortController();
      this.current = ctrl;
      try {
        if (this.position === undefined) {
          // Whatever the status said, nothing is current until this queue has answered a poll.
          if (this.statusValue.state !== 'connecting') this.setStatus({ state: 'connecting' });
          this.position = await this.actions.register(this.reason, ctrl.signal);
          // A non-blocking first poll: `live` comes from it at once, not after a long-poll period.
          this.dontBlockNext = true;
          continue;
        }
        const pos = this.position;
        const events = await this.actions.getEvents(pos, this.dontBlockNext, ctrl.signal);
        this.dontBlockNext = false;
        this.applyBatch(pos, events);
      } catch (e) {
        if (this.stopped) break;
        if (ctrl.signal.aborted) continue; // nudged: poll (or register) again at once
        if (!(await this.failed(e))) break;
      }
    }
  }

  private applyBatch(pos: QueuePosition, events: readonly ZulipEvent[]): void {
    let last = pos.last_event_id;
    for (const ev of events) if (ev.id !== null && ev.id > last) last = ev.id;
    const next = { queue_id: pos.queue_id, last_event_id: last };
    try {
      this.actions.apply(events, next);
    } catch (e) {
      // The disk refused the batch: the transaction rolled back and the server keeps the events,
      // so the same position is polled again after the backoff; nothing needs a resync.
      if (storageFault(e instanceof EventApplyError ? e.cause : e) !== undefined) throw e;
      // The transaction rolled back, so the position did not move. Our copy of the state may be
      // wrong from here on: resync from a fresh register (after a backoff, in `failed`).
      const event = e instanceof EventApplyError ? e.event : undefined;
      this.seams.logger.error('failed to apply an event; resyncing from a fresh register', {
        error: describe(e instanceof EventApplyError ? e.cause : e),
        event: event ?? null,
      });
      this.position = undefined;
      this.reason = 'resync';
      throw e;
    }
    this.position = next;
    this.succeeded();
  }

  private succeeded(): void {
    this.failures = 0;
    this.expiredSinceSuccess = false;
    if (this.statusValue.state !== 'live') this.setStatus({ state: 'live' });
  }

  /** Decide what a failure means; false = stop the loop. Sleeps the backoff when there is one. */
  private async failed(e: unknown): Promise<boolean> {
    if (isApiError(e) && e.kind === 'unauthorized' && !this.actions.confirmUnauthorized) return this.refused(e);
    if (isBadEventQueue(e) && this.position !== undefined) {
      // The server forgot our queue (idle GC, restart): re-register and backfill the gap. At once
      // the first time; if the new queue is refused too before any poll succeeded (a server that
      // keeps losing queues, a proxy answering it for everything), it is a failure like any
      // other and backs off, or the loop would re-register as fast as the server answers.
      const immediate = !this.expiredSinceSuccess;
      this.expiredSinceSuccess = true;
      this.seams.logger.info('event queue expired; re-registering', { queue_id: this.position.queue_id, immediate });
      this.position = undefined;
      this.reason = 'expired';
      this.dontBlockNext = false;
      if (immediate) return true;
    }
    this.failures++;
    const delay = retryDelayMs(e, this.failures, this.seams.random, this.cap);
    // The contract's times are integer milliseconds; the backoff draw is not.
    const nextRetryAt = Math.ceil(this.seams.clock.now() + delay);
    const transient = isApiError(e) ? (e as ApiError).transient : false;
    // A refused write is the storage's state, logged once there, not once per attempt here.
    const disk = storageFault(e instanceof EventApplyError ? e.cause : e) !== undefined;
    if (!disk) this.seams.logger.warn('event stream failure; backing off', { error: describe(e), failures: this.failures, delayMs: Math.round(delay) });
    if (this.failures >= this.threshold) {
      const error = describe(e);
      // The server asked for a longer wait than we keep: say so (whole ms, as the contract wants).
      const asked = serverAskedMs(e);
      const more = asked !== undefined && asked > delay ? { serverAskedRetryAfterMs: Math.min(Number.MAX_SAFE_INTEGER, Math.ceil(asked)) } : {};
      const cause = isApiError(e) ? e.kind : 'internal';
      this.setStatus(transient ? { state: 'offline', failures: this.failures, nextRetryAt, error, cause, ...more } : { state: 'error', failures: this.failures, nextRetryAt, error, cause, ...more });
    }
    const ctrl = new AbortController();
    this.current = ctrl;
    try {
      await this.seams.sleep(delay, ctrl.signal);
    } catch (err) {
      if (!(err instanceof SleepAborted)) throw err;
    }
    if (isApiError(e) && e.kind === 'unauthorized' && this.actions.confirmUnauthorized && !this.stopped) {
      // Only a confirmed 401 stops for sign-in: a proxy's or a restarting server's stray 401 passes.
      let confirmed: boolean | undefined;
      try {
        confirmed = await this.actions.confirmUnauthorized(ctrl.signal);
      } catch {
        confirmed = undefined;
      }
      if (confirmed === true && !this.stopped) return this.refused(e);
    }
    return !this.stopped;
  }

  private refused(e: unknown): false {
    this.seams.logger.warn('event poller stopped: credentials refused', { error: describe(e) });
    this.stopped = true;
    this.setStatus({ state: 'unauthorized', error: describe(e) });
    return false;
  }
}
