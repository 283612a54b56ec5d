/**
 * Reporting the user's own presence (docs/sync-design.md "Presence"), as Zulip web's activity.ts:
 * once a page says the app is in use (`reportActivity`), the engine sends POST /users/me/presence
 * every `server_presence_ping_interval_seconds` while the event stream is live, `active` while the
 * window has focus and `idle` otherwise, and at once when the user becomes active or the stream
 * comes back. The answer (the realm's presences newer than `last_update_id`) is merged into the
 * stored ones. Never queued and never retried: a missed report is simply the next one.
 */
import { updatePresence, type ApiConnection } from '../api/index.js';
import { SleepAborted, type Seams } from '../base/seams.js';
import { ChangeCollector, type StoreChanges } from '../db/changes.js';
import type { LocalDb } from '../db/open.js';
import { DEFAULT_PING_INTERVAL_S, mergePresences, presenceLastUpdateId, realmSeconds } from './handlers/presence.js';

export interface PresenceReporterDeps {
  readonly db: LocalDb;
  readonly conn: ApiConnection;
  readonly seams: Seams;
  readonly online: () => boolean;
  readonly emit: (c: StoreChanges) => void;
}

/** A presence report is worthless late. */
const PRESENCE_REQUEST_TIMEOUT_MS = 15_000;

export class PresenceReporter {
  private active = false;
  private newInput = false;
  /** Set by the first `setActivity`: an engine no page uses reports nothing. */
  private used = false;
  private running: AbortController | undefined;
  private sending: Promise<void> | undefined;

  constructor(private readonly deps: PresenceReporterDeps) {}

  /** Begin the ping loop (it sends nothing until a page reports activity). */
  start(): void {
    if (this.running) return;
    const ctl = new AbortController();
    this.running = ctl;
    void this.loop(ctl.signal);
  }

  async stop(): Promise<void> {
    this.running?.abort();
    this.running = undefined;
    await this.sending;
  }

  /** The page's report: window focused (or not), and whether the user interacted since the last one. */
  setActivity(active: boolean, newUserInput: boolean): void {
    const becameActive = active && (!this.active || !this.used);
    this.used = true;
    this.active = active;
    if (newUserInput) this.newInput = true;
    if (becameActive) void this.ping();
  }

  /** The event stream came back: report at once rather than an interval later. */
  wentLive(): void {
    void this.ping();
  }

  private async loop(signal: AbortSignal): Promise<void> {
    const { db, seams } = this.deps;
    while (!signal.aborted) {
      try {
        await seams.sleep(realmSeconds(db, 'server_presence_ping_interval_seconds', DEFAULT_PING_INTERVAL_S) * 1000, signal);
      } catch (e) {
        if (e instanceof SleepAborted) return;
        throw e;
      }
      await this.ping();
    }
  }

  /** One report, if a page uses the engine, the stream is live and none is in flight. */
  ping(): Promise<void> {
    if (!this.used || !this.running || !this.deps.online() || this.sending) return this.sending ?? Promise.resolve();
    this.sending = this.send().finally(() => (this.sending = undefined));
    return this.sending;
  }

  private async send(): Promise<void> {
    const { db, conn, seams } = this.deps;
    const input = this.newInput;
    this.newInput = false;
    try {
      const res = await updatePresence(conn, { status: this.active ? 'active' : 'idle', last_update_id: presenceLastUpdateId(db), new_user_input: input }, { timeoutMs: PRESENCE_REQUEST_TIMEOUT_MS });
      const changes = new ChangeCollector();
      db.transaction(() => mergePresences(db, res.presences ?? {}, res.presence_last_update_id, changes))();
      this.deps.emit(changes.freeze());
    } catch (e) {
      if (input) this.newInput = true;
      seams.logger.warn('presence not reported', { error: e instanceof Error ? e.message : String(e) });
    }
  }
}
