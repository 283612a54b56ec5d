/**
 * The integrity check a clean close deferred (docs/sync-design.md "Damaged data"): some seconds
 * after open, out of the way of the first answers, SQLite's `quick_check` reads the whole file on
 * its own connection in a worker thread. Damage found is reported like damage met while open
 * (`onDamaged`), so the owner runs the same recovery.
 */
import type { EngineLogger } from '../base/seams.js';
import { QUICK_CHECK_LIMIT, checkDatabaseFile } from '../db/damage.js';
import { backgroundCheck, type BackgroundCheck } from '../db/deferred-check.js';

/** After a clean close the check starts this long after open (after the first answers). */
export const DEFERRED_CHECK_DELAY_MS = 10_000;

export class DeferredIntegrityCheck {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: BackgroundCheck | undefined;
  private closed = false;
  private pending: Promise<string | undefined> | undefined;

  constructor(
    private readonly file: string | undefined,
    private readonly logger: EngineLogger,
    private readonly damaged: (error: unknown) => void,
  ) {}

  schedule(delayMs: number): void {
    if (this.file === undefined || this.closed) return;
    this.timer = setTimeout(() => void this.run(), delayMs);
    this.timer.unref?.();
  }

  /** Run the check now (the scheduled one no longer runs; one already running is answered): the problem found, undefined when sound. */
  run(): Promise<string | undefined> {
    clearTimeout(this.timer);
    return (this.pending ??= this.check().finally(() => (this.pending = undefined)));
  }

  private async check(): Promise<string | undefined> {
    if (this.file === undefined || this.closed) return undefined;
    const check = (this.running = backgroundCheck(this.file, QUICK_CHECK_LIMIT));
    try {
      const problem = await check.result.catch((e: unknown) => {
        // The worker could not run (no worker threads, an addon it cannot load): the same check
        // on this thread, late rather than never.
        this.logger.warn('the background integrity check ran on the engine thread', { error: e instanceof Error ? e.message : String(e) });
        return this.closed || this.file === undefined ? undefined : checkDatabaseFile(this.file);
      });
      if (problem !== undefined && !this.closed) {
        this.logger.error('the background integrity check found the account database damaged', { problem });
        this.damaged(Object.assign(new Error(problem), { name: 'SqliteError', code: 'SQLITE_CORRUPT' }));
      }
      return problem;
    } catch (e) {
      // Not damage (the file went away): the next open without a clean mark checks.
      this.logger.warn('the background integrity check could not run', { error: e instanceof Error ? e.message : String(e) });
      return undefined;
    } finally {
      this.running = undefined;
    }
  }

  /** The database is closing: no check starts, a running one is stopped. */
  async cancel(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.running?.cancel();
  }
}
