/**
 * The drain loop: sends outbox rows, strictly serial per `entity_key`, up to `concurrency`
 * entities at once. Each attempt is recorded (`sending`, attempts + 1) in its own transaction before
 * the request leaves, and the outcome in another after it returns: no transaction spans a request.
 *
 * Error classes (docs/sync-design.md "Error classes"), from the `ApiError` union:
 *   connection never made (refused, DNS, unreachable), the app's
 *   own 5xx error envelope (e.g. 503 + Retry-After), 429         -> retry_wait, jittered backoff /
 *                                                                     Retry-After
 *   timeout, reset or unknown network failure, malformed success
 *   body (HTML, truncated JSON, over the size cap, schema
 *   mismatch), a gateway's 502/504 or a 5xx that is not the app's
 *   envelope (`mayHaveApplied`), aborted
 *                                  -> unknown: the request may have landed; verify by reading, never
 *                                     resend blindly (duplicates are the worst outcome)
 *   401                            -> retry_wait and the whole queue pauses; the credentials are
 *                                     probed (GET /users/me) after a short backoff (1 s doubling to
 *                                     60 s) or at once on `retryNow()` (a nudge): a success resumes,
 *                                     a network failure probes again later, and only a confirmed 401
 *                                     stays paused and is reported (`onUnauthorized`) for sign-in
 *   any other API error            -> failed (a person retries, edits or discards)
 *   OutboxConflict from the kind   -> conflict
 * Unknown kinds, unknown versions and args the kind's schema rejects fail softly into `failed`.
 *
 * A write the disk refuses (`SQLITE_FULL`, `SQLITE_IOERR_*`; docs/sync-design.md "A full disk")
 * stops the drain instead of being tried again at once: the transaction rolled back, so the row is
 * as it was. Refused before the request left (recording the attempt), nothing was sent and the row
 * runs again later; refused after it returned (recording the outcome), the outcome is kept in
 * memory and written first when the disk takes writes again, so a request that landed is never
 * sent twice (a crash meanwhile leaves the row `sending`, verified by reading at the next start).
 * The drain resumes on the storage's retry ticks (backoff) or as soon as any write works again.
 */
import type { ApiConnection } from '../api/core.js';
import { isApiError, type ApiError, type UnauthorizedError } from '../api/errors.js';
import { getOwnUser } from '../api/routes/users.js';
import { defaultSeams, SleepAborted, type Seams } from '../base/seams.js';
import { hurryWaitingRows } from '../db/queries/outbox.js';
import { StorageHealth, storageFault } from '../db/storage.js';
import { backoffBound, DEFAULT_BACKOFF, retryDelay, type BackoffPolicy } from './backoff.js';
import { describeError } from './errors.js';
import { NO_CONTEXT, OutboxConflict, type KindContext, type RuntimeKind, type SendOutcome, type VerifyOutcome } from './kinds.js';
import type { OutboxRow, OutboxStore } from './store.js';

export type PusherStatus = 'stopped' | 'running' | 'paused_unauthorized';

export interface PusherOptions {
  readonly store: OutboxStore;
  readonly conn: ApiConnection;
  readonly seams?: Partial<Seams>;
  /** Entities drained at once. */
  readonly concurrency?: number;
  readonly backoff?: BackoffPolicy;
  /** What the session offers the kinds (its event queue, landed ids); none by default. */
  readonly context?: KindContext;
  /** Called when requests start being in flight (true) and when none are left (false). */
  readonly onBusy?: (busy: boolean) => void;
  /** A probe confirmed the server refuses the credentials: the queue stays paused until sign-in. */
  readonly onUnauthorized?: (e: UnauthorizedError) => void;
  /**
   * Reading the queue failed, and not because the disk is full (a damaged page): the pusher stops
   * looking until the next kick and tells its owner, which may rebuild the file.
   */
  readonly onStoreError?: (e: unknown) => void;
  /**
   * A request got the server's own answer (true: a success, a refusal, a conflict) or did not
   * reach it (false: refused connection, timeout, a gateway's error). The session uses it to
   * learn that the server is back before its event stream does.
   */
  readonly onAnswer?: (reached: boolean) => void;
  /** The account's record of refused writes (a private one, retrying with its backoff, if none). */
  readonly storage?: StorageHealth;
}

/** Probes of the credentials after a 401: 1 s, doubling, at most a minute apart. */
const PROBE_BACKOFF: BackoffPolicy = { firstBoundMs: 1_000, capMs: 60_000 };

