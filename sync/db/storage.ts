/**
 * A full disk is a state, not a crash (docs/sync-design.md "A full disk"). SQLite refuses a write
 * with `SQLITE_FULL` when the disk (or `max_page_count`) leaves no room, and with `SQLITE_IOERR_*`
 * when the device fails a write; the transaction rolls back and the database stays as it was.
 * Nothing is lost, but nothing can be recorded either, so whoever writes must stop trying at once
 * and try again later, not in a loop.
 *
 * `StorageHealth` is the account's one record of that state: writers report a refused write
 * (`failed`) and a write that went through (`succeeded`); it logs once per change of state (never
 * per attempt), tells its listeners when the state changes, and while the disk is refused it ticks
 * with a backoff (`retryBackoff`: 1 s doubling to a minute) so every writer that stopped tries again
 * by itself, and a small probe write finds out when space came back even if nobody else has
 * anything to write.
 */
import { SleepAborted, type Seams } from '../base/seams.js';

export type StorageFaultKind = 'full' | 'io';

/** A refused write's kind, or undefined when `e` is not SQLite refusing to write to the disk. */
export function storageFault(e: unknown): StorageFaultKind | undefined {
  const cause = e instanceof Error && !hasCode(e) && e.cause !== undefined ? e.cause : e;
  if (!hasCode(cause)) return undefined;
  if (cause.code === 'SQLITE_FULL') return 'full';
  if (cause.code === 'SQLITE_IOERR' || cause.code.startsWith('SQLITE_IOERR_')) return 'io';
  return undefined;
}

function hasCode(e: unknown): e is Error & { code: string } {
  return e instanceof Error && e.name === 'SqliteError' && typeof Reflect.get(e, 'code') === 'string';
}

/** What a person is told when a change of theirs could not be written. */
export const STORAGE_REFUSED_MESSAGE: Readonly<Record<StorageFaultKind, string>> = {
  full: 'The disk is full; your change was not saved.',
  io: 'The disk could not be written; your change was not saved.',
};

export type StorageState = { readonly state: 'ok' } | { readonly state: StorageFaultKind; readonly since: number; readonly nextRetryAt: number; readonly error: string };

export interface StorageRetryPolicy {
  readonly firstMs: number;
  readonly capMs: number;
}

export const DEFAULT_STORAGE_RETRY: StorageRetryPolicy = { firstMs: 1_000, capMs: 60_000 };

export interface StorageHealthOptions {
  readonly seams: Seams;
  readonly retry?: StorageRetryPolicy;
  /** A small write that needs room on the disk; throws like any write when there is none. */
  readonly probe?: () => void;
}

export class StorageHealth {
  private value: StorageState = { state: 'ok' };
  private attempt = 0;
  private lastRecoveredAt = Number.NEGATIVE_INFINITY;
  private timer: AbortController | undefined;
  private closed = false;
  private readonly changeListeners = new Set<(s: StorageState) => void>();
  private readonly retryListeners = new Set<() => void>();
  private readonly retry: StorageRetryPolicy;

  constructor(private readonly opts: StorageHealthOptions) {
    this.retry = opts.retry ?? DEFAULT_STORAGE_RETRY;
  }

  get state(): StorageState {
    return this.value;
  }

  /** Writes are being refused: writers wait for `onRetry` instead of trying again at once. */
  get refused(): boolean {
    return this.value.state !== 'ok';
  }

  onChange(l: (s: StorageState) => void): () => void {
    this.changeListeners.add(l);
    return () => this.changeListeners.delete(l);
  }

  /** Called on every retry tick while writes are refused, and once when they work again. */
  onRetry(l: () => void): () => void {
    this.retryListeners.add(l);
    return () => this.retryListeners.delete(l);
  }

  /**
   * `e` was thrown by a write: when it is a refused write, note the state (and schedule the next
   * retry) and answer true; anything else answers false and changes nothing.
   */
  failed(e: unknown): boolean {
    const kind = storageFault(e);
    if (kind === undefined) return false;
    const now = this.opts.seams.clock.now();
    const error = e instanceof Error ? e.message : String(e);
    if (this.value.state === kind) return true;
    // Space that came back only briefly (a probe fits, the real write does not) keeps the backoff
    // growing: the state may flap, but never faster than the backoff.
    this.attempt = now - this.lastRecoveredAt < this.retry.capMs ? this.attempt : 0;
    const wasOk = this.value.state === 'ok';
    this.value = { state: kind, since: wasOk ? now : (this.value as { since: number }).since, nextRetryAt: now, error };
    this.opts.seams.logger.warn(kind === 'full' ? 'the disk is full: changes are refused and syncing waits until there is room' : 'the disk refuses writes: changes are refused and syncing waits', { error });
    this.schedule();
    this.changed();
    return true;
  }

  /** A write went through: if writes were refused, they work again and everyone resumes. */
  succeeded(): void {
    if (this.value.state === 'ok') return;
    this.value = { state: 'ok' };
    this.lastRecoveredAt = this.opts.seams.clock.now();
    this.timer?.abort();
    this.timer = undefined;
    this.opts.seams.logger.info('the disk takes writes again; resuming');
    this.changed();
    this.emitRetry();
  }

  /** Run `f`, a write: a refused write is noted and rethrown; a success clears a refused state. */
  write<T>(f: () => T): T {
    let out: T;
    try {
      out = f();
    } catch (e) {
      this.failed(e);
      throw e;
    }
    this.succeeded();
    return out;
  }

  /** The account closes: no more ticks, no more listeners. */
  close(): void {
    this.closed = true;
    this.timer?.abort();
    this.timer = undefined;
    this.changeListeners.clear();
    this.retryListeners.clear();
  }

  private schedule(): void {
    this.timer?.abort();
    if (this.closed || this.value.state === 'ok') return;
    const wait = Math.min(this.retry.capMs, this.retry.firstMs * 2 ** this.attempt);
    this.attempt = Math.min(this.attempt + 1, 30);
    const ctl = new AbortController();
    this.timer = ctl;
    const nextRetryAt = Math.ceil(this.opts.seams.clock.now() + wait);
    this.value = { ...this.value, nextRetryAt };
    this.opts.seams.sleep(wait, ctl.signal).then(
      () => {
        if (this.timer === ctl) this.tick();
      },
      (e: unknown) => {
        if (!(e instanceof SleepAborted)) this.opts.seams.logger.error('storage retry timer failed', { error: e instanceof Error ? e.message : String(e) });
      },
    );
  }

  private tick(): void {
    this.timer = undefined;
    if (this.closed || this.value.state === 'ok') return;
    if (this.opts.probe) {
      try {
        this.opts.probe();
        this.succeeded();
        return;
      } catch (e) {
        if (!this.failed(e)) this.opts.seams.logger.error('storage probe failed', { error: e instanceof Error ? e.message : String(e) });
      }
    } else this.emitRetry();
    // Still refused: wait longer before the next try (the listeners hear the new retry time).
    if (this.refused && this.timer === undefined) {
      this.schedule();
      this.changed();
    }
  }

  private changed(): void {
    for (const l of this.changeListeners) l(this.value);
  }

  private emitRetry(): void {
    for (const l of this.retryListeners) {
      try {
        l();
      } catch (e) {
        if (!this.failed(e)) this.opts.seams.logger.error('a storage retry failed', { error: e instanceof Error ? e.message : String(e) });
      }
    }
  }
}
