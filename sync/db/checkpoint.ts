/**
 * Checkpoints: SQLite copies the write-ahead log back into the database file on its own only when
 * the log reaches 1000 pages or the last connection closes, so in a light session everything stays
 * in `-wal` (the database file 4 KiB) for the whole run, and a killed process leaves it there. An
 * account's database is checkpointed when it is closed and whenever its writes pause.
 *
 * Always PASSIVE: it copies what no reader holds back and never waits (a TRUNCATE or RESTART would
 * wait on the busy timeout for another connection's reader, blocking the engine meanwhile).
 */
import { statSync } from 'node:fs';
import { SleepAborted, type EngineLogger, type Sleep } from '../base/seams.js';
import type { LocalDb } from './open.js';

/** Copy the write-ahead log into the database file, as far as no reader prevents it. */
export function checkpoint(db: LocalDb): void {
  if (db.memory || !db.open) return;
  db.pragma('wal_checkpoint(PASSIVE)');
}

/** How often an idle database is looked at: its writes paused for at least this long are checkpointed. */
export const CHECKPOINT_IDLE_MS = 10_000;

/**
 * Every `everyMs`, looks at the log file: written to since the last look means busy; unchanged
 * since the last look but changed since the last checkpoint means the writes have paused, and the
 * log is checkpointed. A database in memory is never looked at.
 */
export class IdleCheckpointer {
  private stopping: AbortController | undefined;
  private loop: Promise<void> | undefined;
  private lastSeen = '';
  private lastCheckpointed = '';
  private lastError: string | undefined;

  constructor(
    private readonly db: LocalDb,
    private readonly opts: { readonly sleep: Sleep; readonly logger: EngineLogger },
    private readonly everyMs = CHECKPOINT_IDLE_MS,
  ) {}

  start(): void {
    if (this.stopping || this.db.memory) return;
    const stopping = new AbortController();
    this.stopping = stopping;
    this.loop = this.run(stopping.signal);
  }

  async stop(): Promise<void> {
    this.stopping?.abort();
    this.stopping = undefined;
    await this.loop;
    this.loop = undefined;
  }

  /** One look (what the loop does every `everyMs`). */
  tick(): void {
    if (!this.db.open) return;
    const seen = walState(this.db.name);
    if (seen !== this.lastSeen) {
      this.lastSeen = seen;
      return;
    }
    if (seen === this.lastCheckpointed || seen === '') return;
    try {
      checkpoint(this.db);
      this.lastCheckpointed = seen;
    } catch (e) {
      // Said once per distinct failure: a full disk fails every look until there is room again.
      const error = e instanceof Error ? e.message : String(e);
      if (error !== this.lastError) this.opts.logger.warn('the database could not be checkpointed', { error });
      this.lastError = error;
      return;
    }
    this.lastError = undefined;
  }

  private async run(signal: AbortSignal): Promise<void> {
    for (;;) {
      try {
        await this.opts.sleep(this.everyMs, signal);
      } catch (e) {
        if (e instanceof SleepAborted) return;
        throw e;
      }
      this.tick();
    }
  }
}

/** The log file's size and modification time ('' when there is none): any write changes it. */
function walState(file: string): string {
  try {
    const s = statSync(`${file}-wal`, { bigint: true });
    return s.size === 0n ? '' : `${s.size}:${s.mtimeNs}`;
  } catch {
    return '';
  }
}