/** Runnable heads fetched at once (see `ahead`). */
const AHEAD = 64;

/** errnos meaning the connection was never made, so the request cannot have reached the server. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'ENETDOWN', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * What a successful send reported, for the row's history: the created object's id (`created_id`)
 * and anything else the kind returned (e.g. a content edit merged before it landed: `rebased`).
 */
function outcomeNote(outcome: SendOutcome | void): { note?: Readonly<Record<string, unknown>> } {
  if (!outcome) return {};
  const { createdId, ...rest } = outcome;
  const note: Record<string, unknown> = { ...rest };
  if (createdId !== undefined) note['created_id'] = createdId;
  return Object.keys(note).length > 0 ? { note } : {};
}

/** May the request have reached the server? Only a refused or unresolvable connection says no. */
function mayHaveLanded(e: ApiError): boolean {
  if (e.kind === 'network') return !(e.errno !== undefined && NOT_SENT.has(e.errno));
  if (e.kind === 'server') return e.mayHaveApplied;
  return e.kind === 'timeout' || e.kind === 'malformed' || e.kind === 'aborted';
}

/** Whether a failure was the server's own answer (true), not an answer at all (false), or neither (a local error). */
function answeredByServer(e: unknown): boolean | undefined {
  if (e instanceof OutboxConflict) return true;
  if (!isApiError(e)) return undefined;
  if (e.kind === 'api' || e.kind === 'unauthorized' || e.kind === 'rate_limited') return true;
  // The app's own error envelope on a 5xx is the server; a gateway's page is not.
  if (e.kind === 'server') return !e.mayHaveApplied;
  return false;
}

export class OutboxPusher {
  private readonly store: OutboxStore;
  private readonly conn: ApiConnection;
  private readonly seams: Seams;
  private readonly concurrency: number;
  private readonly backoff: BackoffPolicy;
  private readonly context: KindContext;
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Serial groups (see `OutboxKind.serialGroup`) with a row in flight. */
  private readonly groupsInFlight = new Set<string>();
  private state: PusherStatus = 'stopped';
  private busy = false;
  private probe: AbortController | undefined;
  private probeAttempt = 0;
  private timer: AbortController | undefined;
  private idleWaiters: (() => void)[] = [];
  /**
   * Ids of runnable heads fetched ahead, best first. Finding heads is a pass over every live row,
   * so when a row completes the next one comes from this list instead (draining stayed quadratic
   * otherwise); each is re-read before it runs, since it may have been merged into, discarded or
   * rescheduled meanwhile. Cleared whenever something else may have made rows runnable (new rows,
   * a timer, retryNow, start, idle), so it never hides work for longer than a completion.
   */
  private ahead: number[] = [];
  private readonly storage: StorageHealth;
  /** The disk refused a write: nothing runs until the storage says to retry. */
  private diskWait = false;
  /** Rows left `sending` by a refused start (recoverAfterCrash) still to be turned `unknown`. */
  private recoverPending = false;
  /** Outcomes of requests that returned while the disk refused to record them, by row id, in order. */
  private readonly unrecorded = new Map<number, () => void>();
  private retrying = false;

  constructor(private readonly opts: PusherOptions) {
    this.store = opts.store;
    this.conn = opts.conn;
    this.seams = { ...defaultSeams, ...opts.seams };
    this.concurrency = Math.max(1, opts.concurrency ?? 4);
    this.backoff = opts.backoff ?? DEFAULT_BACKOFF;
    this.context = opts.context ?? NO_CONTEXT;
    this.storage = opts.storage ?? new StorageHealth({ seams: this.seams });
    this.storage.onRetry(() => this.diskRetry());
  }

  /** Waiting for the disk to take writes again (outcomes not yet recorded, or rows not yet started). */
  get waitingForDisk(): boolean {
    return this.diskWait || this.unrecorded.size > 0;
  }

  get status(): PusherStatus {
    return this.state;
  }

  /** Turn rows a previous process left `sending` into `unknown`, then start draining. */
  start(): void {
    if (this.state !== 'stopped') return;
    this.state = 'running';
    this.recoverPending = true;
    this.recover();
    this.refresh();
  }

  private recover(): void {
    if (!this.recoverPending) return;
    try {
      const recovered = this.store.recoverAfterCrash();
      this.recoverPending = false;
      if (recovered > 0) this.seams.logger.warn('outbox: rows left in flight by a previous run will be verified', { recovered });
    } catch (e) {
      if (!this.diskRefused(e)) throw e;
    }
  }

