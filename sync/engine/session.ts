/**
 * One account: its database file, its connection, its event stream, and what the UI reads.
 *
 *   open()  -> the account's database (one file per realm + email in `dataDir`) and connection
 *   start() -> the poller: resume the stored queue (first poll non-blocking) or register afresh;
 *              each `GET /events` batch is applied with STORE's `applyEvents` and the queue position
 *              advances IN THE SAME TRANSACTION, so a kill between batches resumes exactly there
 *   stop()  -> abort the long-poll and wait for the loop; close() also closes the database
 *
 * Store changes (from events and from backfill batches) go to `onChanges` listeners, where the
 * live narrow views re-check membership. Status goes to `onStatus` listeners, composed from three
 * sources (`composeStatus`): the poller's (connecting / live / offline / error / unauthorized /
 * stopped), a register's or backfill's progress (`syncing` until the next poll succeeds) and the
 * outbox's drain (`syncing`, phase `outbox`, while requests are in flight on a live stream, or on
 * a stream still down once the server answered one of them: that answer also cuts the stream's
 * backoff short and sends the other waiting rows, so the server's return shows at once). Only
 * the poller decides whether the account is online (`online`): a display status of `syncing`
 * never makes online-only operations or narrows think the server is away.
 *
 * The outbox (session-outbox.ts) runs beside the poller: started and stopped with it, retried at
 * once when the network returns, the machine wakes or the stream is live again. Local reads are
 * the server's state with pending rows on top: every change the server brings (an event batch,
 * in its own transaction; a backfill batch or a fetched page, right after) re-applies the pending
 * rows on the objects it touched, so an event for a message with a pending edit does not clobber
 * the text the user typed.
 *
 * A write the disk refuses (docs/sync-design.md "A full disk") is a state of the session, not an
 * error of whoever met it: `storage` records it, the status says so, the outbox and the event
 * stream stop writing and wait for its retry ticks (backoff), and everything resumes by itself
 * once a write works again (a tick's probe, or the user's next change).
 */
import type { NetworkSettings } from '../../common/network-settings.js';
import { notificationsOf, type NotificationBatch } from './notifications.js';
import { SessionDrafts } from './drafts.js';
import { refreshOwnRaw } from './raw-cache.js';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { ApiConnection, getEvents, getOwnUser, isApiError, type Transport, type ZulipEvent } from '../api/index.js';
import { checkpoint, IdleCheckpointer } from '../db/checkpoint.js';
import { ensurePrivateDir, type LocalDb } from '../db/open.js';
import { isDamageError, openCheckedDb, type SalvageReport } from '../db/damage.js';
import { markCleanClose } from '../db/deferred-check.js';
import { DEFERRED_CHECK_DELAY_MS, DeferredIntegrityCheck } from './integrity.js';
import { getStoredMessage } from '../db/queries/messages.js';
import { getRealmValue } from '../db/queries/realm.js';
import { getAccount, getQueuePosition, setAccount, setEngineSetting, setQueuePosition } from '../db/queries/state.js';
import { reapplyAll, reapplyTouched, retireEchoes } from './outbox-local.js';
import { SessionOutbox } from './session-outbox.js';
import { getRealmLimits } from '../db/queries/realm.js';
import { OutboxIntentError } from '../outbox/kinds.js';
import { DEFAULT_MAX_FILE_UPLOAD_MIB } from '../outbox/mutations/upload-file.js';
import type { EditHistory, TypingEditor } from '../protocol/commands.js';
import type { SessionStatus, SyncProgress } from '../protocol/status.js';
import { editUserGroup } from '../db/queries/groups.js';
import { ChangeCollector, type StoreChanges } from '../db/changes.js';
import { refreshServerEmojiNames } from './server-emoji.js';
import { editHistory } from './edit-history.js';
import { applyEvents, EventApplyError as StoreApplyError } from './handlers/index.js';
import { hasPendingBackfill, registerAndSync, runPendingBackfill } from './initial-sync.js';
import { markStreamGap, markStreamResumed, streamGap } from './narrow/ranges.js';
import { EventApplyError, EventPoller, type NudgeReason, type PollerActions, type PollerStatus, type QueuePosition, type RegisterReason } from './poller.js';
import { defaultSeams, watchClockJumps, type Seams } from '../base/seams.js';
import { fetchPendingMoves, hasPendingMoves, reconcileMoves } from './session-moves.js';
import { SessionQueries } from './session-queries.js';
import { openView, type ViewHandle } from './session-views.js';
import type { NarrowChangeSet, NarrowRequest } from '../protocol/views.js';
import { PresenceReporter } from './presence.js';
import { presenceView } from './handlers/presence.js';
import type { UserPresence } from '../protocol/commands.js';
import { DEFAULT_TYPING_EXPIRY_MS, TypingEditors, TypingInConversations, type TypingConversation } from './typing.js';
import { setTypingStatus, setTypingStatusForMessageEdit } from '../api/index.js';
import { getUserSettings } from '../db/queries/personal.js';
import { localIdOfEcho } from '../outbox/mutations/message-send.js';
import type { TypingSent } from '../protocol/commands.js';
import { UploadCache, uploadImagePaths } from '../uploads/cache.js';
import { avatarPath, realmUploadPath } from '../protocol/uploads.js';
import { GRAVATAR_PREFIX, gravatarUrl } from '../protocol/media-paths.js';
import { OutboxFiles } from '../uploads/outbox-files.js';
import { StorageHealth, type StorageState } from '../db/storage.js';

