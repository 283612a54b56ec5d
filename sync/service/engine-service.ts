/**
 * The engine behind the contract, for any host: Electron's main process (IPC) and the browser-mode
 * host (WebSocket) both only move frames between a page and `connect(...)`.
 *
 *   connect(push) -> a client: `invoke(name, payload)` parses the payload with the operation's zod
 *                    schema (an invalid one never reaches the engine), runs the handler, parses the
 *                    answer, and resolves to an `RpcResult` (it never throws); `push` receives the
 *                    engine's events (status, this client's live views, touched areas)
 *   restore()     -> reopen every signed-in account (the sandbox restarts with it) and show the one
 *                    shown last time
 *   close()       -> close every view, every session and the sandbox
 *
 * Every signed-in account is open at once (an organisation, as zulip-desktop has them): each has
 * its session syncing its events and draining its own outbox, shown or not. One is *shown*: the
 * page's queries, views, uploads and `status` events are its. Notifications come from every one,
 * with the account's id; the organisations bar reads each one's unread count and connection
 * (`organisations`, area `organisations`). Each account's database lives in `dataDir` under its
 * own file; its API key in the host's `SecretStore`, never in a file of ours and never sent to a
 * page.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ApiConnection, fetchApiKey, getOwnUser, getServerSettings, type Transport } from '../api/index.js';
import type { LocalDb } from '../db/open.js';
import { isDamageError, openCheckedDb, recoverDatabase, type SalvageReport } from '../db/damage.js';
import { cleanMarkOf } from '../db/deferred-check.js';
import { draftCount } from '../db/queries/drafts.js';
import { liveOutboxCounts } from '../db/queries/outbox.js';
import { AccountSession, accountFileName } from '../engine/session.js';
import { defaultSeams, type Seams } from '../base/seams.js';
import type { ViewHandle } from '../engine/session-views.js';
import type { AccountSummary, AccountsState, DamageNotice, Organisation, SignInRequest, SignOutCheck } from '../protocol/accounts.js';
import { getRealmValue } from '../db/queries/realm.js';
import type { EngineEvent } from '../protocol/commands.js';
import { parseRequestIn, type RpcResult } from '../protocol/rpc.js';
import { AccountsList } from './accounts-file.js';
import { damageNotice } from './damage-notice.js';
import { NetworkFile } from './network-file.js';
import type { CertificateInfo, NetworkSettings } from '../../common/network-settings.js';
import { certificateFromPem, peekCertificate } from '../api/network.js';
import { RpcFailure, toRpcError } from './errors.js';
import { OutboxIntentError } from '../outbox/kinds.js';
import { handlers, serviceOperations, type HandlerContext } from './handlers.js';
import type { SandboxLauncher, SecretStore } from './ports.js';
import type { UploadAnswer } from '../uploads/cache.js';

export interface EngineServiceOptions {
  /** Where `accounts.json` and the account databases live; `:memory:` for tests. */
  readonly dataDir: string;
  readonly secrets: SecretStore;
  readonly sandbox?: SandboxLauncher;
  readonly seams?: Partial<Seams>;
  readonly transport?: Transport;
  readonly timeoutMs?: number;
}

export interface EngineClient {
  invoke(name: string, payload: unknown): Promise<RpcResult>;
  /** Close this client's live views (the page went away). */
  close(): void;
}

export const SANDBOX_ACCOUNT_ID = 'sandbox';

/** Rebuilds of a damaged database while open, per account and run (docs/sync-design.md "Damaged data"). */
const MAX_REBUILDS_PER_RUN = 3;

/** Stable local id of a server account. */
export function accountIdFor(realmUrl: string, email: string): string {
  return createHash('sha256').update(`${realmUrl}\n${email.toLowerCase()}`).digest('hex').slice(0, 16);
}

/** `https://host[:port]` of a realm URL (refused in words when it is no URL). */
function originOf(u: string): string {
  try {
    return new URL(u.trim()).origin;
  } catch {
    throw new RpcFailure('INVALID_REQUEST', `not a server URL: ${u}`);
  }
}