  /** `e` is a write the disk refused: stop draining until the storage says to retry. */
  private diskRefused(e: unknown): boolean {
    if (!this.storage.failed(e)) return false;
    this.diskWait = true;
    return true;
  }

  /** The storage's retry tick, or writes work again: record what waited, then drain. */
  private diskRetry(): void {
    // Re-entered when a write below ends the refused state (the storage tells everyone then).
    if (this.retrying || (!this.diskWait && this.unrecorded.size === 0)) return;
    this.retrying = true;
    try {
      this.flushUnrecorded();
    } finally {
      this.retrying = false;
    }
    if (!this.diskWait) this.refresh();
  }

  private flushUnrecorded(): void {
    this.diskWait = false;
    this.recover();
    for (const [id, write] of [...this.unrecorded]) {
      if (this.diskWait) break;
      try {
        write();
        this.unrecorded.delete(id);
        this.storage.succeeded();
      } catch (e) {
        if (!this.diskRefused(e)) {
          // Not the disk: the row stays `sending` and is verified by reading at the next start.
          this.unrecorded.delete(id);
          this.seams.logger.error('outbox: an outcome could not be recorded', { id, error: describeError(e) });
        }
      }
    }
  }

  /**
   * Record a request's outcome. Refused by the disk, it is kept and written first when writes work
   * again: the request is not sent again meanwhile (its row stays `sending`, which never runs).
   */
  private record(row: Pick<OutboxRow, 'id'>, write: () => void): void {
    try {
      write();
    } catch (e) {
      if (!this.diskRefused(e)) throw e;
      this.unrecorded.set(row.id, write);
    }
  }

  /** Stop launching; requests in flight finish and record their outcome. */
  async stop(): Promise<void> {
    this.state = 'stopped';
    this.timer?.abort();
    this.probe?.abort();
    await Promise.all([...this.inFlight.values()]);
    // Outcomes the disk refused are forgotten: their rows stay `sending`, and the next start turns
    // them `unknown` and verifies them by reading (replaying them after that would be stale).
    this.unrecorded.clear();
    this.diskWait = false;
    this.wakeIdle();
  }

  /** New rows were committed: look for work. */
  kick(): void {
    this.refresh();
  }

  /**
   * Network regained, system resumed or a poll succeeded: waiting rows go now. Rows waiting out a
   * server's Retry-After keep waiting (hurrying them only earns another 429), but never beyond the
   * cap from now (a row written by an older version may wait a whole day).
   */
  retryNow(): void {
    // Paused by a 401: check the credentials now instead of waiting for the next probe or poll.
    if (this.state === 'paused_unauthorized') this.scheduleProbe(true);
    const now = this.seams.clock.now();
    try {
      hurryWaitingRows(this.store.db, now, now + this.backoff.capMs);
    } catch (e) {
      // Called from the event path and on nudges: a refused write waits for the storage's retry.
      if (!this.diskRefused(e)) throw e;
      return;
    }
    this.refresh();
  }

  /** Credentials were fixed after a 401: the queue runs again. */
  resume(): void {
    if (this.state === 'paused_unauthorized') this.state = 'running';
    this.probe?.abort();
    this.probe = undefined;
    this.retryNow();
  }

