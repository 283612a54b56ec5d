/**
 * The Electron main process, wired: one instance, one window, the engine service behind IPC.
 * Wiring only; each piece lives in its own module:
 *   guards.ts           window.open / navigation / webview locks, CSP header, permissions denied
 *   ipc.ts              the one IPC handler wrapper (sender check, payload parsing)
 *   secrets.ts          API keys sealed with safeStorage (userData/keys.json)
 *   window-state.ts     size/position remembered and clamped to the visible displays
 *   menu.ts, badge.ts   application menu; the unread count
 *   tray.ts             the count shown: title, dock/taskbar badge, tray icon and menu
 *   notify.ts           desktop notifications (Electron's Notification), a click opens the conversation
 *   desktop-settings.ts close to tray, start at login, Do Not Disturb, spell check (userData/desktop-settings.json)
 *   spellcheck.ts       spell-check languages; the context menu (suggestions, add to dictionary, cut/copy/paste)
 *   links.ts, open-link.ts  zulip:// and realm links from the OS (open-url, a second launch's argv) opened in the page
 *   uploads.ts          the zulip-upload: scheme serving the realm's images from the engine's cache
 *   save-upload.ts      a file link clicked: fetched by the engine, saved where the user says
 *   updater.ts          auto-update (electron-updater) from the feed in the desktop settings, off by default
 * Data: userData/accounts (account databases, accounts.json), userData/keys.json, userData/sandbox
 * (the embedded reference server's realm), userData/window-state.json, userData/desktop-settings.json.
 */
import { join } from 'node:path';
import { app, BrowserWindow, Menu, screen, session } from 'electron';
import { EmbeddedSandbox } from '../host/sandbox.js';
import { EngineService } from '../sync/service/index.js';
import { useSystemProxyResolver } from '../sync/api/network.js';
import { startUnreadBadge } from './badge.js';
import { DesktopSettingsStore, handleDesktopSettings } from './desktop-settings.js';
import { CHANNELS } from './ipc-channels.js';
import { startDesktopNotifications } from './notify.js';
import { startUnreadDisplay } from './tray.js';
import { LINK_SCHEME, linkFromArgv, parseLink, type AppLink } from './links.js';
import { linkDepsOf, openLink } from './open-link.js';
import { applySpellCheck, attachContextMenu } from './spellcheck.js';
import { applySessionPolicy, guardWebContents, openExternalSafely } from './guards.js';
import { registerIpc } from './ipc.js';
import { handleSaveUpload } from './save-upload.js';
import { menuTemplate } from './menu.js';
import { rendererLocation } from './renderer-location.js';
import { SafeStorageSecretStore } from './secrets.js';
import { handleUploads, registerUploadScheme } from './uploads.js';
import { handleUpdates, startUpdater, type Updater } from './updater.js';
import { CONTENT_SECURITY_POLICY, secureWebPreferences } from './window-options.js';
import { loadWindowState, MIN_SIZE, trackWindowState } from './window-state.js';

/** How long quitting waits for the engine to close (databases, the sandbox) before giving up. */
const CLOSE_TIMEOUT_MS = 5_000;

const log = (line: string) => console.warn(line);