/** Zulip's defaults of `server_typing_started_wait_period_milliseconds` and `..._stopped_wait_...`. */
export const DEFAULT_TYPING_STARTED_WAIT_MS = 10_000;
export const DEFAULT_TYPING_STOPPED_WAIT_MS = 5_000;
/** A typing notice is worthless late: give up on it sooner than on other requests. */
const TYPING_REQUEST_TIMEOUT_MS = 5_000;
/** An upload's progress is reported at most this often. */
const PROGRESS_EVERY_MS = 100;

/** How far an upload's request went (`upload_id`: the local id the upload command answered). */
export interface UploadProgress {
  readonly upload_id: number;
  readonly sent: number;
  readonly total: number;
}

export interface AccountSessionOptions {
  readonly realmUrl: string;
  readonly email: string;
  readonly apiKey: string;
  /** Directory of the per-account database files; `:memory:` for an in-memory database. */
  readonly dataDir: string;
  /** The database file's name in `dataDir` (default `accountFileName(realmUrl, email)`); the sandbox keeps one name across ports. */
  readonly fileName?: string;
  readonly seams?: Partial<Seams>;
  readonly transport?: Transport;
  /** The proxy and extra trusted certificates (for the default transport). */
  readonly network?: NetworkSettings;
  /** Consecutive failures before the status says offline (default 5). */
  readonly failuresBeforeStatus?: number;
  /** Engine setting `backfill_depth` to store (default: leave as is; 5,000 when never set). */
  readonly backfillDepth?: number;
  /** Messages per backfill request (default 1,000). */
  readonly batchSize?: number;
  /** Detect resume from sleep by watching for clock jumps (default true). */
  readonly watchClockJumps?: boolean;
  /** Where Gravatar avatars are fetched (default Gravatar's own origin; tests pass a loopback one). */
  readonly gravatarOrigin?: string;
  readonly timeoutMs?: number;
  /**
   * SQLite found the database damaged while the session ran (an event batch, a backfill, a fetch):
   * the owner closes the session and recovers the file (docs/sync-design.md "Damaged data")
   * instead of letting the stream back off on the same error forever.
   */
  readonly onDamaged?: (error: unknown) => void;
  /**
   * After a clean close the integrity check runs this long after open, in the background (default
   * 10 s: after the first answers); after an unclean end it runs before open returns.
   */
  readonly integrityCheckDelayMs?: number;
  /** Retry of refused writes: first wait and cap (default 1 s doubling to a minute). */
  readonly storageRetry?: { readonly firstMs: number; readonly capMs: number };
}

/** The account's upload cache beside its database (`NAME.uploads/`); none for an in-memory account. */
export function uploadsDirOf(opts: Pick<AccountSessionOptions, 'dataDir' | 'fileName' | 'realmUrl' | 'email'>): string | undefined {
  if (opts.dataDir === ':memory:') return undefined;
  const db = opts.fileName ?? accountFileName(opts.realmUrl, opts.email);
  return path.join(opts.dataDir, `${db.replace(/\.sqlite$/, '')}.uploads`);
}

/** Copies of files queued for upload beside the database (`NAME.outbox-files/`); none for an in-memory account. */
export function outboxFilesDirOf(opts: Pick<AccountSessionOptions, 'dataDir' | 'fileName' | 'realmUrl' | 'email'>): string | undefined {
  const uploads = uploadsDirOf(opts);
  return uploads === undefined ? undefined : uploads.replace(/\.uploads$/, '.outbox-files');
}

/** The account's database file in `dataDir` (meaningless for `:memory:`). */
export function databaseFileOf(opts: Pick<AccountSessionOptions, 'dataDir' | 'fileName' | 'realmUrl' | 'email'>): string {
  return path.join(opts.dataDir, opts.fileName ?? accountFileName(opts.realmUrl, opts.email));
}

/** `chat.example.com-hamlet_example.com-1a2b3c4d.sqlite`: readable, and unique per realm + email. */
export function accountFileName(realmUrl: string, email: string): string {
  const host = new URL(realmUrl).host.replace(/[^A-Za-z0-9.-]/g, '_');
  const who = email.replace(/[^A-Za-z0-9.-]/g, '_');
  const hash = createHash('sha256').update(`${realmUrl}\n${email}`).digest('hex').slice(0, 8);
  return `${host}-${who}-${hash}.sqlite`;
}

