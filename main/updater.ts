/**
 * Auto-update: electron-updater's `autoUpdater` against the feed in the desktop settings
 * (`update_feed_url`: electron-builder's generic provider, a folder holding latest*.yml and the
 * installers; '' is off, the default). The feed is given at run time (`setFeedURL`); the URL baked
 * into the installers (electron-builder.yml `publish`) is a placeholder never asked.
 *
 * Never in the way of start: electron-updater is loaded on the first check, and the first check runs
 * a while after the window is shown, then every 6 hours, when a feed is set, and on "Check for
 * updates". Nothing pops up
 * by itself: the state is shown in Preferences › Desktop app (pushed over IPC_UPDATE_STATUS):
 * off / not checked yet / checking / up to date / available / downloading (percent) / downloaded
 * ("Restart to update") / installing / an error in words. A newer version downloads by itself
 * (electron-updater checks its sha512 before it is kept) and installs when the app quits
 * (`autoInstallOnAppQuit`), or at once on "Restart to update", which first closes the engine (the
 * outbox and databases, as a quit does) and only then calls `quitAndInstall`.
 *
 * electron-updater refuses to check from an unpackaged app; `devChecks` (the harness and tests only,
 * ignored in a packaged app) sets its `forceDevUpdateConfig`, which reads `dev-app-update.yml` at the
 * app's root in place of the installers' `app-update.yml`.
 */
import { app, ipcMain } from 'electron';
import type { AppUpdater, ProgressInfo, UpdateInfo } from 'electron-updater';
import * as z from 'zod';
import { updateRequestSchema, type UpdateStatus } from '../sync/protocol/desktop.js';
import type { RpcResult } from '../sync/protocol/rpc.js';
import { CHANNELS } from './ipc-channels.js';
import { refused, senderProblem, type IpcOptions } from './ipc.js';

/** The first check waits this long after the window is shown: start is never slowed by it. */
export const FIRST_CHECK_DELAY_MS = 10_000;
export const CHECK_INTERVAL_MS = 6 * 60 * 60 * 1000;

export interface UpdaterOptions {
  /** The feed set now (the desktop settings); '' is off. */
  readonly feedUrl: () => string;
  /** Close the engine (the outbox and databases) before the installer runs; resolves once closed. */
  readonly beforeInstall: () => Promise<void>;
  /** The state changed (to the page). */
  readonly publish?: (status: UpdateStatus) => void;
  readonly log?: (line: string) => void;
  /** The updater; electron-updater's `autoUpdater` (loaded then) by default. */
  readonly load?: () => Promise<AppUpdater>;
  /** Check from an unpackaged app (the harness, tests); ignored when packaged. */
  readonly devChecks?: boolean;
  readonly firstCheckDelayMs?: number;
  readonly intervalMs?: number;
}

export interface Updater {
  status(): UpdateStatus;
  /** Check now (a no-op when off); resolves when the check ended (a download goes on). */
  check(): Promise<UpdateStatus>;
  /** "Restart to update": the engine closes, then the installer runs and the app quits. */
  install(): Promise<void>;
  /** The window was shown: the first check is scheduled (once). */
  windowShown(): void;
  /** The feed setting changed: off, or a new feed checked now. */
  feedChanged(): void;
  close(): void;
}

async function loadAutoUpdater(): Promise<AppUpdater> {
  const m = await import('electron-updater');
  return m.default.autoUpdater;
}

/** An updater error in words (the cause, not a stack). */
export function updateErrorText(e: unknown): string {
  const err = e instanceof Error ? e : new Error(String(e));
  const code = (err as Error & { code?: unknown }).code;
  const text = err.message;
  if (code === 'ERR_CHECKSUM_MISMATCH' || /sha512 checksum mismatch/i.test(text)) return 'The downloaded update did not match its checksum (sha512) and was discarded.';
  if (code === 'ERR_UPDATER_CHANNEL_FILE_NOT_FOUND' || /\b404\b/.test(text)) return 'The update feed has no update information for this system (HTTP 404).';
  if (/ECONNREFUSED|ERR_CONNECTION_REFUSED/.test(text) || code === 'ECONNREFUSED') return 'The update feed could not be reached: the connection was refused.';
  if (/ENOTFOUND|ERR_NAME_NOT_RESOLVED|EAI_AGAIN/.test(text)) return 'The update feed could not be reached: its server name is unknown.';
  if (/ETIMEDOUT|ERR_TIMED_OUT|timeout/i.test(text)) return 'The update feed did not answer in time.';
  if (/ERR_INTERNET_DISCONNECTED|ENETUNREACH/.test(text)) return 'The update feed could not be reached: this computer is offline.';
  if (code === 'ERR_UPDATER_INVALID_VERSION') return 'The update feed names no valid version.';
  const status = /^HttpError: (\d{3})/m.exec(text) ?? /status (\d{3})/.exec(text);
  if (status) return `The update feed answered HTTP ${status[1]}.`;
  return `The update failed: ${text.split('\n')[0]}`;
}

