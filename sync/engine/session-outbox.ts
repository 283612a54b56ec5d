/**
 * The account session's outbox: one durable store with every mutation kind registered, and one
 * pusher draining it over the session's connection.
 *
 *   enqueue(kind, args)  the kind's optimistic effect and the row in ONE transaction, then the
 *                        change is emitted (live views update at once) and the pusher kicked
 *   start() / stop()     the pusher, plus pruning of finished rows at start and every hour
 *   retryNow() / resume() network regained, machine resumed, the event stream back live; resume
 *                        also lifts a 401 pause once the session's credentials work again
 *   retry / discard / edit / resolveConflict   the user's actions on a row
 *
 * Every state change of a row is reported to the session's listeners as the `outbox` area plus
 * the messages carrying its marker, after the transaction that made it commits (a microtask
 * later: better-sqlite3 transactions are synchronous, so none is open by then).
 *
 * Dropping a row (discard, or taking theirs in a conflict) undoes its optimistic effect by reading
 * the server's state back; offline, the undo waits (durably) until the session is live again.
 */
import type { ApiConnection } from '../api/index.js';
import type { LocalDb } from '../db/open.js';
import { liveOutboxCounts, nextOutboxRowId } from '../db/queries/outbox.js';
import { getRealmEditingSettings, getRealmLimits } from '../db/queries/realm.js';
import { getEngineSetting, setEngineSetting } from '../db/queries/state.js';
import { DEFAULT_LIMITS } from '../outbox/normalize.js';
import { OutboxIntentError, type KindContext, type KindRegistry, type OutboxKind, type RuntimeKind } from '../outbox/kinds.js';
import { applyResolution, parseConflictDetails, resolveConflict, type ConflictChoice } from '../outbox/mutations/message-conflict.js';
import {
  conversationKey,
  MESSAGE_SEND_KIND,
  messageSend,
  removeEcho,
  type MessageSendArgs,
  type MessageSendBase,
  type SendTarget,
  type SendUpload,
} from '../outbox/mutations/message-send.js';
import { allKinds, CURRENT_KINDS, localEffectOf } from '../outbox/registry.js';
import { OutboxPusher } from '../outbox/pusher.js';
import { OutboxStore, type EnqueueResult, type OutboxRow, type TransitionPatch } from '../outbox/store.js';
import type { OutboxEvent } from '../outbox/states.js';
import { ChangeCollector, type StoreChanges } from '../db/changes.js';
import { claimedIds, isRetryable, reapplyAll, refreshFromServer, undoOf, type Undo } from './outbox-local.js';
import { SleepAborted, type Seams } from '../base/seams.js';
import type { StorageHealth } from '../db/storage.js';
import { OutboxFiles } from '../uploads/outbox-files.js';
import { landedUploadUrls, liveUploadFileIds } from '../db/queries/outbox-uploads.js';
import { UPLOAD_FILE_KIND, uploadFileArgs, uploadOf } from '../outbox/mutations/upload-file.js';

export const PRUNE_EVERY_MS = 3600_000;

export { OutboxIntentError } from '../outbox/kinds.js';
const UNDO_SETTING = 'outbox.pending_undo';

export interface OutboxHost {
  readonly db: LocalDb;
  readonly conn: ApiConnection;
  readonly seams: Seams;
  /** The registered event queue, if any (for `send_message`'s local echo). */
  queueId(): string | undefined;
  isLive(): boolean;
  emit(c: StoreChanges): void;
  /** The drain's progress changed (see `drainProgress`). */
  drainChanged?(): void;
  /** A probe confirmed the server refuses the credentials (the outbox stays paused). */
  credentialsRefused?(error: string): void;
  /** Reading the queue failed for a reason other than a full disk (a damaged file): the session's owner recovers it. */
  queueUnreadable?(error: unknown): void;
  /** A request of the drain got the server's own answer (true) or did not reach it (false). */
  serverAnswered?(reached: boolean): void;
  /** The account's record of writes the disk refused (docs/sync-design.md "A full disk"). */
  readonly storage?: StorageHealth;
  /** Copies of files queued for upload (none: uploads are kept in memory). */
  readonly files?: OutboxFiles;
  /** An upload landed: keep its bytes where the page reads uploads from (the upload cache). */
  keepUpload?(url: string, mimeType: string, bytes: Buffer): void;
  /** An upload's request body went this far (`upload_id`: its local id). */
  uploadProgress?(uploadId: number, sent: number, total: number): void;
}

