/**
 * The `electron` module the harness gives the built main bundle: the parts main/ uses, over
 * Playwright's Chromium. A BrowserWindow is a page of one browser context (the default session);
 * its preload runs as an init script (preload.ts) whose `ipcRenderer` crosses to `ipcMain` through
 * `page.exposeBinding`; every request of the page goes through one route that plays Electron's
 * network stack: `protocol.handle` handlers (zulip-upload:), file:// from disk, the session's
 * `webRequest.onHeadersReceived` on every response, `will-navigate` / `will-frame-navigate` and the
 * window-open handler before a navigation or a popup. What the platform would show (notifications,
 * tray, menus, badge, login items, dialogs, the system browser, protocol registration, spell-check
 * calls) is recorded in `records` for tests, and tests play the user's and the OS's part (`click()`
 * on a notification, `clickItem()` on a tray or context menu, `app.emit('second-instance' | 'open-url')`,
 * `webContents.emit('context-menu', ...)` with Chromium's spell-check answer, which this Chromium
 * has no spell checker to give).
 *
 * Each class implements the part of Electron's real type it stands in for (`Pick<Electron.X, ...>`),
 * so a signature main/ relies on cannot drift from Electron's. What this cannot prove is in the
 * README ("The Electron harness").
 */
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BrowserContext, Frame, Page, Route } from '@playwright/test';
import { netRequest } from './net.js';
import { RecordedNotification, RecordedTray } from './recorders.js';
import { preloadInitScript, type WireValue } from './preload.js';
import { seal, unseal } from './seal.js';

type Rect = Electron.Rectangle;

/** A cancellable event as Electron passes it to listeners. */
function cancellable<P extends object>(params: P): P & { preventDefault(): void; readonly defaultPrevented: boolean } {
  let prevented = false;
  return Object.defineProperties(params as P & { preventDefault(): void; readonly defaultPrevented: boolean }, {
    preventDefault: { value: () => void (prevented = true) },
    defaultPrevented: { get: () => prevented },
  });
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
};

export interface StandInOptions {
  readonly context: BrowserContext;
  /** `app.getAppPath()`: the directory holding `out/`. */
  readonly appPath: string;
  readonly userData: string;
  /** What `process.platform`-dependent calls (app.dock) look like; the bundle reads the real one. */
  readonly platform?: NodeJS.Platform;
  readonly log?: (line: string) => void;
}

export interface MenuItemRecord {
  readonly label?: string | undefined;
  readonly role?: string | undefined;
  readonly type?: string | undefined;
  readonly enabled?: boolean | undefined;
  readonly click?: Electron.MenuItemConstructorOptions['click'];
  readonly submenu?: MenuItemRecord[] | undefined;
}

export type StandIn = ReturnType<typeof createStandIn>;