export function startUpdater(opts: UpdaterOptions): Updater {
  const log = opts.log ?? ((line: string) => console.warn(line));
  const current_version = app.getVersion();
  let status: UpdateStatus = { current_version, state: opts.feedUrl() === '' ? 'off' : 'idle' };
  let updater: Promise<AppUpdater> | undefined;
  let feed = '';
  let version = '';
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const stateNow = () => status.state;
  const set = (next: UpdateStatus) => {
    status = next;
    if (!closed) opts.publish?.(status);
  };
  /** What an event of electron-updater says, unless updates were turned off meanwhile. */
  const heard = (next: UpdateStatus) => {
    if (opts.feedUrl() !== '') set(next);
  };

  const load = (): Promise<AppUpdater> =>
    (updater ??= (opts.load ?? loadAutoUpdater)().then((u) => {
      u.autoDownload = true;
      u.autoInstallOnAppQuit = true;
      u.forceDevUpdateConfig = opts.devChecks === true && !app.isPackaged;
      u.logger = { info: () => undefined, warn: (m: unknown) => log(`updater: ${String(m)}`), error: (m: unknown) => log(`updater: ${String(m)}`) };
      u.on('checking-for-update', () => heard({ current_version, state: 'checking' }));
      u.on('update-not-available', () => heard({ current_version, state: 'up_to_date', checked_at: Date.now() }));
      u.on('update-available', (info: UpdateInfo) => heard({ current_version, state: 'available', version: (version = info.version) }));
      u.on('download-progress', (p: ProgressInfo) => heard({ current_version, state: 'downloading', version, percent: Math.min(100, Math.max(0, Math.round(p.percent))) }));
      u.on('update-downloaded', (info: UpdateInfo) => heard({ current_version, state: 'downloaded', version: info.version }));
      u.on('error', (e: Error) => heard({ current_version, state: 'error', message: updateErrorText(e) }));
      return u;
    }));

  const check = async (): Promise<UpdateStatus> => {
    const url = opts.feedUrl();
    if (url === '' || closed) return status;
    // A download in hand (or going) is not checked over.
    if (status.state === 'downloading' || status.state === 'downloaded' || status.state === 'installing') return status;
    let u: AppUpdater;
    try {
      u = await load();
    } catch (e) {
      set({ current_version, state: 'error', message: updateErrorText(e) });
      return status;
    }
    if (url !== feed) {
      u.setFeedURL(url);
      feed = url;
    }
    u.autoInstallOnAppQuit = true;
    set({ current_version, state: 'checking' });
    try {
      const result = await u.checkForUpdates();
      if (result === null) {
        set({ current_version, state: 'error', message: 'This copy of the app cannot update itself: only an installed app (AppImage, deb, the Windows installer or the macOS app) updates.' });
      } else {
        // Its failure arrives as the `error` event (the state says it).
        void result.downloadPromise?.catch(() => undefined);
      }
    } catch (e) {
      heard({ current_version, state: 'error', message: updateErrorText(e) });
    }
    return status;
  };

  const checkLogged = () => void check().catch((e: unknown) => log(`checking for updates: ${String(e)}`));

  return {
    status: () => status,
    check,
    async install() {
      if (status.state !== 'downloaded' || closed) return;
      const u = await load();
      set({ current_version, state: 'installing', version: status.version });
      await opts.beforeInstall();
      u.quitAndInstall();
      // The installer could not start (the error says why, synchronously): the engine is closed, so quit anyway.
      if (stateNow() === 'error') app.quit();
    },
    windowShown() {
      if (timer !== undefined || closed) return;
      const every = opts.intervalMs ?? CHECK_INTERVAL_MS;
      const next = (ms: number) => {
        timer = setTimeout(() => {
          checkLogged();
          next(every);
        }, ms);
        timer.unref?.();
      };
      next(opts.firstCheckDelayMs ?? FIRST_CHECK_DELAY_MS);
    },
    feedChanged() {
      const url = opts.feedUrl();
      if (url === '') {
        // Off: nothing more is asked, and an update already downloaded is not installed on quit.
        void updater?.then((u) => (u.autoInstallOnAppQuit = false)).catch(() => undefined);
        set({ current_version, state: 'off' });
      } else if (url !== feed && status.state !== 'downloaded' && status.state !== 'installing') {
        // A feed just set is checked at once (the user is there to see whether it works).
        set({ current_version, state: 'idle' });
        checkLogged();
      }
    },
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}

/** Serve IPC_UPDATE (the page asks the state, a check, or "Restart to update"); returns the undo. */
export function handleUpdates(updater: Updater, opts: Pick<IpcOptions, 'window' | 'isOwnUrl' | 'log'>): () => void {
  ipcMain.handle(CHANNELS.update, async (event, payload: unknown): Promise<RpcResult> => {
    const problem = senderProblem(event, opts);
    if (problem) {
      opts.log?.(`IPC update refused: ${problem}`);
      return refused(`refused: ${problem}`);
    }
    const parsed = updateRequestSchema.safeParse(payload);
    if (!parsed.success) return refused(`invalid update request: ${z.prettifyError(parsed.error)}`);
    const { action } = parsed.data;
    if (action === 'check') return { ok: true, value: await updater.check() };
    if (action === 'install') {
      // Answered at once: the engine closes and the app quits after this.
      void updater.install().catch((e: unknown) => opts.log?.(`installing the update: ${String(e)}`));
    }
    return { ok: true, value: updater.status() };
  });
  return () => ipcMain.removeHandler(CHANNELS.update);
}