/** The store, reporting each transition and each landed create to the session. */
class ReportingStore extends OutboxStore {
  constructor(
    db: LocalDb,
    kinds: KindRegistry,
    clock: Seams['clock'],
    private readonly report: { row(r: OutboxRow): void; landed(r: Pick<OutboxRow, 'kind' | 'kindVersion' | 'args'>, createdId: number | string): void },
  ) {
    super(db, kinds, clock);
  }
  override apply(row: Pick<OutboxRow, 'id'>, event: OutboxEvent, patch?: TransitionPatch): OutboxRow {
    const out = super.apply(row, event, patch);
    this.report.row(out);
    return out;
  }
  override landCreate(row: OutboxRow, createdId: number | string): void {
    super.landCreate(row, createdId);
    this.report.landed(row, createdId);
  }
}

export class SessionOutbox {
  readonly store: OutboxStore;
  readonly pusher: OutboxPusher;
  private readonly db: LocalDb;
  private pending = new ChangeCollector();
  private flushQueued = false;
  private pruneTimer: AbortController | undefined;
  /** Rows settled (done, failed, conflict, discarded) since requests began to be in flight. */
  private drained = 0;
  readonly files: OutboxFiles;
  /** Copies of uploads that ended (landed or discarded), removed once the transaction commits. */
  private filesToRemove: string[] = [];

  constructor(private readonly host: OutboxHost) {
    this.db = host.db;
    this.files = host.files ?? new OutboxFiles(undefined);
    const files = this.files;
    const context: KindContext = {
      uploads: {
        read: (id) => files.read(id),
        urlOf: (tmp) => this.store.resolvedTempId(tmp),
        discarded: (tmp) => uploadOf(this.db, tmp)?.state === 'discarded',
        landedUrls: () => landedUploadUrls(this.db),
        keep: (url, type, bytes) => host.keepUpload?.(url, type, bytes),
        progress: (id, sent, total) => host.uploadProgress?.(id, sent, total),
      },
      queueId: () => host.queueId(),
      claimed: (key, localId) => claimedIds(this.db, key, localId),
      limits: () => {
        const l = getRealmLimits(this.db);
        const empty = getRealmEditingSettings(this.db).emptyTopicDisplayName;
        return { maxMessageLength: l.maxMessageLength ?? DEFAULT_LIMITS.maxMessageLength, maxTopicLength: l.maxTopicLength ?? DEFAULT_LIMITS.maxTopicLength, emptyTopicName: empty };
      },
    };
    this.store = new ReportingStore(this.db, allKinds(), host.seams.clock, {
      row: (r) => this.noteRow(r),
      landed: (r, id) => this.store.kinds.get(r.kind, r.kindVersion)?.landed(this.db, r.args, id, this.pending),
    });
    this.pusher = new OutboxPusher({
      store: this.store,
      conn: host.conn,
      seams: host.seams,
      context,
      onBusy: (busy) => {
        if (busy) this.drained = 0;
        host.drainChanged?.();
      },
      onUnauthorized: (e) => host.credentialsRefused?.(e.message),
      onStoreError: (e) => host.queueUnreadable?.(e),
      onAnswer: (reached) => host.serverAnswered?.(reached),
      ...(host.storage ? { storage: host.storage } : {}),
    });
  }

  start(): void {
    const changes = new ChangeCollector();
    try {
      this.db.transaction(() => reapplyAll(this.db, changes))();
    } catch (e) {
      // Started on a full disk: the pending rows' effects were written with them (the reapply
      // only repairs what a server change may have overwritten); the account still opens.
      if (!this.host.storage?.failed(e)) throw e;
    }
    if (!changes.empty) this.host.emit(changes.freeze());
    // Copies no live upload names: staged and never queued, or a crash came before their removal.
    this.files.sweep(new Set(liveUploadFileIds(this.db, UPLOAD_FILE_KIND)));
    this.pusher.start();
    this.schedulePrune();
  }

  async stop(): Promise<void> {
    this.pruneTimer?.abort();
    this.pruneTimer = undefined;
    await this.pusher.stop();
    this.flush();
  }

  /**
   * Record an intent: the kind's local effect and the row commit together. Throws on args the
   * kind rejects (nothing is written). `cancelled`: it annulled a queued intent (both gone).
   */
  enqueue<A, B>(kind: OutboxKind<A, B>, args: A, base: B, opts: { deadlineAt?: number | null; uploads?: readonly SendUpload[] } = {}): EnqueueResult {
    const changes = new ChangeCollector();
    const result = this.userWrite(() =>
      this.db.transaction(() => {
        const intent = this.behindUploads(kind, args, base, opts.uploads ?? []);
        return this.enqueueIn(kind.kind, intent.args, intent.base, opts, changes);
      })(),
    );
    this.host.emit(changes.freeze());
    this.pusher.kick();
    return result;
  }