  /** Resolves once nothing is in flight and nothing can run before some time passes (tests, shutdown). */
  idle(): Promise<void> {
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.refresh();
    });
  }

  /** Look for work afresh (forget the heads fetched ahead). */
  private refresh(): void {
    this.ahead = [];
    this.pump();
  }

  /** One of the queue's reads; undefined (the pump stops) when it fails: run from promise callbacks, it must not throw. */
  private read<T>(f: () => T): T | undefined {
    try {
      return f();
    } catch (e) {
      this.ahead = [];
      if (this.diskRefused(e)) return undefined;
      this.seams.logger.error('outbox: the queue could not be read', { error: describeError(e) });
      this.opts.onStoreError?.(e);
      return undefined;
    }
  }

  private pump(): void {
    if (this.state === 'running' && !this.diskWait) {
      const now = this.seams.clock.now();
      let fetched = false;
      while (this.inFlight.size < this.concurrency) {
        if (this.ahead.length === 0) {
          if (fetched) break;
          fetched = true;
          const heads = this.read(() => this.store.runnableHeads(now, AHEAD));
          if (heads === undefined) break;
          this.ahead = heads.map((r) => r.id);
        }
        const id = this.ahead.shift();
        if (id === undefined) break;
        const head = this.read(() => this.store.runnableHead(id, now) ?? null);
        if (head === undefined) break;
        if (!head || this.inFlight.has(head.entityKey)) continue;
        const group = this.store.kinds.get(head.kind, head.kindVersion)?.serialGroup;
        // Its group's earlier row is in flight: this one waits (read again once that one is done).
        if (group !== undefined && this.groupsInFlight.has(group)) continue;
        if (group !== undefined) this.groupsInFlight.add(group);
        const task = this.run(head)
          .catch((e: unknown) => {
            if (!this.diskRefused(e)) this.seams.logger.error('outbox: a row could not be processed', { id: head.id, error: describeError(e) });
          })
          .finally(() => {
            this.inFlight.delete(head.entityKey);
            if (group === undefined) this.pump();
            else {
              this.groupsInFlight.delete(group);
              this.refresh();
            }
          });
        this.inFlight.set(head.entityKey, task);
      }
    }
    const busy = this.inFlight.size > 0;
    if (busy !== this.busy) {
      this.busy = busy;
      this.opts.onBusy?.(busy);
    }
    if (!busy) {
      this.armTimer();
      this.wakeIdle();
    }
  }

  /** Whether requests are in flight (the session shows the outbox draining meanwhile). */
  get draining(): boolean {
    return this.busy;
  }

  private wakeIdle(): void {
    for (const w of this.idleWaiters.splice(0)) w();
  }

  private armTimer(): void {
    this.timer?.abort();
    this.timer = undefined;
    if (this.state !== 'running' || this.diskWait) return;
    const at = this.store.nextWakeAt();
    if (at === null) return;
    const ctl = new AbortController();
    this.timer = ctl;
    this.seams.sleep(at - this.seams.clock.now(), ctl.signal).then(
      () => {
        if (this.timer === ctl) this.refresh();
      },
      (e: unknown) => {
        if (!(e instanceof SleepAborted)) this.seams.logger.error('outbox: timer failed', { error: describeError(e) });
      },
    );
  }

  private async run(head: OutboxRow): Promise<void> {
    const kind = this.store.kinds.get(head.kind, head.kindVersion);
    if (!kind) {
      this.store.apply(head, 'reject', { lastError: { kind: 'unknown_kind', message: `this app does not know outbox kind '${head.kind}' version ${head.kindVersion}; update the app, or discard the change` } });
      return;
    }
    const parsed = kind.parse(head.args, head.base);
    if (!parsed.ok) {
      this.store.apply(head, 'reject', { lastError: { kind: 'bad_args', message: parsed.problems } });
      return;
    }
    if (head.state === 'unknown') return this.verify(head, kind, parsed.value);
    if (head.deadlineAt !== null && this.seams.clock.now() > head.deadlineAt) {
      this.store.apply(head, 'expire', { lastError: { kind: 'deadline_expired', message: 'the time limit for this change passed before it could be sent', deadlineAt: head.deadlineAt } });
      return;
    }
    const sending = this.store.apply(head, 'send', { attempts: head.attempts + 1, nextAttemptAt: null });
    this.storage.succeeded();
    let createdId: number | string | undefined;
    let outcome: SendOutcome | void;
    try {
      outcome = await kind.send(this.conn, parsed.value.args, parsed.value.base, this.context);
      createdId = outcome?.createdId;
    } catch (e) {
      this.record(sending, () => this.onSendError(sending, e));
      this.answered(answeredByServer(e));
      return;
    }
    this.record(sending, () =>
      this.store.db.transaction(() => {
        this.store.apply(sending, 'succeeded', { lastError: null, nextAttemptAt: null, ...outcomeNote(outcome) });
        if (createdId !== undefined) this.store.landCreate(sending, createdId);
      })(),
    );
    this.answered(true);
  }

  private onSendError(row: OutboxRow, e: unknown): void {
    const lastError = describeError(e);
    const now = this.seams.clock.now();
    if (e instanceof OutboxConflict) this.store.apply(row, 'conflicted', { lastError });
    // The kind's own local write was refused mid-request: it may have reached the server.
    else if (storageFault(e) !== undefined) this.store.apply(row, 'lost', { lastError, nextAttemptAt: now });
    else if (!isApiError(e) || e.kind === 'api') this.store.apply(row, 'permanent', { lastError });
    else if (e.kind === 'unauthorized') {
      this.store.apply(row, 'transient', { lastError, nextAttemptAt: now });
      this.pause(e);
    } else if (mayHaveLanded(e)) this.store.apply(row, 'lost', { lastError, nextAttemptAt: now });
    else {
      const wait = retryDelay(e, row.attempts, this.seams.random, this.backoff);
      // The server asked for longer than the cap: keep what it asked, and say how long we wait.
      if (e.kind === 'rate_limited' && e.retryAfterMs !== undefined && e.retryAfterMs > wait) {
        lastError['message'] = `${String(lastError['message'])}; the server asked to wait ${Math.ceil(e.retryAfterMs / 1000)} s, retrying in ${Math.ceil(wait / 1000)} s`;
        lastError['waitMs'] = wait;
      }
      this.store.apply(row, 'transient', { lastError, nextAttemptAt: now + wait });
    }
  }

  private async verify(head: OutboxRow, kind: RuntimeKind, v: { args: unknown; base: unknown }): Promise<void> {
    const verifying = this.store.apply(head, 'verify');
    this.storage.succeeded();
    const tries = verifying.history.filter((h) => typeof h === 'object' && h !== null && 'event' in h && h.event === 'verify').length;
    let outcome: VerifyOutcome;
    try {
      outcome = await kind.verify(this.conn, v.args, v.base, this.context);
    } catch (e) {
      const lastError = describeError(e);
      const now = this.seams.clock.now();
      if (isApiError(e) && e.kind === 'unauthorized') {
        this.record(verifying, () => this.store.apply(verifying, 'verify_inconclusive', { lastError, nextAttemptAt: now }));
        this.pause(e);
      } else if ((isApiError(e) && e.kind !== 'api') || storageFault(e) !== undefined) {
        const at = now + retryDelay(isApiError(e) ? e : undefined, tries, this.seams.random, this.backoff);
        this.record(verifying, () => this.store.apply(verifying, 'verify_inconclusive', { lastError, nextAttemptAt: at }));
      } else this.record(verifying, () => this.store.apply(verifying, 'verify_failed', { lastError }));
      this.answered(answeredByServer(e));
      return;
    }
    this.record(verifying, () => {
      if (outcome === 'not_applied') this.store.apply(verifying, 'verified_not_applied', { nextAttemptAt: null, note: { verified: 'not_applied' } });
      else if (outcome === 'unknown') {
        const at = this.seams.clock.now() + retryDelay(undefined, tries, this.seams.random, this.backoff);
        this.store.apply(verifying, 'verify_inconclusive', { nextAttemptAt: at, note: { verified: 'unknown' } });
      } else {
        this.store.db.transaction(() => {
          this.store.apply(verifying, 'verified_applied', { lastError: null, nextAttemptAt: null, note: { verified: 'applied', ...(typeof outcome === 'object' ? { created_id: outcome.createdId } : {}) } });
          if (typeof outcome === 'object') this.store.landCreate(verifying, outcome.createdId);
        })();
      }
    });
    this.answered(true);
  }

  private answered(reached: boolean | undefined): void {
    if (reached !== undefined) this.opts.onAnswer?.(reached);
  }

  private pause(e: ApiError): void {
    if (this.state !== 'running') return;
    this.state = 'paused_unauthorized';
    this.probeAttempt = 0;
    this.seams.logger.warn('outbox: paused; checking the credentials', { error: describeError(e) });
    this.scheduleProbe(false);
  }

  /** Probe the credentials after the next backoff step (or at once): one probe at a time. */
  private scheduleProbe(now: boolean): void {
    this.probe?.abort();
    this.probe = undefined;
    if (this.state !== 'paused_unauthorized') return;
    const ctl = new AbortController();
    this.probe = ctl;
    const wait = now ? 0 : backoffBound(++this.probeAttempt, PROBE_BACKOFF);
    void this.runProbe(wait, ctl);
  }

  private async runProbe(wait: number, ctl: AbortController): Promise<void> {
    try {
      await this.seams.sleep(wait, ctl.signal);
      await getOwnUser(this.conn, { signal: ctl.signal });
    } catch (e) {
      if (ctl.signal.aborted || this.probe !== ctl) return;
      if (e instanceof SleepAborted) return;
      if (isApiError(e) && e.kind === 'unauthorized') {
        // Confirmed: nothing more is tried until the user signs in again (or a nudge asks again).
        this.probe = undefined;
        this.seams.logger.warn('outbox: the server refuses the credentials; paused until sign-in', { error: describeError(e) });
        this.opts.onUnauthorized?.(e);
        return;
      }
      // Inconclusive (offline, a 5xx): ask again later.
      this.scheduleProbe(false);
      return;
    }
    if (this.probe !== ctl) return;
    this.seams.logger.info('outbox: the credentials work again; resuming');
    this.resume();
  }
}