export class AccountSession {
  readonly db: LocalDb;
  readonly conn: ApiConnection;
  readonly queries: SessionQueries;
  readonly outbox: SessionOutbox;
  readonly drafts: SessionDrafts;
  /** Images of `/user_uploads/` fetched with this account's credentials and kept for offline viewing. */
  readonly uploads: UploadCache;
  /** The database was found damaged when opened and recovered: what was kept (docs/sync-design.md "Damaged data"). */
  readonly recovered: SalvageReport | undefined;
  /** Whether the disk takes the account's writes (docs/sync-design.md "A full disk"). */
  readonly storage: StorageHealth;
  private readonly seams: Seams;
  /** The stream went down while the disk refused to mark the gap: marked once writes work. */
  private gapUnmarked = false;
  private readonly typing: TypingEditors;
  private readonly typists: TypingInConversations;
  private readonly presence: PresenceReporter;
  private poller: EventPoller | undefined;
  /** A poll failed since the last successful one: the next success retries the outbox at once. */
  private pollFailed = false;
  private stopWatch: (() => void) | undefined;
  private readonly checkpoints: IdleCheckpointer;
  /** The integrity check deferred by a clean close (docs/sync-design.md "Damaged data"). */
  readonly integrity: DeferredIntegrityCheck;
  private statusValue: SessionStatus = { state: 'stopped' };
  private pollerStatus: PollerStatus = { state: 'stopped' };
  /** The outbox got the server's answer since the stream last failed (see `outboxAnswered`). */
  private outboxReached = false;
  /** A register's or backfill's progress, until the poller next reports. */
  private syncing: SyncProgress | undefined;
  private readonly statusListeners = new Set<(s: SessionStatus) => void>();
  private readonly changeListeners = new Set<(c: StoreChanges) => void>();
  private readonly notificationListeners = new Set<(n: NotificationBatch) => void>();
  private readonly progressListeners = new Set<(p: UploadProgress) => void>();
  /** When each upload in flight last reported its progress (a report at most every `PROGRESS_EVERY_MS`). */
  private readonly progressAt = new Map<number, number>();

  private constructor(
    private readonly opts: AccountSessionOptions,
    db: LocalDb,
    recovered?: SalvageReport,
  ) {
    this.db = db;
    this.recovered = recovered;
    this.seams = { ...defaultSeams, ...opts.seams };
    const account = getAccount(db);
    this.conn = new ApiConnection({
      realmUrl: opts.realmUrl,
      email: opts.email,
      apiKey: opts.apiKey,
      transport: opts.transport,
      ...(opts.network ? { network: opts.network } : {}),
      featureLevel: account?.feature_level ?? undefined,
      timeoutMs: opts.timeoutMs,
      logger: { warn: (m, d) => this.seams.logger.warn(m, d) },
      now: () => this.seams.clock.now(),
    });
    // The long-poll deadline and the empty-topic name survive restarts in the realm cache.
    const longPoll = getRealmValue(db, 'event_queue_longpoll_timeout_seconds');
    if (typeof longPoll === 'number') this.conn.noteLongPollTimeout(longPoll);
    const emptyTopic = getRealmValue(db, 'realm_empty_topic_display_name');
    if (typeof emptyTopic === 'string') this.conn.emptyTopicDisplayName = emptyTopic;
    const typingExpiry = () => this.realmMs('server_typing_started_expiry_period_milliseconds', DEFAULT_TYPING_EXPIRY_MS);
    this.typing = new TypingEditors(this.seams.clock, typingExpiry);
    this.typists = new TypingInConversations(this.seams.clock, () => this.selfUserId, typingExpiry);
    this.presence = new PresenceReporter({ db, conn: this.conn, seams: this.seams, online: () => this.online, emit: (c) => this.emit(c) });
    this.queries = new SessionQueries(db, {
      selfUserId: () => this.selfUserId,
      conn: this.conn,
      online: () => this.statusValue.state === 'live',
      now: () => this.seams.clock.now(),
      emit: (c) => this.emit(c),
      logger: this.seams.logger,
    });
    this.uploads = new UploadCache({
      dir: uploadsDirOf(opts),
      // A Gravatar avatar is not the realm's: fetched from Gravatar, without the account's credentials.
      fetch: (p, o) => (p.startsWith(GRAVATAR_PREFIX) ? this.conn.fetchPublicFile(gravatarUrl(p, opts.gravatarOrigin), o) : this.conn.fetchRealmFile(p, o)),
      online: () => this.online,
      warn: (m, d) => this.seams.logger.warn(m, d),
    });
    this.storage = new StorageHealth({
      seams: this.seams,
      ...(opts.storageRetry ? { retry: opts.storageRetry } : {}),
      // Room for 16 KiB of new pages, given back in the same transaction: rewriting a row in place
      // would fit where the real writes do not, and the state would flap.
      probe: () =>
        db.transaction(() => {
          setEngineSetting(db, 'storage_probe', 'x'.repeat(16_384));
          setEngineSetting(db, 'storage_probe', undefined);
        })(),
    });
    this.storage.onChange(() => this.recomputeStatus());
    this.storage.onRetry(() => this.diskBack());
    this.drafts = new SessionDrafts(db, () => this.seams.clock.now(), (c) => {
      this.storage.succeeded();
      this.emit(c.freeze());
    });
    this.checkpoints = new IdleCheckpointer(db, this.seams);
    this.integrity = new DeferredIntegrityCheck(opts.dataDir === ':memory:' ? undefined : databaseFileOf(opts), this.seams.logger, (e) => this.opts.onDamaged?.(e));
    this.outbox = new SessionOutbox({
      db,
      conn: this.conn,
      seams: this.seams,
      queueId: () => getQueuePosition(db)?.queue_id,
      isLive: () => this.online,
      emit: (c) => this.emit(c),
      drainChanged: () => this.recomputeStatus(),
      credentialsRefused: (error) => this.poller?.credentialsRefused(error),
      queueUnreadable: (e) => {
        if (isDamageError(e)) this.opts.onDamaged?.(e);
      },
      serverAnswered: (reached) => this.outboxAnswered(reached),
      storage: this.storage,
      files: new OutboxFiles(outboxFilesDirOf(opts)),
      keepUpload: (url, type, bytes) => {
        this.uploads.put(url, type, bytes).catch((e: unknown) => this.seams.logger.warn('an uploaded file could not be kept', { error: String(e) }));
      },
      uploadProgress: (id, sent, total) => this.uploadProgress(id, sent, total),
    });
  }