  /** Send a message: the echo shows at once, under the id the row gives it. */
  send(to: SendTarget, content: string, enqueuedAtSeconds: number, alsoInTransaction?: (changes: ChangeCollector) => void, uploads?: readonly SendUpload[]): EnqueueResult {
    const changes = new ChangeCollector();
    const result = this.userWrite(() => this.db.transaction(() => {
      alsoInTransaction?.(changes);
      // local_id is the row's id, known before the insert inside this write transaction
      // (AUTOINCREMENT: the stored sequence + 1), and checked after it.
      const next = nextOutboxRowId(this.db);
      const args: MessageSendArgs = { local_id: String(next), to, content, ...(uploads && uploads.length > 0 ? { uploads: [...uploads] } : {}) };
      const base: MessageSendBase = { enqueued_at: enqueuedAtSeconds };
      // Its files still queued join its conversation, ahead of it: it is sent once they land.
      this.adoptUploads(uploads ?? [], conversationKey(to));
      const r = this.enqueueIn(messageSend.kind, args, base, {}, changes);
      if (r.id !== next) throw new Error(`outbox: message row got id ${r.id}, expected ${next}`);
      return r;
    })());
    this.host.emit(changes.freeze());
    this.pusher.kick();
    return result;
  }

  /** Each upload still live joins `entity` (newer rows of it run after the upload). */
  private adoptUploads(uploads: readonly SendUpload[], entity: string): number[] {
    const ids: number[] = [];
    for (const u of uploads) {
      const up = uploadOf(this.db, u.upload);
      if (up && this.store.repoint(up.id, { ...up.args, entity })) ids.push(up.id);
    }
    return ids;
  }

  /**
   * An intent naming files (an edit's `uploads`) runs after them: their rows join its entity. A
   * queued row it would coalesce with but that is older than a file moves behind it: it is
   * discarded and the merge is queued anew (both intents' files, the first base).
   */
  private behindUploads<A, B>(kindOf: OutboxKind<A, B>, args: A, base: B, uploads: readonly SendUpload[]): { args: unknown; base: unknown } {
    if (uploads.length === 0) return { args, base };
    const kind = this.kindOf(kindOf.kind);
    const entity = kind.entityKey(args);
    const last = this.store.liveRows(entity).at(-1);
    const moved = this.adoptUploads(uploads, entity);
    if (!last || (last.state !== 'queued' && last.state !== 'retry_wait') || !moved.some((id) => id > last.id)) return { args, base };
    const d = kind.coalesce({ kind: last.kind, args: last.args, base: last.base }, { args, base });
    if (d.action !== 'merge') return { args, base };
    this.store.apply(last, 'discard', { note: { coalesced: 'moved behind the files of a later intent', by: kind.kind } });
    return { args: d.args, base: d.base };
  }

  /**
   * A user's write: refused by the disk, the storage hears of it (the status says so) and the
   * error reaches the caller, who answers it in words; gone through, a refused state is over and
   * everything waiting on the disk tries again at once (the next user write is a retry too).
   */
  private userWrite<T>(f: () => T): T {
    return this.host.storage ? this.host.storage.write(f) : f();
  }

  private enqueueIn(kind: string, args: unknown, base: unknown, opts: { deadlineAt?: number | null }, changes: ChangeCollector): EnqueueResult {
    const k = this.kindOf(kind);
    const parsed = k.parse(args, base);
    if (!parsed.ok) throw new OutboxIntentError(`${kind}: ${parsed.problems}`);
    const r = this.store.enqueue(k, args, base, opts);
    // Added or merged: the row now says what the user wants (temporary ids resolved, a merge
    // possibly under the earlier row's kind). Cancelled: only the new intent's effect remains.
    const row = r.outcome === 'cancelled' ? undefined : this.store.get(r.id);
    const target = row ?? { kind, args, base };
    const effect = localEffectOf(target.kind);
    effect?.apply(this.db, target.args, target.base, changes);
    for (const id of effect?.messageIds(target.args) ?? []) changes.messageUpdated(id);
    changes.touched('outbox');
    return r;
  }

  newTempId(): string {
    return this.store.newTempId();
  }