function normalizeRealmUrl(u: string): string {
  const url = new URL(u.trim());
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/** An open account: its session and what unhooks the service from it. */
interface OpenAccount {
  readonly session: AccountSession;
  readonly off: (() => void)[];
}

export class EngineService {
  private readonly list: AccountsList;
  /** Every open account's session, by account id (docs/sync-design.md "Several organisations"). */
  private readonly sessions = new Map<string, OpenAccount>();
  /** The shown account: what the page's queries, views and status are about. */
  private activeId: string | null = null;
  private readonly clients = new Set<{ push: (e: EngineEvent) => void; views: Map<string, ViewHandle> }>();
  /** Serialises account switches so two clicks never open two sessions. */
  private chain: Promise<unknown> = Promise.resolve();
  /** An account's database was damaged and rebuilt: shown with that account until dismissed. */
  private notice: DamageNotice | undefined;
  /** Accounts whose damaged database is being rebuilt (docs/sync-design.md "Damaged data"). */
  private readonly rebuilding = new Set<string>();
  /** Rebuilds per account in this run (bounded by MAX_REBUILDS_PER_RUN). */
  private readonly rebuilds = new Map<string, number>();

  private readonly network: NetworkFile;

  constructor(private readonly opts: EngineServiceOptions) {
    this.list = new AccountsList(opts.dataDir);
    this.network = new NetworkFile(opts.dataDir);
  }

  connect(push: (e: EngineEvent) => void): EngineClient {
    const client = { push, views: new Map<string, ViewHandle>() };
    this.clients.add(client);
    const ctx = this.context(client);
    return {
      invoke: (name, payload) => this.invoke(ctx, name, payload),
      close: () => {
        for (const v of client.views.values()) v.close();
        client.views.clear();
        this.clients.delete(client);
      },
    };
  }

  /**
   * Reopen every account signed in when the app last ran (no network needed to show their caches)
   * and show the one shown then (or the first that opened). One that cannot open (a missing key, a
   * sandbox that cannot start) is logged and left closed: the bar still lists it.
   */
  async restore(): Promise<void> {
    const shown = this.list.active;
    const ids = this.list.accounts.map((a) => a.id);
    const first = shown !== null && ids.includes(shown) ? shown : ids[0];
    // The account shown last time opens and is shown first (after an unclean end each one runs its
    // integrity check on opening); restore() returns then. The others open after it, queued
    // behind it, and `restored` settles once every account has been tried.
    await this.serial(async () => {
      if (first !== undefined && (await this.tryOpen(first))) this.show(first);
    });
    this.restored = this.serial(async () => {
      for (const id of ids) if (id !== first) await this.tryOpen(id);
      if (this.activeId === null) this.show(this.sessions.keys().next().value ?? null);
    });
  }

  /** Every account of the last run tried again (restore()'s second part). */
  restored: Promise<void> = Promise.resolve();

  private async tryOpen(id: string): Promise<boolean> {
    try {
      await this.openSession(id);
      return true;
    } catch (e) {
      this.logger.error('an account signed in last time could not be opened again', { account: id, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
      return false;
    }
  }

  async close(): Promise<void> {
    // An account still opening from restore() would otherwise open after this closed everything.
    await this.restored;
    for (const c of this.clients) for (const v of c.views.values()) v.close();
    this.clients.clear();
    for (const id of [...this.sessions.keys()]) await this.closeSession(id);
    this.activeId = null;
    await this.opts.sandbox?.close();
  }

  /** The shown account's session. */
  get activeSession(): AccountSession | undefined {
    return this.session;
  }

  /** An open account's session, shown or not. */
  sessionOf(id: string): AccountSession | undefined {
    return this.sessions.get(id)?.session;
  }

  private get session(): AccountSession | undefined {
    return this.activeId === null ? undefined : this.sessions.get(this.activeId)?.session;
  }

  /**
   * An image of the open account's realm for the page (`realmPath` = `/user_uploads/...`, still
   * encoded; `anyType`: any file, for a download): both hosts serve the page from this, never from the realm directly. No account open:
   * `not_found`.
   */
  upload(realmPath: string, anyType = false): Promise<UploadAnswer> {
    const s = this.session;
    if (!s) return Promise.resolve({ kind: 'not_found', reason: 'no account is open' });
    return s.uploads.get(realmPath, { anyType });
  }

  /**
   * A file the user attached, copied into the open account's data directory before its upload is
   * queued (the page then invokes `uploadFile` with the id). Both hosts carry the bytes here (the
   * browser host's authenticated `POST /outbox-files`, Electron's validated IPC), never in a frame.
   */
  stageUpload(bytes: Buffer): RpcResult {
    const s = this.session;
    if (!s) return { ok: false, error: { code: 'NO_ACCOUNT', message: 'no account is open' } };
    try {
      return { ok: true, value: s.stageUpload(bytes) };
    } catch (e) {
      return { ok: false, error: e instanceof OutboxIntentError ? { code: 'INVALID_REQUEST', message: e.message } : toRpcError(e) };
    }
  }

  /** A staged file's bytes for the compose preview (undefined: none, or no account open). */
  stagedUpload(file: string): Promise<Buffer | undefined> {
    return this.session ? this.session.stagedUpload(file) : Promise.resolve(undefined);
  }

  private async invoke(ctx: HandlerContext, name: string, payload: unknown): Promise<RpcResult> {
    const parsed = parseRequestIn(serviceOperations, name, payload);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    try {
      // The handler table is keyed by the same names as `operations`; the request was parsed by its schema.
      const handler = handlers[parsed.name] as (c: HandlerContext, r: unknown) => unknown;
      const value = await handler(ctx, parsed.request);
      const out = serviceOperations[parsed.name].response.safeParse(value);
      if (!out.success) return { ok: false, error: { code: 'INTERNAL', message: `${parsed.name} produced an answer outside the contract: ${out.error.message}` } };
      return { ok: true, value: out.data };
    } catch (e) {
      if (isDamageError(e) && this.activeId !== null) {
        // A read or write met a damaged page: the database is rebuilt rather than failing every call.
        this.damaged(this.activeId, e);
        return { ok: false, error: { code: 'UNAVAILABLE', message: "This device's copy of the account is damaged; it is being rebuilt from what can still be read and from the server." } };
      }
      // A write the disk refused: the status says so and the engine retries (a no-op otherwise).
      this.session?.storage.failed(e);
      return { ok: false, error: toRpcError(e) };
    }
  }

  private get logger() {
    return this.opts.seams?.logger ?? defaultSeams.logger;
  }

  /**
   * The open account's database was found damaged while open: close it, recover the file (salvage
   * the durable rows into a fresh one, keep the damaged one aside) and open it again, once.
   */
  private damaged(id: string, error: unknown): void {
    if (this.rebuilding.has(id) || !this.sessions.has(id)) return;
    // A disk that keeps damaging what is written to it would otherwise rebuild without end (and
    // leave a damaged copy each time): after a few, the session is left to its backoff.
    const n = (this.rebuilds.get(id) ?? 0) + 1;
    this.rebuilds.set(id, n);
    if (n > MAX_REBUILDS_PER_RUN) {
      if (n === MAX_REBUILDS_PER_RUN + 1) this.logger.error('the account database keeps being damaged; not rebuilding it again until the app restarts', { account: id });
      return;
    }
    this.rebuilding.add(id);
    void this.serial(async () => {
      try {
        if (!this.sessions.has(id)) return;
        const file = this.dbFileOf(id);
        await this.closeSession(id).catch((e: unknown) => this.logger.warn('closing the damaged database failed', { error: String(e) }));
        if (file === undefined) return;
        const report = recoverDatabase(file, error instanceof Error ? `${error.name}: ${error.message}` : String(error), { now: () => Date.now(), logger: this.logger });
        await this.openSession(id, report);
        if (this.activeId === id) this.show(id);
      } catch (e) {
        this.logger.error('rebuilding the damaged database failed', { account: id, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
      } finally {
        this.rebuilding.delete(id);
      }
    });
  }

  private context(client: { push: (e: EngineEvent) => void; views: Map<string, ViewHandle> }): HandlerContext {
    return {
      session: () => {
        if (!this.session) throw new RpcFailure('NO_ACCOUNT', 'no account is open: sign in or open the sandbox');
        return this.session;
      },
      views: client.views,
      pushView: (viewId, changes) => client.push({ type: 'view', view_id: viewId, changes }),
      accounts: {
        state: () => this.state(),
        signIn: (req) => this.serial(() => this.signIn(req)),
        openSandbox: () => this.serial(() => this.switchTo(SANDBOX_ACCOUNT_ID)),
        switchAccount: (id) => this.serial(() => this.switchTo(id)),
        organisations: () => this.organisations(),
        reorder: (ids) => {
          this.list.reorder(ids);
          this.broadcast({ type: 'areas', areas: ['organisations'] });
        },
        signOutCheck: (id) => this.serial(() => this.signOutCheck(id)),
        dismissDamageNotice: () => {
          this.notice = undefined;
          this.broadcast({ type: 'areas', areas: ['accounts'] });
        },
        signOut: (id, queued, waitMs) => this.serial(() => this.signOut(id, queued, waitMs)),
      },
      network: {
        get: () => this.network.get(),
        // The open account reconnects with the new settings.
        set: (next) => this.serial(() => this.setNetwork(next)),
        peek: (realmUrl) => this.peek(realmUrl),
        // The certificate is read outside the queue of account changes (a slow server holds up no
        // switch); only the save waits its turn.
        trust: async (realmUrl, fingerprint) => {
          const origin = originOf(realmUrl);
          const seen = await this.peek(realmUrl);
          if (seen.fingerprint !== fingerprint) throw new RpcFailure('INVALID_REQUEST', `the server now presents another certificate (${seen.fingerprint}): nothing was trusted`);
          return this.serial(() => {
            const cur = this.network.get();
            return this.setNetwork({ ...cur, certificates: [...cur.certificates.filter((c) => c.origin !== origin), certificateFromPem(seen.pem, origin)] });
          });
        },
        addAuthority: (pem) =>
          this.serial(async () => {
            let ca;
            try {
              ca = certificateFromPem(pem, null);
            } catch (e) {
              throw new RpcFailure('INVALID_REQUEST', e instanceof Error ? e.message : String(e));
            }
            const cur = this.network.get();
            return this.setNetwork({ ...cur, certificates: [...cur.certificates.filter((c) => c.fingerprint !== ca.fingerprint), ca] });
          }),
      },
    };
  }

  /** The certificate a server presents now, through the current proxy settings. */
  private peek(realmUrl: string): Promise<CertificateInfo> {
    return peekCertificate(originOf(realmUrl), this.network.get()).catch((e: unknown) => {
      throw new RpcFailure('OFFLINE', `the server's certificate could not be read (${e instanceof Error ? e.message : String(e)})`);
    });
  }

  private state(): AccountsState {
    return {
      accounts: [...this.list.accounts],
      active: this.activeId,
      secret_storage: this.opts.secrets.storage,
      sandbox_available: this.opts.sandbox !== undefined,
      ...(this.notice !== undefined && this.notice.account_id === this.activeId ? { damage_notice: this.notice } : {}),
      ...(this.list.kept.length > 0 ? { kept: [...this.list.kept] } : {}),
    };
  }

  /**
   * Every account for the bar, in the person's order, with its unread count and connection. Names
   * are the realms' (their host until the first sync), told apart by host, then by email, when two
   * are the same.
   */
  private organisations(): Organisation[] {
    const orgs = this.list.accounts.map((a): Organisation => {
      const s = this.sessions.get(a.id)?.session;
      const name = s ? getRealmValue(s.db, 'realm_name') : undefined;
      return {
        ...a,
        name: typeof name === 'string' && name !== '' ? name : new URL(a.realm_url).host,
        unread: s ? s.queries.unreadCounts().total : 0,
        connection: s ? s.status.state : 'closed',
      };
    });
    for (const by of [(o: Organisation) => new URL(o.realm_url).host, (o: Organisation) => o.email]) {
      const names = orgs.map((o) => o.name);
      for (const o of orgs) if (names.filter((n) => n === o.name).length > 1) o.name = `${o.name} (${by(o)})`;
    }
    return orgs;
  }

  /** Save the network settings; every open account reconnects with them. */
  private async setNetwork(next: NetworkSettings): Promise<NetworkSettings> {
    const saved = this.network.set(next);
    for (const id of [...this.sessions.keys()]) {
      await this.closeSession(id);
      await this.openSession(id).catch((e: unknown) => this.logger.error('an account could not reconnect with the new network settings', { account: id, error: String(e) }));
    }
    if (this.activeId !== null) this.show(this.sessions.has(this.activeId) ? this.activeId : null);
    return saved;
  }

  private serial<T>(f: () => Promise<T>): Promise<T> {
    const next = this.chain.then(f, f);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async signIn(req: SignInRequest): Promise<AccountSummary> {
    // Refuse before any network use, so a refusal stores and sends nothing.
    if (this.opts.secrets.storage === 'plain' && req.allow_plain_storage !== true) {
      throw new RpcFailure('PLAIN_STORAGE_CONSENT_REQUIRED', 'this system offers no encryption for stored keys: the API key would be saved unencrypted on disk. Agree to continue.');
    }
    const realmUrl = normalizeRealmUrl(req.realm_url);
    const probe = new ApiConnection({ realmUrl, email: req.email, apiKey: 'api_key' in req.credentials ? req.credentials.api_key : '', transport: this.opts.transport, network: this.network.get(), timeoutMs: this.opts.timeoutMs, logger: { warn: () => undefined } });
    let email = req.email;
    let apiKey: string;
    try {
      await getServerSettings(probe); // is this a Zulip server at all?
      if ('password' in req.credentials) {
        const r = await fetchApiKey(probe, { username: req.email, password: req.credentials.password });
        apiKey = r.api_key;
        email = r.email;
      } else {
        apiKey = req.credentials.api_key;
        const me = await getOwnUser(probe); // the key must work before we keep it
        email = me.email;
      }
    } finally {
      await probe.close();
    }
    const account: AccountSummary = { id: accountIdFor(realmUrl, email), realm_url: realmUrl, email, kind: 'server' };
    this.opts.secrets.set(account.id, apiKey);
    this.list.upsert(account);
    // Signing in again to an open account: it reopens with the new key.
    await this.closeSession(account.id);
    await this.openSession(account.id);
    this.show(account.id);
    return account;
  }

  /** Show an account, opening it first unless it is open (the others stay open). */
  private async switchTo(id: string): Promise<AccountSummary> {
    if (!this.sessions.has(id)) await this.openSession(id);
    this.show(id);
    const account = this.list.find(id);
    if (!account) throw new RpcFailure('INVALID_REQUEST', `no account ${id}`);
    return account;
  }

  /**
   * Make `id` (open, or null for none) the shown account: the page's live views were the other
   * account's, so they close; the page hears `accounts` (it remounts) and the shown one's status.
   */
  private show(id: string | null): void {
    if (id !== this.activeId) this.closeViews();
    this.activeId = id;
    this.list.setActive(id);
    const s = this.session;
    if (s) this.broadcast({ type: 'status', status: s.status });
    this.broadcast({ type: 'areas', areas: ['accounts'] });
  }

  /**
   * Open an account's session (not shown): it syncs and drains its outbox from now on.
   * `recovered`: the file was just recovered (found damaged while open), for the notice.
   */
  private async openSession(id: string, recovered?: SalvageReport): Promise<AccountSummary> {
    let account = this.list.find(id);
    let apiKey: string | undefined;
    let realmUrl: string;
    let email: string;
    if (id === SANDBOX_ACCOUNT_ID) {
      if (!this.opts.sandbox) throw new RpcFailure('UNAVAILABLE', 'this host has no embedded sandbox');
      const c = await this.opts.sandbox.start(this.list.sandboxPort);
      if (c.port !== this.list.sandboxPort) this.list.setSandboxPort(c.port);
      ({ realmUrl, email, apiKey } = c);
      account = { id, realm_url: realmUrl, email, kind: 'sandbox' };
      this.list.upsert(account);
    } else {
      if (!account) throw new RpcFailure('INVALID_REQUEST', `no account ${id}`);
      apiKey = this.opts.secrets.get(id);
      if (apiKey === undefined) throw new RpcFailure('NO_ACCOUNT', `the key of ${account.email} is missing: sign in again`);
      ({ realm_url: realmUrl, email } = account);
    }
    await this.closeSession(id);
    const session = AccountSession.open({
      realmUrl,
      email,
      apiKey,
      dataDir: this.opts.dataDir,
      fileName: id === SANDBOX_ACCOUNT_ID ? 'sandbox.sqlite' : undefined,
      seams: this.opts.seams,
      transport: this.opts.transport,
      network: this.network.get(),
      timeoutMs: this.opts.timeoutMs,
      onDamaged: (e) => this.damaged(id, e),
    });
    const report = recovered ?? session.recovered;
    if (report) this.notice = damageNotice(id, report);
    let connection = session.status.state;
    const shown = () => this.activeId === id;
    this.sessions.set(id, {
      session,
      off: [
        session.onStatus((status) => {
          if (shown()) this.broadcast({ type: 'status', status });
          // The bar's offline marker: only a change of state, not each progress step.
          if (status.state !== connection) this.broadcast({ type: 'areas', areas: ['organisations'] });
          connection = status.state;
        }),
        session.onNotifications((n) => this.broadcast({ type: 'notifications', items: n.items, summary: n.summary, account_id: id })),
        session.onUploadProgress((p) => shown() && this.broadcast({ type: 'upload_progress', ...p })),
        session.onChanges((c) => {
          // Messages added or removed change topic lists even when no unread count moves (one's own
          // message, a read one); `messages` tells the sidebar to look again. An account not shown
          // only tells the bar its unread count may have moved.
          const areas: string[] = shown() ? [...c.areas] : [];
          if (shown() && c.addedMessageIds.size + c.removedMessageIds.size > 0) areas.push('messages');
          if (c.areas.has('unread')) areas.push('organisations');
          if (areas.length > 0) this.broadcast({ type: 'areas', areas });
        }),
      ],
    });
    session.start();
    this.broadcast({ type: 'areas', areas: ['organisations'] });
    return account;
  }

  /** The account's database file (undefined: in memory, nothing on disk). */
  private dbFileOf(id: string): string | undefined {
    const account = this.list.find(id);
    if (!account || this.opts.dataDir === ':memory:') return undefined;
    return path.join(this.opts.dataDir, id === SANDBOX_ACCOUNT_ID ? 'sandbox.sqlite' : accountFileName(account.realm_url, account.email));
  }

  private async signOutCheck(id: string): Promise<SignOutCheck> {
    const open = this.sessions.get(id)?.session;
    if (open) return leftBehind(open.db);
    const file = this.dbFileOf(id);
    if (file === undefined || !existsSync(file)) return { pending: 0, failed: 0, conflict: 0, drafts: 0 };
    // A damaged file is recovered here too (its damaged copy kept aside), so the counts are what was readable.
    const { db } = openCheckedDb(file, { now: () => Date.now(), logger: this.logger });
    try {
      return leftBehind(db);
    } finally {
      db.close();
    }
  }

  private async signOut(id: string, queued: 'wait' | 'keep' | 'discard' | undefined, waitMs: number): Promise<{ kept: boolean }> {
    let left: SignOutCheck;
    try {
      left = await this.signOutCheck(id);
    } catch (e) {
      // Not even a recovery could read the file: discard and keep need no counts; anything else
      // must not drop what may be in it unasked.
      this.logger.error('the account database could not be read for signing out', { account: id, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
      // The open account's damaged copy is rebuilt (see invoke) and the question asked again.
      if (queued !== 'discard' && queued !== 'keep' && isDamageError(e)) throw e;
      if (queued !== 'discard' && queued !== 'keep') throw new RpcFailure('PENDING_CHANGES', "this device's copy of the account cannot be read, so what it holds is unknown: keep it or discard it", { pending: 0, failed: 0, conflict: 0, drafts: 0 });
      left = { pending: 0, failed: 0, conflict: 0, drafts: 0 };
    }
    const unsent = (c: SignOutCheck) => c.pending + c.failed + c.conflict;
    if (unsent(left) > 0 && queued === undefined) throw pendingChanges(left, 'signing out would drop them');
    if (queued === 'wait' && unsent(left) > 0) {
      // Only an open account sends: open it (not shown) if it is not.
      if (!this.sessions.has(id)) await this.openSession(id);
      const s = this.sessions.get(id)?.session;
      s?.outbox.retryNow();
      const deadline = Date.now() + waitMs;
      while (s && Date.now() < deadline) {
        left = leftBehind(s.db);
        if (left.pending === 0) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      left = s ? leftBehind(s.db) : left;
      if (unsent(left) > 0) throw pendingChanges(left, 'not everything could be sent; nothing was signed out');
    }
    const keep = queued === 'keep';
    const file = this.dbFileOf(id);
    await this.closeSession(id);
    // The shown one signed out: show another open one (or none: the welcome screen).
    if (this.activeId === id) this.show([...this.sessions.keys()][0] ?? null);
    this.opts.secrets.delete(id);
    const account = this.list.find(id);
    this.list.remove(id);
    // Said on the welcome screen until the same account signs in again (AccountsList.upsert).
    if (keep && account && file !== undefined && unsent(left) + left.drafts > 0) this.list.keep({ ...account, unsent: unsent(left), drafts: left.drafts });
    if (this.notice?.account_id === id) this.notice = undefined;
    // Kept: the database (outbox and drafts) stays where the same account's next sign-in opens it.
    if (!keep && file !== undefined) {
      for (const f of [file, `${file}-wal`, `${file}-shm`, cleanMarkOf(file)]) rmSync(f, { force: true });
      // Damaged copies kept aside by a recovery are the account's data too: signing out removes them.
      const base = path.basename(file);
      for (const f of readdirSync(path.dirname(file))) if (f.startsWith(`${base}.damaged-`)) rmSync(path.join(path.dirname(file), f), { force: true });
      rmSync(`${file.replace(/\.sqlite$/, '')}.uploads`, { recursive: true, force: true });
      // Copies of files queued for upload go with the outbox that named them.
      rmSync(`${file.replace(/\.sqlite$/, '')}.outbox-files`, { recursive: true, force: true });
    }
    this.broadcast({ type: 'areas', areas: ['organisations'] });
    return { kept: keep };
  }

  /** The page's live views (they are the shown account's). */
  private closeViews(): void {
    for (const c of this.clients) {
      for (const v of c.views.values()) v.close();
      c.views.clear();
    }
  }

  /** Close one account's session (the shown one's views with it); which one is shown is left to the caller. */
  private async closeSession(id: string): Promise<void> {
    const open = this.sessions.get(id);
    if (!open) return;
    if (this.activeId === id) this.closeViews();
    for (const off of open.off) off();
    this.sessions.delete(id);
    await open.session.close();
  }

  private broadcast(e: EngineEvent): void {
    for (const c of this.clients) {
      try {
        c.push(e);
      } catch {
        // A page that went away must not stop the others from hearing.
      }
    }
  }
}

/** What signing out would leave behind in an account's database. */
function leftBehind(db: LocalDb): SignOutCheck {
  const rows = liveOutboxCounts(db);
  const out = { pending: 0, failed: 0, conflict: 0, drafts: 0 };
  for (const r of rows) {
    if (r.state === 'failed') out.failed += r.n;
    else if (r.state === 'conflict') out.conflict += r.n;
    else out.pending += r.n;
  }
  out.drafts = draftCount(db);
  return out;
}

function pendingChanges(c: SignOutCheck, why: string): RpcFailure {
  const parts = [c.pending > 0 ? `${c.pending} pending` : '', c.failed > 0 ? `${c.failed} failed` : '', c.conflict > 0 ? `${c.conflict} in conflict` : ''].filter((x) => x !== '');
  return new RpcFailure('PENDING_CHANGES', `${parts.join(', ')} change${parts.length === 1 && (c.pending + c.failed + c.conflict) === 1 ? '' : 's'} not on the server yet: ${why}`, { ...c });
}