  /**
   * Open (creating if needed) the account's database. Nothing touches the network until start().
   * A damaged file is recovered first (`recovered` says what was kept); its cache then fills from
   * a fresh sync like a new account's.
   */
  static open(opts: AccountSessionOptions): AccountSession {
    let file = ':memory:';
    if (opts.dataDir !== ':memory:') {
      ensurePrivateDir(opts.dataDir);
      file = databaseFileOf(opts);
    }
    const seams = { ...defaultSeams, ...opts.seams };
    const { db, recovered, checkLater } = openCheckedDb(file, { now: () => seams.clock.now(), logger: seams.logger });
    const before = getAccount(db);
    if (!before || before.realm_url !== opts.realmUrl || before.email !== opts.email) setAccount(db, { realm_url: opts.realmUrl, email: opts.email });
    if (opts.backfillDepth !== undefined) setEngineSetting(db, 'backfill_depth', opts.backfillDepth);
    const session = new AccountSession(opts, db, recovered);
    if (checkLater) session.integrity.schedule(opts.integrityCheckDelayMs ?? DEFERRED_CHECK_DELAY_MS);
    return session;
  }

  get status(): SessionStatus {
    return this.statusValue;
  }

  /**
   * Copy a file the user attached into the account's data directory, durably, before its upload
   * is queued (`uploadFile` names the id answered here). Refused past the realm's upload limit.
   */
  stageUpload(bytes: Buffer): { file: string; size: number } {
    const mib = getRealmLimits(this.db).maxFileUploadSizeMib ?? DEFAULT_MAX_FILE_UPLOAD_MIB;
    if (bytes.length > mib * 1024 * 1024) throw new OutboxIntentError(`The file is larger than this organization's limit of ${mib} MiB per file.`);
    return { file: this.outbox.files.stage(bytes), size: bytes.length };
  }

  /** The bytes of a file queued for upload (the compose preview), or undefined when none is kept. */
  async stagedUpload(file: string): Promise<Buffer | undefined> {
    return this.outbox.files.has(file) ? this.outbox.files.read(file) : undefined;
  }

  /** The event stream is live (a poll succeeded since the last failure or register). */
  get online(): boolean {
    return this.pollerStatus.state === 'live';
  }

  get selfUserId(): number | undefined {
    return getAccount(this.db)?.user_id ?? undefined;
  }