  /** The session's clock (UNIX ms). */
  now(): number {
    return this.host.seams.clock.now();
  }

  /** Rows oldest first: live ones, and with `includeFinished` the done and discarded ones kept. */
  rows(includeFinished = false): OutboxRow[] {
    const all = this.store.all();
    return includeFinished ? all : all.filter((r) => r.state !== 'done' && r.state !== 'discarded');
  }

  /** For a status badge: failed and conflicted rows wait for the user; the rest are pending. */
  counts(): { pending: number; failed: number; conflict: number } {
    const rows = liveOutboxCounts(this.db);
    const out = { pending: 0, failed: 0, conflict: 0 };
    for (const r of rows) {
      if (r.state === 'failed') out.failed += r.n;
      else if (r.state === 'conflict') out.conflict += r.n;
      else out.pending += r.n;
    }
    return out;
  }

  /**
   * While requests are in flight: rows settled since the drain began, and that plus the rows
   * still pending (the total as known now; it grows when rows are added meanwhile).
   */
  drainProgress(): { done: number; total: number } | undefined {
    if (!this.pusher.draining) return undefined;
    const pending = this.counts().pending;
    return { done: this.drained, total: this.drained + pending };
  }

  /** Network regained, machine resumed, the event stream back: waiting rows go now. */
  retryNow(): void {
    this.pusher.retryNow();
    void this.runPendingUndos();
  }

  /** The session's credentials work again (a poll succeeded): lift a 401 pause. */
  credentialsWork(): void {
    if (this.pusher.status === 'paused_unauthorized') this.pusher.resume();
  }

  retry(id: number): OutboxRow {
    this.existing(id);
    const row = this.store.retry(id);
    this.pusher.kick();
    return row;
  }

  edit(id: number, args: unknown): OutboxRow {
    const cur = this.store.get(id);
    const kind = cur && this.store.kinds.get(cur.kind, cur.kindVersion);
    if (!cur || !kind) throw new OutboxIntentError(`outbox row ${id}: nothing editable`);
    const parsed = kind.parse(args, cur.base);
    if (!parsed.ok) throw new OutboxIntentError(`${cur.kind}: ${parsed.problems}`);
    const changes = new ChangeCollector();
    const row = this.db.transaction(() => {
      const r = this.store.edit(id, args);
      localEffectOf(r.kind)?.apply(this.db, r.args, r.base, changes);
      return r;
    })();
    if (!changes.empty) this.host.emit(changes.freeze());
    this.pusher.kick();
    return row;
  }

  /** Drop the intent; its local effect is undone by reading the server's state back. */
  discard(id: number): OutboxRow {
    this.existing(id);
    const changes = new ChangeCollector();
    const row = this.db.transaction(() => {
      const r = this.store.discard(id);
      if (r.kind === MESSAGE_SEND_KIND) {
        const localId = String(r.id);
        removeEcho(this.db, localId, changes);
      }
      return r;
    })();
    if (!changes.empty) this.host.emit(changes.freeze());
    const undo = undoOf(this.db, row);
    if (undo) this.undo(undo);
    return row;
  }

  /** Settle a content conflict; `draft` is the user's text when they took theirs. */
  resolveConflict(id: number, choice: ConflictChoice): { row: OutboxRow; draft: string | null } {
    const cur = this.store.get(id);
    const details = cur?.state === 'conflict' ? parseConflictDetails(cur.lastError) : undefined;
    if (!cur || !details) throw new OutboxIntentError(`outbox row ${id} has no content conflict to resolve`);
    const resolution = resolveConflict(choice, details);
    if (resolution.action === 'discard') {
      const row = this.discard(id);
      return { row, draft: resolution.draft };
    }
    const changes = new ChangeCollector();
    const row = this.db.transaction(() => {
      const r = applyResolution(this.store, id, resolution);
      localEffectOf(r.kind)?.apply(this.db, r.args, r.base, changes);
      return r;
    })();
    if (!changes.empty) this.host.emit(changes.freeze());
    this.pusher.kick();
    return { row, draft: null };
  }

  /** Delete finished rows past retention; reported as an outbox change when any went. */
  prune(): number {
    const n = this.store.prune();
    if (n > 0) {
      this.pending.touched('outbox');
      this.scheduleFlush();
    }
    return n;
  }

  private existing(id: number): OutboxRow {
    const row = this.store.get(id);
    if (!row) throw new OutboxIntentError(`no outbox row ${id}`);
    return row;
  }