export function startApp(argv: readonly string[] = process.argv): void {
  // A second launch hands over to the first (its window comes to the front) and exits.
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  // Privileged schemes must be registered before `ready`.
  registerUploadScheme();
  // zulip:// links open this app (installers register it too: electron-builder.yml `protocols`).
  if (!app.setAsDefaultProtocolClient(LINK_SCHEME)) log(`could not register the ${LINK_SCHEME}: scheme`);
  const openSandbox = argv.includes('--sandbox');
  // The build output under the app's root (the repository in development, app.asar when packaged);
  // not import.meta.dirname, which moves if the bundler puts this module in a chunk.
  const out = join(app.getAppPath(), 'out');
  const location = rendererLocation({
    indexFile: join(out, 'renderer', 'index.html'),
    devUrl: process.env.ELECTRON_RENDERER_URL,
    packaged: app.isPackaged,
  });
  let win: BrowserWindow | undefined;
  let service: EngineService | undefined;
  let shutdown: (() => Promise<void>) | undefined;
  let closed = false;
  /** Set once the user asked to quit: the window closes for real then, even with close to tray. */
  let quitting = false;
  let settings: DesktopSettingsStore | undefined;
  let unread: ReturnType<typeof startUnreadDisplay> | undefined;
  let updater: Updater | undefined;

  // Quitting (and "Restart to update") waits once for the engine: the outbox and databases close cleanly.
  let closing: Promise<void> | undefined;
  const closeEngine = (): Promise<void> =>
    (closing ??= (shutdown ? withTimeout(shutdown(), CLOSE_TIMEOUT_MS) : Promise.resolve())
      .catch((e: unknown) => log(`closing the engine: ${String(e)}`))
      .finally(() => {
        closed = true;
      }));

  // Every webContents Electron creates, ours or not, gets the locks before it loads anything.
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, location.isOwn));

  /** Bring the window to the front (from the tray too), opening it again if it was closed. */
  const showWindow = () => {
    if (!service) return;
    if (!win || win.isDestroyed()) {
      win = createWindow();
      return;
    }
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  };

  /** A link from the OS waits for the engine (the account opened) and for the page to listen. */
  let openAppLink: ((link: AppLink) => void) | undefined;
  let pageReady = false;
  let pendingLink: AppLink | null = linkFromArgv(argv);
  const flushLink = () => {
    if (!openAppLink || !pageReady || !pendingLink) return;
    const link = pendingLink;
    pendingLink = null;
    openAppLink(link);
  };
  const takeLink = (link: AppLink | null) => {
    if (!link) return;
    pendingLink = link;
    // The window comes to the front (opened again if it was closed: the link waits for its page).
    showWindow();
    flushLink();
  };

  // Windows and Linux: a second launch (a link clicked elsewhere) hands its argv over and exits.
  app.on('second-instance', (_event, otherArgv) => {
    if (win && !win.isDestroyed()) showWindow();
    takeLink(linkFromArgv(otherArgv));
  });
  // macOS: links come as open-url, possibly before `ready`.
  app.on('open-url', (event, url) => {
    event.preventDefault();
    const link = parseLink(url);
    if (link) takeLink(link);
    else log('open-url: not a link the app opens');
  });

  const createWindow = (): BrowserWindow => {
    const stateFile = join(app.getPath('userData'), 'window-state.json');
    const state = loadWindowState(stateFile, screen.getAllDisplays().map((d) => d.workArea), screen.getPrimaryDisplay().workArea);
    const w = new BrowserWindow({
      ...state.bounds,
      minWidth: MIN_SIZE.width,
      minHeight: MIN_SIZE.height,
      show: false,
      title: app.getName(),
      webPreferences: secureWebPreferences(join(out, 'preload', 'index.cjs')),
    });
    if (state.maximized) w.maximize();
    trackWindowState(w, stateFile);
    attachContextMenu(w, session.defaultSession);
    unread?.attach(w);
    // Close to tray: the window hides; the engine keeps syncing and sending (Quit quits).
    w.on('close', (e) => {
      if (quitting || !settings?.get().close_to_tray) return;
      e.preventDefault();
      w.hide();
    });
    w.once('ready-to-show', () => {
      w.show();
      pageReady = true;
      flushLink();
      updater?.windowShown();
    });
    w.on('closed', () => {
      if (win !== w) return;
      win = undefined;
      pageReady = false;
    });
    const t = location.target;
    const loading = 'file' in t ? w.loadFile(t.file) : w.loadURL(t.url);
    loading.catch((e: unknown) => log(`could not load the renderer: ${String(e)}`));
    return w;
  };

  void app.whenReady().then(() => {
    applySessionPolicy(session.defaultSession, CONTENT_SECURITY_POLICY, location.isOwn);
    Menu.setApplicationMenu(
      Menu.buildFromTemplate(menuTemplate({ isMac: process.platform === 'darwin', isPackaged: app.isPackaged, appName: app.getName(), openExternal: openExternalSafely })),
    );
    // "System proxy" asks the operating system's settings through Chromium, as zulip-desktop does.
    useSystemProxyResolver((url) => session.defaultSession.resolveProxy(url));
    const userData = app.getPath('userData');
    const svc = new EngineService({
      dataDir: join(userData, 'accounts'),
      // Created after `ready`: on Linux safeStorage knows its backend only then.
      secrets: new SafeStorageSecretStore(join(userData, 'keys.json')),
      sandbox: new EmbeddedSandbox({ dataDir: join(userData, 'sandbox') }),
    });
    service = svc;
    const disposeIpc = registerIpc({ service: svc, window: () => win, isOwnUrl: location.isOwn, log });
    const t = location.target;
    const disposeSave = handleSaveUpload({ upload: (p) => svc.upload(p, true), window: () => win, isOwnUrl: location.isOwn, log });
    const disposeUploads = handleUploads({ upload: (p) => svc.upload(p), staged: (f) => svc.stagedUpload(f), devOrigin: 'url' in t ? new URL(t.url).origin : undefined });
    const desktop = new DesktopSettingsStore(join(userData, 'desktop-settings.json'), process.platform, log);
    settings = desktop;
    const ses = session.defaultSession;
    const updates = startUpdater({
      feedUrl: () => desktop.get().update_feed_url,
      // Quitting from here on (close to tray must not keep the window), the engine closed first.
      beforeInstall: () => {
        quitting = true;
        return closeEngine();
      },
      publish: (s) => {
        if (win && !win.isDestroyed()) win.webContents.send(CHANNELS.updateStatus, s);
      },
      log,
      // The harness's and tests' own switch: checks from an unpackaged app (ignored when packaged).
      devChecks: process.env['ZULIP_UPDATER_DEV'] === '1',
    });
    updater = updates;
    const disposeUpdates = handleUpdates(updates, { window: () => win, isOwnUrl: location.isOwn, log });
    const disposeSettings = handleDesktopSettings(desktop, { window: () => win, isOwnUrl: location.isOwn, log, spellCheckerLanguages: () => ses.availableSpellCheckerLanguages });
    applySpellCheck(ses, desktop.get());
    desktop.onChange((now, before) => {
      if (now.start_at_login !== before.start_at_login) app.setLoginItemSettings({ openAtLogin: now.start_at_login });
      if (now.spellcheck !== before.spellcheck || now.spellcheck_languages.join() !== before.spellcheck_languages.join()) applySpellCheck(ses, now);
      if (now.update_feed_url !== before.update_feed_url) updates.feedChanged();
    });
    const display = startUnreadDisplay({ window: () => win, show: showWindow, quit: () => app.quit() });
    unread = display;
    const badge = startUnreadBadge({ service: svc, setBadgeCount: (n) => display.show(n), log });
    /** Bring the window forward and ask the page to open `target` (IPC_OPEN). */
    const openInPage = (target: unknown) => {
      showWindow();
      win?.webContents.send(CHANNELS.open, target);
    };
    const linkClient = svc.connect(() => undefined);
    // A notification of an organisation not shown shows it first (the page remounts on it).
    const openFrom = (target: unknown, accountId: string | undefined) => {
      if (accountId === undefined || svc.activeSession === svc.sessionOf(accountId)) return openInPage(target);
      showWindow();
      void linkClient.invoke('switchAccount', { id: accountId }).then(() => openInPage(target));
    };
    const notifications = startDesktopNotifications({ service: svc, window: () => win, doNotDisturb: () => desktop.get().do_not_disturb, open: openFrom });
    const links = linkDepsOf(linkClient, openInPage);
    shutdown = async () => {
      badge.close();
      notifications.close();
      linkClient.close();
      display.close();
      updates.close();
      disposeUpdates();
      disposeSettings();
      disposeIpc();
      disposeSave();
      disposeUploads();
      await svc.close();
    };
    win = createWindow();
    openAccount(svc, openSandbox)
      .catch((e: unknown) => log(`opening the account: ${String(e)}`))
      .finally(() => {
        openAppLink = (link) => void openLink(link, links).catch((e: unknown) => log(`opening a link: ${String(e)}`));
        flushLink();
      });
  });

  app.on('activate', () => {
    // macOS: clicking the dock icon with no window open (or hidden) brings it back.
    showWindow();
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  // Quit waits once for the engine, then quits for real.
  app.on('before-quit', (event) => {
    quitting = true;
    if (closed || !shutdown) return;
    event.preventDefault();
    void closeEngine().then(() => app.quit());
  });
}

/** `--sandbox` opens the embedded sandbox; otherwise the account open last time, if any. */
async function openAccount(svc: EngineService, sandbox: boolean): Promise<void> {
  if (!sandbox) {
    await svc.restore();
    return;
  }
  const client = svc.connect(() => undefined);
  try {
    const r = await client.invoke('openSandbox', {});
    if (!r.ok) log(`could not open the sandbox: ${r.error.message}`);
  } finally {
    client.close();
  }
}

function withTimeout(p: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`still closing after ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