export function createStandIn(opts: StandInOptions) {
  const log = opts.log ?? (() => undefined);
  let nextId = 1;

  const records = {
    /** Every Notification constructed, in order (shown or not: see `.shown`). */
    notifications: [] as StandInNotification[],
    trays: [] as StandInTray[],
    applicationMenu: undefined as StandInMenu | null | undefined,
    badgeCounts: [] as number[],
    dockBadges: [] as string[],
    loginItems: [] as Electron.Settings[],
    openedExternally: [] as string[],
    saveDialogs: [] as Electron.SaveDialogOptions[],
    privilegedSchemes: [] as Electron.CustomScheme[],
    /** `app.setAsDefaultProtocolClient` schemes. */
    protocolClients: [] as string[],
    /** Context menus popped up, in order (`clickItem()` picks from one). */
    contextMenus: [] as StandInMenu[],
    /** The session's spell checker: on/off and languages as set, words added to the dictionary. */
    spellChecker: { enabled: [] as boolean[], languages: [] as string[][], added: [] as string[] },
    /** Events main's updater emitted on Electron's own `autoUpdater` (`before-quit-for-update`), with the IPC handlers main still had then. */
    autoUpdater: [] as Array<{ event: string; ipcHandlers: string[] }>,
    /** Sessions asked for by partition (`session.fromPartition`: electron-updater's). */
    partitions: [] as string[],
    /** The headers each response reached the page with, after the session's hook (by URL). */
    responses: new Map<string, Record<string, string>>(),
    /** URLs the session was asked the system proxy for (`resolveProxy`; answered DIRECT, as with no proxy configured). */
    resolvedProxies: [] as string[],
  };

  // ---- app ---------------------------------------------------------------------------------

  class StandInApp
    extends EventEmitter
    implements
      Pick<
        Electron.App,
        'isPackaged' | 'requestSingleInstanceLock' | 'whenReady' | 'getPath' | 'getName' | 'getVersion' | 'getAppPath' | 'setBadgeCount' | 'getBadgeCount' | 'setLoginItemSettings' | 'quit' | 'isReady' | 'setAsDefaultProtocolClient'
      >
  {
    isPackaged = false;
    badge = 0;
    loginItem: Electron.LoginItemSettings = { openAtLogin: false, wasOpenedAtLogin: false, status: 'not-registered', executableWillLaunchAtLogin: false, launchItems: [] };
    /** Set once `quit` went through (nothing prevented it): the process would exit now. */
    quitted = false;
    /** While `quit` closes the windows (Electron sends no `window-all-closed` then). */
    closingForQuit = false;
    private ready = false;
    private readonly readyPromise: Promise<void>;
    /** Electron is ready once the main script's first turn is over: launch.ts calls this then. */
    readonly becomeReady: () => void;
    readonly dock: Pick<Electron.Dock, 'setBadge' | 'getBadge'> | undefined =
      opts.platform === 'darwin' ? { setBadge: (text: string) => void records.dockBadges.push(text), getBadge: () => records.dockBadges.at(-1) ?? '' } : undefined;
    constructor() {
      super();
      let resolve: () => void = () => undefined;
      this.readyPromise = new Promise((r) => (resolve = r));
      this.becomeReady = () => {
        if (this.ready) return;
        this.ready = true;
        this.emit('ready', {}, {});
        resolve();
      };
    }
    requestSingleInstanceLock() {
      return true;
    }
    whenReady() {
      return this.readyPromise;
    }
    isReady() {
      return this.ready;
    }
    getPath(name: Parameters<Electron.App['getPath']>[0]) {
      if (name === 'userData') return opts.userData;
      if (name === 'temp') return path.join(opts.userData, 'tmp');
      throw new Error(`the harness has no app.getPath('${name}')`);
    }
    getName() {
      return 'Zulip Offline';
    }
    /** Electron answers the app's package.json version. */
    getVersion(): string {
      return (JSON.parse(readFileSync(path.join(opts.appPath, 'package.json'), 'utf8')) as { version: string }).version;
    }
    getAppPath() {
      return opts.appPath;
    }
    setBadgeCount(count?: number) {
      this.badge = count ?? 0;
      records.badgeCounts.push(this.badge);
      return true;
    }
    getBadgeCount() {
      return this.badge;
    }
    setAsDefaultProtocolClient(protocol: string) {
      records.protocolClients.push(protocol);
      return true;
    }
    setLoginItemSettings(settings: Electron.Settings) {
      records.loginItems.push(settings);
      this.loginItem = { ...this.loginItem, openAtLogin: settings.openAtLogin ?? false };
    }
    getLoginItemSettings(): Electron.LoginItemSettings {
      return this.loginItem;
    }
    /** Electron's order: `before-quit` (cancellable), every window closed (a prevented close cancels), `will-quit`, `quit`. */
    quit() {
      if (this.quitted) return;
      if (!this.emitCancellable('before-quit')) return;
      this.closingForQuit = true;
      try {
        for (const w of [...windows]) {
          w.close();
          if (!w.isDestroyed()) return;
        }
      } finally {
        this.closingForQuit = false;
      }
      if (!this.emitCancellable('will-quit')) return;
      this.quitted = true;
      this.emit('quit', {}, 0);
    }
    private emitCancellable(name: string): boolean {
      const e = cancellable({});
      this.emit(name, e);
      return !e.defaultPrevented;
    }
  }
  const app = new StandInApp();

  // ---- windows -----------------------------------------------------------------------------

  const windows = new Set<StandInWindow>();
  /** Pages the app's pages opened (window.open, target=_blank): closed once the handler decided. */
  const popups = new Set<Page>();
  const frameIds = new WeakMap<Frame, number>();

  /** What `event.senderFrame` / `webContents.mainFrame` look like (the fields main/ reads). */
  class StandInFrame implements Pick<Electron.WebFrameMain, 'frameTreeNodeId' | 'url' | 'detached'> {
    constructor(
      private readonly frame: () => Frame | undefined,
      readonly frameTreeNodeId: number,
      readonly parent: StandInFrame | null,
    ) {}
    get url() {
      return this.frame()?.url() ?? '';
    }
    get detached() {
      return this.frame()?.isDetached() ?? true;
    }
  }

  class StandInWebContents extends EventEmitter implements Pick<Electron.WebContents, 'id' | 'setWindowOpenHandler' | 'send' | 'isDestroyed' | 'getURL' | 'focus' | 'replaceMisspelling'> {
    readonly id = nextId++;
    page: Page | undefined;
    readonly mainFrame = new StandInFrame(() => this.page?.mainFrame(), nextId++, null);
    openHandler: Parameters<Electron.WebContents['setWindowOpenHandler']>[0] | undefined;
    private destroyed = false;
    private sending: Promise<unknown> = Promise.resolve();
    setWindowOpenHandler(handler: Parameters<Electron.WebContents['setWindowOpenHandler']>[0]) {
      this.openHandler = handler;
    }
    /** Delivered to the preload's `ipcRenderer.on` listeners in order, as Electron's IPC does. */
    send(channel: string, ...args: unknown[]) {
      const page = this.page;
      if (!page || this.destroyed) return;
      this.sending = this.sending.then(() =>
        page.evaluate(([c, a]) => (globalThis as unknown as { __zohDispatch?: (c: string, a: unknown[]) => void }).__zohDispatch?.(c, a), [channel, args] as const).catch((e: unknown) => log(`webContents.send(${channel}): ${String(e)}`)),
      );
    }
    isDestroyed() {
      return this.destroyed;
    }
    getURL() {
      return this.page?.url() ?? '';
    }
    /** Chromium replaces the misspelled word, which a right-click selected: here, the selection. */
    replaceMisspelling(text: string) {
      void this.page?.keyboard.insertText(text).catch((e: unknown) => log(`replaceMisspelling: ${String(e)}`));
    }
    focus() {
      void this.page?.bringToFront();
    }
    frameOf(frame: Frame): StandInFrame {
      if (frame === frame.page().mainFrame()) return this.mainFrame;
      let id = frameIds.get(frame);
      if (id === undefined) frameIds.set(frame, (id = nextId++));
      return new StandInFrame(() => frame, id, this.mainFrame);
    }
    destroy() {
      if (this.destroyed) return;
      this.destroyed = true;
      this.emit('destroyed');
    }
  }

  /** Electron's WebContents as main/ receives it; the stand-in implements the part main/ uses. */
  const asWebContents = (c: StandInWebContents) => c as unknown as Electron.WebContents;

  class StandInWindow
    extends EventEmitter
    implements
      Pick<
        Electron.BrowserWindow,
        'loadFile' | 'loadURL' | 'show' | 'hide' | 'focus' | 'blur' | 'isFocused' | 'isVisible' | 'isMinimized' | 'restore' | 'maximize' | 'isMaximized' | 'isDestroyed' | 'getNormalBounds' | 'setProgressBar' | 'setOverlayIcon' | 'setTitle' | 'getTitle' | 'close' | 'destroy' | 'id'
      >
  {
    readonly id = nextId++;
    readonly webContents = new StandInWebContents();
    /** The page this window shows, once `loadFile`/`loadURL` opened it. */
    readonly ready: Promise<Page>;
    title: string;
    visible = false;
    focused = false;
    minimized = false;
    maximized = false;
    readonly progress: number[] = [];
    /** The Windows taskbar overlay: the image given (null when cleared) and its description. */
    overlay: { image: StandInImage | null; description: string } | undefined;
    private destroyed = false;
    private readonly bounds: Rect;
    /** The URL the next navigation goes to on main's own behalf (a load), not the page's. */
    loading: string | undefined;
    constructor(readonly options: Electron.BrowserWindowConstructorOptions = {}) {
      super();
      this.title = options.title ?? app.getName();
      this.bounds = { x: options.x ?? 0, y: options.y ?? 0, width: options.width ?? 800, height: options.height ?? 600 };
      windows.add(this);
      app.emit('web-contents-created', {}, asWebContents(this.webContents));
      this.ready = this.open();
      this.ready.catch((e: unknown) => log(`opening a window: ${String(e)}`));
    }
    private async open(): Promise<Page> {
      const page = await opts.context.newPage();
      await page.setViewportSize({ width: this.bounds.width, height: this.bounds.height });
      this.webContents.page = page;
      const preload = this.options.webPreferences?.preload;
      await page.exposeBinding('__zohIpc', (source, kind: 'invoke' | 'send', channel: string, args: WireValue[]) => this.ipc(source.frame, kind, channel, args));
      if (preload !== undefined) await page.addInitScript({ content: preloadInitScript(await readFile(preload, 'utf8')) });
      page.on('close', () => this.destroy());
      page.on('popup', (p) => void popups.add(p));
      page.on('load', () => {
        if (this.visible) return;
        this.emit('ready-to-show', {});
      });
      return page;
    }
    async loadFile(file: string, o: Electron.LoadFileOptions = {}) {
      const url = pathToFileURL(file);
      if (o.hash !== undefined) url.hash = o.hash;
      await this.loadURL(url.href);
    }
    async loadURL(url: string) {
      const page = await this.ready;
      // The session's permission check decides what the page may use (only notifications exist here).
      if (permissionCheck('notifications', url)) await opts.context.grantPermissions(['notifications']);
      else await opts.context.clearPermissions();
      this.loading = url;
      await page.goto(url);
    }
    show() {
      const wasVisible = this.visible;
      this.visible = true;
      this.minimized = false;
      if (!wasVisible) this.emit('show', {});
      this.focus();
    }
    hide() {
      if (!this.visible) return;
      this.visible = false;
      this.blur();
      this.emit('hide', {});
    }
    focus() {
      if (this.focused) return;
      this.focused = true;
      this.emit('focus', {});
    }
    /** The user switched to another app (or the window was hidden). */
    blur() {
      if (!this.focused) return;
      this.focused = false;
      this.emit('blur', {});
    }
    isFocused() {
      return this.focused && this.visible;
    }
    isVisible() {
      return this.visible;
    }
    isMinimized() {
      return this.minimized;
    }
    restore() {
      this.minimized = false;
    }
    maximize() {
      this.maximized = true;
    }
    isMaximized() {
      return this.maximized;
    }
    isDestroyed() {
      return this.destroyed;
    }
    getNormalBounds() {
      return { ...this.bounds };
    }
    setProgressBar(progress: number) {
      this.progress.push(progress);
    }
    setOverlayIcon(overlay: Electron.NativeImage | null, description: string) {
      this.overlay = { image: overlay as StandInImage | null, description };
    }
    setTitle(title: string) {
      this.title = title;
    }
    getTitle() {
      return this.title;
    }
    /** The user (or main) closes the window: `close` may be prevented; otherwise it is gone. */
    close() {
      if (this.destroyed) return;
      const e = cancellable({});
      this.emit('close', e);
      if (!e.defaultPrevented) this.destroy();
    }
    destroy() {
      if (this.destroyed) return;
      this.destroyed = true;
      this.visible = false;
      windows.delete(this);
      this.webContents.destroy();
      void this.webContents.page?.close().catch(() => undefined);
      this.emit('closed');
      if (windows.size === 0 && !app.quitted && !app.closingForQuit) app.emit('window-all-closed', {});
    }

    private async ipc(frame: Frame, kind: 'invoke' | 'send', channel: string, args: WireValue[]): Promise<WireValue> {
      const event = { sender: asWebContents(this.webContents), senderFrame: this.webContents.frameOf(frame), processId: 1, frameId: 1 };
      const values = args.map(fromWire);
      if (kind === 'send') {
        ipcMain.emit(channel, event, ...values);
        return null;
      }
      const handler = ipcMain.handlers.get(channel);
      if (!handler) throw new Error(`Error invoking remote method '${channel}': No handler registered for '${channel}'`);
      return toWire(await handler(event as unknown as Electron.IpcMainInvokeEvent, ...values));
    }
  }

  /** Electron's network stack for every page of the session, in one route (see the file's comment). */
  async function routeRequest(route: Route): Promise<void> {
    const request = route.request();
    const url = request.url();
    // Playwright has no frame yet for a popup's first navigation (nor for a worker's request).
    let frame: Frame | undefined;
    try {
      frame = request.frame();
    } catch {
      frame = undefined;
    }
    const page = frame?.page();
    const all = [...windows];
    const win = all.find((w) => page !== undefined && w.webContents.page === page);
    if (!win || !frame || !page) {
      if (!request.isNavigationRequest()) return route.abort('failed');
      // A popup (window.open, target=_blank): its opener's window-open handler decides. The
      // harness opens no child windows: one allowed is logged, and the popup closed either way.
      const opener = page ? await page.opener() : null;
      const owner = all.find((w) => w.webContents.page === opener) ?? all[0];
      const answer = owner?.webContents.openHandler?.({ url, frameName: '', features: '', disposition: 'new-window', referrer: { url: '', policy: 'default' } });
      if (answer?.action === 'allow') log(`the harness opens no child windows (${url})`);
      await route.abort('aborted');
      for (const p of popups) void p.close().catch(() => undefined);
      popups.clear();
      return;
    }
    if (request.isNavigationRequest()) {
      const own = win.loading === url;
      win.loading = undefined;
      const isMainFrame = frame === page.mainFrame();
      if (!own) {
        const e = cancellable({ url, isMainFrame, isSameDocument: false, frame: win.webContents.frameOf(frame) });
        win.webContents.emit(isMainFrame ? 'will-navigate' : 'will-frame-navigate', e);
        if (e.defaultPrevented) return route.abort('aborted');
      }
      if (isMainFrame) win.webContents.emit('did-start-navigation', cancellable({ url, isMainFrame, isSameDocument: false }));
    }
    let answer: { status: number; headers: Record<string, string>; body: Buffer };
    try {
      answer = await load(url, request.method(), frame.url());
    } catch (e) {
      log(`${url}: ${String(e)}`);
      return route.abort('failed');
    }
    const headers = await applyHeaderHooks(url, request.method(), request.resourceType(), answer.status, answer.headers);
    if (headers === 'cancel') return route.abort('blockedbyclient');
    records.responses.set(url, headers);
    await route.fulfill({ status: answer.status, headers, body: answer.body });
  }

  async function load(url: string, method: string, initiatorUrl: string) {
    const scheme = new URL(url).protocol.slice(0, -1);
    const handler = protocolHandlers.get(scheme);
    if (handler) {
      // Electron adds where the request came from; main/uploads.ts checks it.
      const request = Object.assign(new Request(url, { method }), { initiatorOrigin: originOf(initiatorUrl) });
      const res = await handler(request);
      return { status: res.status, headers: Object.fromEntries(res.headers), body: Buffer.from(await res.arrayBuffer()) };
    }
    if (scheme === 'file') {
      const file = fileURLToPath(url);
      const body = await readFile(file).catch(() => undefined);
      if (!body) return { status: 404, headers: { 'content-type': 'text/plain' }, body: Buffer.from('not found') };
      // A module script from a file:// page is a CORS request of origin null (Electron lets it through).
      return { status: 200, headers: { 'content-type': MIME[path.extname(file)] ?? 'application/octet-stream', 'access-control-allow-origin': '*' }, body };
    }
    if (scheme === 'http' || scheme === 'https') {
      const res = await fetch(url, { method });
      return { status: res.status, headers: Object.fromEntries(res.headers), body: Buffer.from(await res.arrayBuffer()) };
    }
    throw new Error(`net::ERR_UNKNOWN_URL_SCHEME (${scheme}:)`);
  }

  const originOf = (url: string): string => {
    try {
      return new URL(url).origin;
    } catch {
      return 'null';
    }
  };

  // ---- ipc, protocol, session ---------------------------------------------------------------

  class StandInIpcMain extends EventEmitter implements Pick<Electron.IpcMain, 'handle' | 'removeHandler'> {
    readonly handlers = new Map<string, (event: Electron.IpcMainInvokeEvent, ...args: unknown[]) => unknown>();
    handle(channel: string, listener: (event: Electron.IpcMainInvokeEvent, ...args: unknown[]) => unknown) {
      if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
      this.handlers.set(channel, listener);
    }
    removeHandler(channel: string) {
      this.handlers.delete(channel);
    }
  }
  const ipcMain = new StandInIpcMain();

  type ProtocolHandler = (request: Request) => Response | Promise<Response>;
  const protocolHandlers = new Map<string, ProtocolHandler>();
  const protocol: Pick<Electron.Protocol, 'registerSchemesAsPrivileged' | 'handle' | 'unhandle' | 'isProtocolHandled'> = {
    registerSchemesAsPrivileged: (schemes) => {
      if (app.isReady()) throw new Error('protocol.registerSchemesAsPrivileged should be called before app is ready');
      records.privilegedSchemes.push(...schemes);
    },
    handle: (scheme, handler) => {
      if (protocolHandlers.has(scheme)) throw new Error(`The scheme has been registered: ${scheme}`);
      protocolHandlers.set(scheme, handler as ProtocolHandler);
    },
    unhandle: (scheme) => void protocolHandlers.delete(scheme),
    isProtocolHandled: (scheme) => protocolHandlers.has(scheme),
  };

  type HeadersListener = (details: Electron.OnHeadersReceivedListenerDetails, callback: (response: Electron.HeadersReceivedResponse) => void) => void;
  type PermissionRequest = Parameters<Electron.Session['setPermissionRequestHandler']>[0];
  type PermissionCheck = Parameters<Electron.Session['setPermissionCheckHandler']>[0];
  const sessionHooks: { headers?: HeadersListener | undefined; permissionRequest?: PermissionRequest; permissionCheck?: PermissionCheck } = {};

  async function applyHeaderHooks(url: string, method: string, resourceType: string, statusCode: number, headers: Record<string, string>): Promise<Record<string, string> | 'cancel'> {
    const hook = sessionHooks.headers;
    if (!hook) return headers;
    const responseHeaders = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]]));
    const details = { id: nextId++, url, method, resourceType, timestamp: Date.now(), statusLine: `HTTP/1.1 ${statusCode}`, statusCode, responseHeaders, referrer: '' };
    const answer = await new Promise<Electron.HeadersReceivedResponse>((resolve) => hook(details as unknown as Electron.OnHeadersReceivedListenerDetails, resolve));
    if (answer.cancel === true) return 'cancel';
    if (!answer.responseHeaders) return headers;
    return Object.fromEntries(Object.entries(answer.responseHeaders).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]));
  }

  const defaultSession = {
    webRequest: { onHeadersReceived: (listener: HeadersListener | null) => void (sessionHooks.headers = listener ?? undefined) },
    setPermissionRequestHandler: (h: PermissionRequest) => void (sessionHooks.permissionRequest = h),
    setPermissionCheckHandler: (h: PermissionCheck) => void (sessionHooks.permissionCheck = h),
    setDevicePermissionHandler: () => undefined,
    /** Chromium's Hunspell dictionaries as Electron lists them on Linux (a few). */
    availableSpellCheckerLanguages: ['de', 'en-GB', 'en-US', 'fr'],
    setSpellCheckerEnabled: (on: boolean) => void records.spellChecker.enabled.push(on),
    setSpellCheckerLanguages: (languages: string[]) => {
      const unknown = languages.filter((l) => !defaultSession.availableSpellCheckerLanguages.includes(l));
      if (unknown.length > 0) throw new Error(`Invalid language code provided: "${unknown[0]}" is not a valid language code`);
      records.spellChecker.languages.push([...languages]);
    },
    addWordToSpellCheckerDictionary: (word: string) => {
      records.spellChecker.added.push(word);
      return true;
    },
    resolveProxy: (url: string) => {
      records.resolvedProxies.push(url);
      return Promise.resolve('DIRECT');
    },
  };
  const session = {
    defaultSession,
    fromPartition: (partition: string) => {
      records.partitions.push(partition);
      return defaultSession;
    },
  };
  const net: Pick<Electron.Net, 'request'> = { request: (options) => netRequest(options) as unknown as Electron.ClientRequest };

  /** Electron's own (Squirrel) autoUpdater: electron-updater emits `before-quit-for-update` on it when it installs. */
  class StandInAutoUpdater extends EventEmitter {
    override emit(event: string, ...args: unknown[]): boolean {
      records.autoUpdater.push({ event, ipcHandlers: [...ipcMain.handlers.keys()] });
      return super.emit(event, ...args);
    }
  }
  const autoUpdater = new StandInAutoUpdater();

  /** What the session's permission check answers for `permission` asked by a page at `url`. */
  const permissionCheck = (permission: string, url: string): boolean => sessionHooks.permissionCheck?.(null, permission as never, originOf(url), { requestingUrl: url, isMainFrame: true, embeddingOrigin: '', securityOrigin: originOf(url) } as never) ?? true;

  // ---- what the platform shows ------------------------------------------------------------

  class StandInImage implements Pick<Electron.NativeImage, 'isEmpty' | 'getSize'> {
    constructor(
      readonly source: { path: string } | { bitmap: Buffer; width: number; height: number } | null,
    ) {}
    isEmpty() {
      return this.source === null;
    }
    getSize() {
      return this.source && 'width' in this.source ? { width: this.source.width, height: this.source.height } : { width: 0, height: 0 };
    }
  }
  const nativeImage: Pick<typeof Electron.nativeImage, 'createFromPath' | 'createFromBitmap' | 'createEmpty'> = {
    createFromPath: (p) => new StandInImage({ path: p }) as unknown as Electron.NativeImage,
    createFromBitmap: (bitmap, o) => {
      if (bitmap.length !== o.width * o.height * 4) throw new Error('Invalid buffer size');
      return new StandInImage({ bitmap, width: o.width, height: o.height }) as unknown as Electron.NativeImage;
    },
    createEmpty: () => new StandInImage(null) as unknown as Electron.NativeImage,
  };

  class StandInNotification extends RecordedNotification {
    static isSupported() {
      return true;
    }
    constructor(options: Electron.NotificationConstructorOptions = {}) {
      super(options);
      records.notifications.push(this);
    }
  }

  class StandInMenu implements Pick<Electron.Menu, 'items' | 'popup'> {
    readonly template: MenuItemRecord[];
    constructor(template: Array<Electron.MenuItemConstructorOptions | Electron.MenuItem>) {
      this.template = template.map(toRecord);
    }
    get items(): Electron.MenuItem[] {
      return this.template as unknown as Electron.MenuItem[];
    }
    static buildFromTemplate(template: Array<Electron.MenuItemConstructorOptions | Electron.MenuItem>) {
      return new StandInMenu(template);
    }
    static setApplicationMenu(menu: StandInMenu | null) {
      records.applicationMenu = menu;
    }
    popup() {
      records.contextMenus.push(this);
    }
    /** The user picks the item labelled `label` (anywhere in the menu). */
    clickItem(label: string) {
      const find = (items: readonly MenuItemRecord[]): MenuItemRecord | undefined => {
        for (const i of items) {
          if (i.label === label) return i;
          const sub = i.submenu && find(i.submenu);
          if (sub) return sub;
        }
        return undefined;
      };
      const item = find(this.template);
      if (!item) throw new Error(`no menu item "${label}" in ${JSON.stringify(this.labels())}`);
      if (item.enabled === false) throw new Error(`menu item "${label}" is disabled`);
      item.click?.(item as unknown as Electron.MenuItem, undefined, {} as Electron.KeyboardEvent);
    }
    labels(): string[] {
      return this.template.flatMap((i) => (i.label === undefined ? [] : [i.label]));
    }
  }
  const toRecord = (i: Electron.MenuItemConstructorOptions | Electron.MenuItem): MenuItemRecord => {
    const o = i as Electron.MenuItemConstructorOptions;
    const sub = o.submenu;
    return { label: o.label, role: o.role, type: o.type, enabled: o.enabled, click: o.click, submenu: Array.isArray(sub) ? sub.map(toRecord) : sub instanceof StandInMenu ? sub.template : undefined };
  };

  class StandInTray extends RecordedTray<Electron.NativeImage | string, StandInMenu> implements Pick<Electron.Tray, 'setToolTip' | 'setTitle' | 'setImage' | 'destroy' | 'isDestroyed'> {
    constructor(image: Electron.NativeImage | string) {
      super(image);
      records.trays.push(this);
    }
  }

  const answers = { saveAs: undefined as string | undefined };
  const dialog: Pick<Electron.Dialog, 'showSaveDialog'> = {
    showSaveDialog: async (...args: [Electron.BaseWindow, Electron.SaveDialogOptions] | [Electron.SaveDialogOptions]) => {
      records.saveDialogs.push(args.length === 2 ? args[1] : args[0]);
      return answers.saveAs === undefined ? { canceled: true, filePath: '' } : { canceled: false, filePath: answers.saveAs };
    },
  };
  const shell: Pick<Electron.Shell, 'openExternal'> = {
    openExternal: async (url) => void records.openedExternally.push(url),
  };
  const safeStorage: Pick<Electron.SafeStorage, 'isEncryptionAvailable' | 'getSelectedStorageBackend' | 'encryptString' | 'decryptString'> = {
    isEncryptionAvailable: () => true,
    getSelectedStorageBackend: () => 'gnome_libsecret',
    encryptString: seal,
    decryptString: unseal,
  };
  const workArea = { x: 0, y: 0, width: 1280, height: 800 };
  const screen = { getAllDisplays: () => [{ workArea, bounds: workArea }], getPrimaryDisplay: () => ({ workArea, bounds: workArea }) };

  // BrowserWindow's statics main/ may use.
  const BrowserWindow = Object.assign(StandInWindow, { getAllWindows: () => [...windows], getFocusedWindow: () => [...windows].find((w) => w.isFocused()) ?? null });

  return {
    module: { app, autoUpdater, BrowserWindow, dialog, ipcMain, Menu: StandInMenu, nativeImage, net, Notification: StandInNotification, protocol, safeStorage, screen, session, shell, Tray: StandInTray },
    records,
    answers,
    app,
    windows: () => [...windows],
    permissionCheck,
    /** Start serving the session's pages (before the first window loads). */
    install: () => opts.context.route(() => true, (route) => routeRequest(route)),
  };
}

export type StandInWindowType = ReturnType<StandIn['windows']>[number];
export type StandInNotificationType = StandIn['records']['notifications'][number];

/** Values crossing the binding: JSON, with Uint8Array as base64 (a staged file's bytes). */
function fromWire(v: WireValue): unknown {
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && typeof v['__u8'] === 'string') return new Uint8Array(Buffer.from(v['__u8'], 'base64'));
  return v;
}
function toWire(v: unknown): WireValue {
  return v === undefined ? null : (JSON.parse(JSON.stringify(v)) as WireValue);
}