  private kindOf(kind: string): RuntimeKind {
    const k = CURRENT_KINDS.get(kind);
    if (!k) throw new OutboxIntentError(`outbox: no kind named ${kind}`);
    return k;
  }

  private noteRow(r: OutboxRow): void {
    if (r.kind === UPLOAD_FILE_KIND && (r.state === 'done' || r.state === 'discarded')) {
      const a = uploadFileArgs.safeParse(r.args);
      if (a.success) this.filesToRemove.push(a.data.file);
    }
    if (this.pusher.draining && (r.state === 'done' || r.state === 'failed' || r.state === 'conflict' || r.state === 'discarded')) this.drained++;
    this.pending.touched('outbox');
    for (const id of localEffectOf(r.kind)?.messageIds(r.args) ?? []) this.pending.messageUpdated(id);
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.flushQueued) return;
    this.flushQueued = true;
    queueMicrotask(() => this.flush());
  }

  private flush(): void {
    this.flushQueued = false;
    // After the commit: a rolled-back discard never loses the file (the sweep at start removes
    // what a crash left; a row that is live again after a rollback keeps its copy).
    const gone = this.filesToRemove;
    this.filesToRemove = [];
    if (gone.length > 0) {
      const live = new Set(liveUploadFileIds(this.db, UPLOAD_FILE_KIND));
      for (const id of gone) if (!live.has(id)) this.files.remove(id);
    }
    if (this.pending.empty) return;
    const c = this.pending;
    this.pending = new ChangeCollector();
    this.host.emit(c.freeze());
    this.host.drainChanged?.();
  }

  private schedulePrune(): void {
    this.pruneTimer?.abort();
    const ctl = new AbortController();
    this.pruneTimer = ctl;
    const loop = async () => {
      while (!ctl.signal.aborted) {
        try {
          this.prune();
        } catch (e) {
          // A full disk cannot take the deletes either: the storage says so once; next hour again.
          if (!this.host.storage?.failed(e)) throw e;
        }
        await this.host.seams.sleep(PRUNE_EVERY_MS, ctl.signal);
      }
    };
    loop().catch((e: unknown) => {
      if (!(e instanceof SleepAborted)) this.host.seams.logger.error('outbox: pruning failed', { error: e instanceof Error ? e.message : String(e) });
    });
  }

  private undo(u: Undo): void {
    const list = this.pendingUndos();
    setEngineSetting(this.db, UNDO_SETTING, [...list, u]);
    void this.runPendingUndos();
  }

  private pendingUndos(): Undo[] {
    const v = getEngineSetting(this.db, UNDO_SETTING);
    if (!Array.isArray(v)) return [];
    return v.filter((u): u is Undo => typeof u === 'object' && u !== null && Array.isArray(u.messageIds) && Array.isArray(u.refetch));
  }

  private undoing: Promise<void> | undefined;

  /** Read back what dropped rows changed; offline the list waits for the next call. */
  private runPendingUndos(): Promise<void> {
    if (this.undoing) return this.undoing;
    const list = this.pendingUndos();
    if (list.length === 0 || !this.host.isLive()) return Promise.resolve();
    const changes = new ChangeCollector();
    this.undoing = refreshFromServer(this.host.conn, this.db, list, changes)
      .then(
        () => {
          // The session closed while the read was out: the list stays for the next open.
          if (!this.db.open) return;
          // Undos added meanwhile stay for the next run.
          const now = this.pendingUndos();
          setEngineSetting(this.db, UNDO_SETTING, now.slice(list.length));
          if (!changes.empty) this.host.emit(changes.freeze());
        },
        (e: unknown) => {
          if (this.db.open && !isRetryable(e)) {
            setEngineSetting(this.db, UNDO_SETTING, this.pendingUndos().slice(list.length));
            this.host.seams.logger.warn('outbox: reading back a dropped change failed; the cache may show it until the next refresh', { error: e instanceof Error ? e.message : String(e) });
          }
        },
      )
      // Run from promise callbacks: a failed write (a full disk, say) is logged, never left unhandled.
      .catch((e: unknown) => this.host.seams.logger.error('outbox: the read-back list could not be updated', { error: e instanceof Error ? e.message : String(e) }))
      .finally(() => {
        this.undoing = undefined;
      });
    return this.undoing;
  }

  /** For tests and shutdown: resolves when no undo is running. */
  async settled(): Promise<void> {
    await this.undoing;
    await this.pusher.idle();
    this.flush();
  }
}