  onStatus(listener: (s: SessionStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Every committed store change (events, backfill), for live views. */
  onChanges(listener: (c: StoreChanges) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** New messages that deserve a desktop notification (engine/notifications.ts), per applied batch. */
  onNotifications(listener: (n: NotificationBatch) => void): () => void {
    this.notificationListeners.add(listener);
    return () => this.notificationListeners.delete(listener);
  }

  /** Uploads on their way: how much of each request body went (at most every 100 ms per upload, and at its end). */
  onUploadProgress(listener: (p: UploadProgress) => void): () => void {
    this.progressListeners.add(listener);
    return () => this.progressListeners.delete(listener);
  }

  private uploadProgress(uploadId: number, sent: number, total: number): void {
    const now = this.seams.clock.now();
    const last = this.progressAt.get(uploadId);
    const done = sent >= total;
    if (!done && last !== undefined && now - last < PROGRESS_EVERY_MS) return;
    if (done) this.progressAt.delete(uploadId);
    else this.progressAt.set(uploadId, now);
    for (const l of this.progressListeners) l({ upload_id: uploadId, sent, total });
  }

  start(): void {
    if (this.poller) return;
    const resumeFrom = getQueuePosition(this.db);
    this.poller = new EventPoller(this.actions(), { failuresBeforeStatus: this.opts.failuresBeforeStatus, resumeFrom, onStatus: (s) => this.fromPoller(s) }, this.seams);
    this.poller.start();
    this.outbox.start();
    this.checkpoints.start();
    this.presence.start();
    if (this.opts.watchClockJumps !== false) this.stopWatch = watchClockJumps(this.seams.clock, () => this.nudge('resume'));
  }

  async stop(): Promise<void> {
    this.stopWatch?.();
    this.stopWatch = undefined;
    const p = this.poller;
    this.poller = undefined;
    await p?.stop();
    await this.outbox.stop();
    await this.checkpoints.stop();
    await this.presence.stop();
    this.typing.clear();
    this.typists.clear();
    if (this.pollerStatus.state !== 'unauthorized') this.pollerStatus = { state: 'stopped' };
    this.syncing = undefined;
    this.recomputeStatus();
  }

  async close(): Promise<void> {
    await this.integrity.cancel();
    await this.stop();
    await this.rawRefresh;
    await this.queries.settled();
    await this.uploads.close();
    await this.conn.close();
    this.storage.close();
    // SQLite checkpoints on its own only when the last connection to the file closes.
    try {
      checkpoint(this.db);
    } catch (e) {
      // A full disk cannot take the log's pages back: the log stays, and the next open reads it.
      if (!this.storage.failed(e)) throw e;
    } finally {
      this.db.close();
    }
    if (this.opts.dataDir !== ':memory:') markCleanClose(databaseFileOf(this.opts));
  }

  /** The network changed or the machine woke: abort the stalled poll and poll at once. */
  nudge(reason: NudgeReason): void {
    this.poller?.nudge(reason);
    if (this.poller) this.outbox.retryNow();
  }

  /** Resolves when the event loop has ended (stopped, or unauthorized). */
  done(): Promise<void> {
    return this.poller?.done() ?? Promise.resolve();
  }

  /**
   * A live narrow view: the cached page now, change sets as the store changes, and the missing
   * part fetched when a side is incomplete and we are online. Throws `LocalNarrowError` for a
   * narrow the server would refuse.
   */
  openNarrow(req: NarrowRequest, onChange: (cs: NarrowChangeSet) => void): ViewHandle {
    const selfUserId = this.selfUserId;
    if (selfUserId === undefined) throw new Error('no narrow before the first sync (own user id unknown)');
    // The images (videos, link previews) of messages in view and their senders' avatars are fetched
    // ahead, so they are there when the network is not.
    const prefetch = (messages: ReadonlyArray<{ content: string; avatar_url?: string | null }>) => {
      if (messages.length === 0 || !this.online) return;
      const realm = this.opts.realmUrl;
      this.uploads.prefetch(messages.flatMap((m) => [...uploadImagePaths(m.content, realm), avatarPath(m.avatar_url, realm) ?? []].flat()));
    };
    const handle = openView(
      {
        db: this.db,
        conn: this.conn,
        selfUserId,
        logger: this.seams.logger,
        online: () => this.online,
        onChanges: (l) => this.onChanges(l),
        emit: (c) => {
          this.emitRebased(c);
          // A fetched page may hold own messages older than the cache held: keep their raw text too.
          if (c.addedMessageIds.size > 0) this.refreshRaw();
        },
        damaged: (e) => this.opts.onDamaged?.(e),
      },
      req,
      (cs) => {
        prefetch([...cs.added, ...cs.updated]);
        onChange(cs);
      },
    );
    prefetch(handle.snapshot.messages);
    return handle;
  }

  /** Everyone's presence as of now (the engine's clock) and their statuses. */
  presences(): UserPresence[] {
    return presenceView(this.db, this.seams.clock.now());
  }

  /** The page's report of the user's activity: the engine reports presence from it (engine/presence.ts). */
  reportActivity(active: boolean, newUserInput: boolean): void {
    this.presence.setActivity(active, newUserInput);
  }

  /** Who is editing which message (expired editors dropped). */
  typingEditors(): TypingEditor[] {
    return this.typing.list();
  }

  /** Who is typing in a conversation (others, expired notices dropped), in the order they started. */
  typingIn(to: TypingConversation): number[] {
    return this.typists.in(to);
  }

  /**
   * Tell a conversation we are (no longer) typing in it. Online only and never queued: not live,
   * or the user's `send_*_typing_notifications` off, or the server refusing, it quietly sends
   * nothing (`sent: false`).
   */
  setTyping(to: TypingConversation, op: 'start' | 'stop'): Promise<TypingSent> {
    const others = to.type === 'direct' ? to.user_ids.filter((id) => id !== this.selfUserId) : [];
    if (to.type === 'direct' && others.length === 0) return Promise.resolve(this.typingSent(false));
    return this.sendTyping(to.type === 'channel' ? 'send_stream_typing_notifications' : 'send_private_typing_notifications', () =>
      setTypingStatus(
        this.conn,
        to.type === 'channel' ? { op, type: 'channel', stream_id: to.channel_id, topic: to.topic } : { op, type: 'direct', to: others },
        { timeoutMs: TYPING_REQUEST_TIMEOUT_MS },
      ),
    );
  }

  /** Tell a message's readers we are (no longer) editing it; online only, quietly, like `setTyping`. */
  setEditTyping(messageId: number, op: 'start' | 'stop'): Promise<TypingSent> {
    // Our own message still being sent: the server does not know it yet.
    if (localIdOfEcho(messageId) !== undefined) return Promise.resolve(this.typingSent(false));
    const m = getStoredMessage(this.db, messageId);
    const setting = m?.type === 'private' ? 'send_private_typing_notifications' : 'send_stream_typing_notifications';
    return this.sendTyping(setting, () => setTypingStatusForMessageEdit(this.conn, { messageId, op }, { timeoutMs: TYPING_REQUEST_TIMEOUT_MS }));
  }

  private async sendTyping(setting: string, send: () => Promise<unknown>): Promise<TypingSent> {
    if (!this.online || getUserSettings(this.db)[setting] === false) return this.typingSent(false);
    try {
      return this.typingSent((await send()) !== undefined);
    } catch (e) {
      this.seams.logger.warn('typing notice not sent', { error: e instanceof Error ? e.message : String(e) });
      return this.typingSent(false);
    }
  }

  private typingSent(sent: boolean): TypingSent {
    return {
      sent,
      started_wait_ms: this.realmMs('server_typing_started_wait_period_milliseconds', DEFAULT_TYPING_STARTED_WAIT_MS),
      stopped_wait_ms: this.realmMs('server_typing_stopped_wait_period_milliseconds', DEFAULT_TYPING_STOPPED_WAIT_MS),
    };
  }

  private realmMs(name: string, fallback: number): number {
    const v = getRealmValue(this.db, name);
    return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : fallback;
  }

  /** A message's edit history: the cache when it has it, else the server (online only). */
  editHistory(messageId: number): Promise<EditHistory> {
    const p = this.pollerStatus.state;
    const online = p === 'live' || p === 'connecting';
    return editHistory(online ? this.conn : undefined, getStoredMessage(this.db, messageId), messageId);
  }

  /** Emit the composed status when it differs from the last one emitted. */
  private recomputeStatus(): void {
    const next = composeStatus(this.pollerStatus, this.syncing, this.outbox.drainProgress(), this.storage.state, this.outboxReached);
    if (JSON.stringify(next) === JSON.stringify(this.statusValue)) return;
    this.statusValue = next;
    for (const l of this.statusListeners) l(next);
  }

  /**
   * The outbox's requests reached the server (or stopped reaching it) while the event stream is
   * not live. Reached, the status says the changes are being sent instead of Offline, and the
   * stream waiting out its backoff polls at once: the server is back, so the header follows within
   * a request rather than a backoff later.
   */
  private outboxAnswered(reached: boolean): void {
    const p = this.pollerStatus.state;
    const down = p === 'offline' || p === 'error' || p === 'connecting';
    const next = reached && down;
    if (next === this.outboxReached) return;
    this.outboxReached = next;
    this.recomputeStatus();
    // Only a stream sleeping out a failure is nudged: a register in flight is left to finish.
    if (!next) return;
    if (p === 'offline' || p === 'error') this.poller?.nudge('network');
    // The rows still waiting out a backoff go now too, rather than one by one as their timers end.
    this.outbox.retryNow();
  }

  private fromPoller(s: PollerStatus): void {
    // While the stream is down nothing vouches for "through the newest": narrows read offline say
    // their newest end is incomplete. Back live on the same queue, no event was lost (the queue
    // kept them), so the stream is resumed; after a re-register, initial-sync resumes it instead.
    // Written from the poller's status callback, in the middle of its loop: a refused write must
    // not escape there. A gap not marked is marked once writes work again (`diskBack`).
    this.markStream(s);
    const wasLive = this.pollerStatus.state === 'live';
    this.pollerStatus = s;
    // A new failure (or live, stopped) says more than an earlier answer to the outbox did.
    if (s.state !== 'connecting') this.outboxReached = false;
    // A register's progress lasts until the poller reports again (it reports `connecting` before
    // each register, then `live` after the first poll, or a failure).
    this.syncing = undefined;
    this.recomputeStatus();
    // Back live after a failure or a (re-)registration: what waited for the network goes now.
    if (s.state === 'live' && !wasLive) {
      this.outbox.credentialsWork();
      this.outbox.retryNow();
      this.refreshRaw();
      this.prefetchRealmEmoji();
      this.refreshServerEmojiNames();
      this.presence.wentLive();
    }
  }

  /** The realm's custom emoji images, fetched ahead like uploads (cached ones are skipped): the picker shows them offline too. */
  private prefetchRealmEmoji(): void {
    this.uploads.prefetch(this.queries.realmEmoji().flatMap((e) => (e.deactivated ? [] : (realmUploadPath(e.source_url, this.opts.realmUrl) ?? []))));
  }

  /** In the background: the server's emoji names when its table changed (engine/server-emoji.ts). */
  private refreshServerEmojiNames(): void {
    const changes = new ChangeCollector();
    refreshServerEmojiNames(this.conn, this.db, changes)
      .then(() => {
        if (!changes.empty) this.emit(changes.freeze());
      })
      .catch((e: unknown) => this.seams.logger.warn("the server's emoji names could not be fetched (the app's own are used)", { error: e instanceof Error ? e.message : String(e) }));
  }

  private markStream(s: PollerStatus): void {
    try {
      if ((s.state === 'offline' || s.state === 'error') && streamGap(this.db) === undefined) markStreamGap(this.db);
      if (s.state === 'live' && streamGap(this.db) !== undefined && !hasPendingBackfill(this.db)) markStreamResumed(this.db);
      this.gapUnmarked = false;
    } catch (e) {
      if (!this.storage.failed(e)) throw e;
      this.gapUnmarked = s.state === 'offline' || s.state === 'error';
    }
  }

  /** Writes work again (or it is time to try): what the event path could not write goes now. */
  private diskBack(): void {
    if (this.gapUnmarked) this.markStream(this.pollerStatus);
    this.poller?.nudge('disk');
  }

  private rawRefresh: Promise<void> | undefined;

  /**
   * In the background: the raw text of the user's own editable messages, for offline edits. Run
   * on going live and after a view fetched a page; one at a time (a page fetched meanwhile waits
   * for the next trigger).
   */
  private refreshRaw(): void {
    if (this.rawRefresh) return;
    this.rawRefresh = refreshOwnRaw(this.conn, this.db, this.seams.clock.now())
      .then(() => undefined)
      .catch((e: unknown) => this.seams.logger.warn('raw text refresh failed (offline edits fall back to the server)', { error: e instanceof Error ? e.message : String(e) }))
      .finally(() => (this.rawRefresh = undefined));
  }

  private progress(p: SyncProgress): void {
    this.syncing = p;
    this.recomputeStatus();
  }

  /**
   * The server has just deactivated a group at our request (an online-only operation): stored now,
   * with pending changes re-applied over it, rather than at the next poll (its event says the same).
   */
  markUserGroupDeactivated(groupId: number): void {
    const changes = new ChangeCollector();
    this.db.transaction(() => {
      if (editUserGroup(this.db, groupId, (g) => ({ ...g, deactivated: true }))) changes.touched('user_groups');
      reapplyTouched(this.db, changes);
    })();
    if (!changes.empty) this.emit(changes.freeze());
  }

  private emit(c: StoreChanges): void {
    if (c.areas.has('realm') && this.online) this.prefetchRealmEmoji();
    for (const l of this.changeListeners) l(c);
  }

  /**
   * Changes the server brought outside an event batch (backfill, fetched pages, moved messages):
   * the pending rows they may have overwritten are applied again before anyone sees them.
   */
  private emitRebased(c: StoreChanges): void {
    const changes = new ChangeCollector();
    for (const id of c.addedMessageIds) changes.messageAdded(id);
    for (const id of c.updatedMessageIds) changes.messageUpdated(id);
    for (const id of c.removedMessageIds) changes.messageRemoved(id);
    for (const a of c.areas) changes.touched(a);
    this.db.transaction(() => {
      reapplyTouched(this.db, changes);
      retireEchoes(this.db, [], changes);
    })();
    this.emit(changes.freeze());
  }

  private backfillContext(signal: AbortSignal) {
    return {
      conn: this.conn,
      db: this.db,
      signal,
      batchSize: this.opts.batchSize,
      now: () => this.seams.clock.now(),
      onProgress: (p: SyncProgress) => this.progress(p),
      onChanges: (c: StoreChanges) => this.emitRebased(c),
    };
  }

  /** A damaged database is the owner's to recover; the error still goes to the poller, which backs off meanwhile. */
  private damaged<T>(f: () => T): T {
    try {
      return f();
    } catch (e) {
      if (isDamageError(e)) this.opts.onDamaged?.(e);
      throw e;
    }
  }

  private async damagedAsync<T>(f: () => Promise<T>): Promise<T> {
    try {
      return await f();
    } catch (e) {
      if (isDamageError(e)) this.opts.onDamaged?.(e);
      throw e;
    }
  }

  private actions(): PollerActions {
    return {
      register: (reason, signal) => this.damagedAsync(() => this.noteDisk(() => this.register(reason, signal))),
      getEvents: (pos, dontBlock, signal) => this.damagedAsync(() => this.poll(pos, dontBlock, signal)),
      apply: (events, next) => this.damaged(() => this.apply(events, next)),
      confirmUnauthorized: async (signal) => {
        try {
          await getOwnUser(this.conn, { signal });
        } catch (e) {
          if (isApiError(e) && e.kind === 'unauthorized') return true;
          return undefined;
        }
        this.outbox.credentialsWork();
        return false;
      },
    };
  }

  private async register(reason: RegisterReason, signal: AbortSignal): Promise<QueuePosition> {
    const pos = await registerAndSync(this.backfillContext(signal), reason);
    // Echoes need the own user (unknown before the first sync); anything else is cheap to redo.
    const changes = new ChangeCollector();
    this.db.transaction(() => reapplyAll(this.db, changes))();
    if (!changes.empty) this.emit(changes.freeze());
    return pos;
  }

  private async poll(pos: QueuePosition, dontBlock: boolean, signal: AbortSignal): Promise<readonly ZulipEvent[]> {
    // A backfill a crash interrupted is finished before anything else (the queue kept the events).
    if (hasPendingBackfill(this.db)) await this.noteDisk(() => runPendingBackfill(this.backfillContext(signal)));
    if (hasPendingMoves(this.db)) await this.noteDisk(() => fetchPendingMoves(this.conn, this.db, signal, (c) => this.emitRebased(c)));
    try {
      const res = await getEvents(this.conn, { queue_id: pos.queue_id, last_event_id: pos.last_event_id, dont_block: dontBlock || undefined }, { signal });
      return res.events;
    } catch (e) {
      this.pollFailed = true;
      throw e;
    }
  }

  /** Run a step of the event path that writes; a write the disk refused is noted, then rethrown. */
  private async noteDisk<T>(f: () => Promise<T>): Promise<T> {
    try {
      return await f();
    } catch (e) {
      this.storage.failed(e);
      throw e;
    }
  }

  /** Tell listeners what the batch deserves; a failure here never fails the batch (it is applied). */
  private notify(events: readonly ZulipEvent[], selfUserId: number): void {
    if (this.notificationListeners.size === 0 || !events.some((e) => e.type === 'message')) return;
    try {
      const batch = notificationsOf(this.db, events, selfUserId);
      if (batch.items.length === 0 && batch.summary === null) return;
      for (const l of this.notificationListeners) l(batch);
    } catch (e) {
      this.seams.logger.warn('deciding notifications failed', { details: e instanceof Error ? e.message : String(e) });
    }
  }

  /** One transaction: the events and the new queue position. */
  private apply(events: readonly ZulipEvent[], next: QueuePosition): void {
    const selfUserId = this.selfUserId;
    if (selfUserId === undefined) throw new EventApplyError(undefined, new Error('own user id unknown'));
    const changes = new ChangeCollector();
    let out: ReturnType<typeof applyEvents>;
    try {
      out = this.db.transaction(() => {
        const o = applyEvents(this.db, events, { selfUserId, logger: { warn: (m, d) => this.seams.logger.warn(m, { details: d }) } }, changes);
        reconcileMoves(this.db, events, changes);
        // Our sends coming back replace their echoes; pending rows go back on top of what changed.
        retireEchoes(this.db, o.localEchoes, changes);
        reapplyTouched(this.db, changes);
        setQueuePosition(this.db, next, this.seams.clock.now());
        return o;
      })();
    } catch (e) {
      this.storage.failed(e instanceof StoreApplyError ? e.cause : e);
      throw e instanceof StoreApplyError ? new EventApplyError(e.event, e.cause) : new EventApplyError(undefined, e);
    }
    this.storage.succeeded();
    if (out.restart?.zulip_feature_level !== undefined) this.conn.noteServerVersion({ featureLevel: out.restart.zulip_feature_level });
    if (this.typing.handle(out.typing)) changes.touched('typing');
    if (this.typists.handle(out.typing)) changes.touched('typing');
    if (!changes.empty) this.emit(changes.freeze());
    this.notify(events, selfUserId);
    // A poll succeeded: the credentials work, so a 401 pause of the outbox is over; after a
    // failed poll the network is back, so rows waiting out a backoff go now.
    this.outbox.credentialsWork();
    if (this.pollFailed) {
      this.pollFailed = false;
      this.outbox.retryNow();
    }
  }
}

/**
 * What the UI is told: the poller's state, except that a disk refusing writes says so first (the
 * user's changes are refused meanwhile), a register's or backfill's progress shows as `syncing`
 * until the next poll succeeds, and outbox requests in flight show `syncing` with the drain's
 * progress (phase `outbox`) on a live stream, or, once the server answered one of them
 * (`outboxReached`), on a stream still down or reconnecting: changes are landing, so the header
 * must not say Offline meanwhile (nor after the drain, until the nudged stream answers: it is
 * `connecting` then).
 */
export function composeStatus(
  poller: PollerStatus,
  syncing: SyncProgress | undefined,
  drain: { done: number; total: number } | undefined,
  storage: StorageState = { state: 'ok' },
  outboxReached = false,
): SessionStatus {
  if (storage.state !== 'ok' && poller.state !== 'unauthorized' && poller.state !== 'stopped') {
    return { state: 'disk_full', reason: storage.state, since: storage.since, nextRetryAt: storage.nextRetryAt, error: storage.error };
  }
  const down = poller.state === 'offline' || poller.state === 'error' || poller.state === 'connecting';
  if (drain && outboxReached && down) return { state: 'syncing', progress: { phase: 'outbox', done: drain.done, total: drain.total } };
  // The server answered and the stream was nudged: it is reconnecting, not offline.
  if (outboxReached && (poller.state === 'offline' || poller.state === 'error') && !syncing) return { state: 'connecting' };
  if (syncing && poller.state !== 'unauthorized' && poller.state !== 'stopped') return { state: 'syncing', progress: syncing };
  if (poller.state === 'live' && drain) return { state: 'syncing', progress: { phase: 'outbox', done: drain.done, total: drain.total } };
  return poller;
}
