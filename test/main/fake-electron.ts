/**
 * A hand-written stand-in for the `electron` module (no Electron binary exists here or in CI), used
 * with `vi.mock('electron', () => import('./fake-electron.js'))`. It records what main/ asks of
 * Electron (handlers, windows, menus, badge, files sealed) and lets tests play the platform's part
 * (fire navigation events, send IPC from a chosen frame, quit). `fake.reset()` between tests.
 */
import { EventEmitter } from 'node:events';
import { vi } from 'vitest';
import { netRequest } from '../electron-harness/net.js';
import { RecordedNotification, RecordedTray } from '../electron-harness/recorders.js';
import { seal, unseal } from '../electron-harness/seal.js';

type Fn = (...args: never[]) => unknown;
type Rect = { x: number; y: number; width: number; height: number };
type Backend = 'basic_text' | 'gnome_libsecret' | 'kwallet' | 'kwallet5' | 'kwallet6' | 'unknown';

let nextId = 1;

export class FakeFrame {
  readonly frameTreeNodeId = nextId++;
  detached = false;
  constructor(
    public url: string,
    readonly parent: FakeFrame | null = null,
  ) {}
}

export class FakeWebContents extends EventEmitter {
  readonly id = nextId++;
  readonly mainFrame: FakeFrame;
  readonly sent: Array<{ channel: string; payload: unknown }> = [];
  openHandler: ((d: { url: string }) => { action: string }) | undefined;
  private destroyed = false;
  constructor(url = 'about:blank') {
    super();
    this.mainFrame = new FakeFrame(url);
  }
  setWindowOpenHandler(h: (d: { url: string }) => { action: string }) {
    this.openHandler = h;
  }
  send(channel: string, payload: unknown) {
    this.sent.push({ channel, payload });
  }
  readonly replaceMisspelling = vi.fn((_word: string) => undefined);
  isDestroyed() {
    return this.destroyed;
  }
  destroy() {
    this.destroyed = true;
    this.emit('destroyed');
  }
  /** Emit a cancellable event the way Electron does; true when a listener prevented it. */
  fire(name: string, params: Record<string, unknown> = {}): boolean {
    let prevented = false;
    this.emit(name, { ...params, preventDefault: () => void (prevented = true) });
    return prevented;
  }
}

export class BrowserWindow extends EventEmitter {
  readonly webContents = new FakeWebContents();
  loaded: { file?: string; url?: string } | undefined;
  shown = false;
  focused = 0;
  minimized = false;
  maximized = false;
  private destroyed = false;
  bounds: Rect;
  constructor(readonly options: Record<string, unknown>) {
    super();
    const n = (k: string, d: number) => (typeof options[k] === 'number' ? (options[k] as number) : d);
    this.bounds = { x: n('x', 0), y: n('y', 0), width: n('width', 800), height: n('height', 600) };
    fake.windows.push(this);
    app.emit('web-contents-created', {}, this.webContents);
  }
  loadFile(file: string) {
    this.loaded = { file };
    this.webContents.mainFrame.url = `file://${file}`;
    return Promise.resolve();
  }
  loadURL(url: string) {
    this.loaded = { url };
    this.webContents.mainFrame.url = url;
    return Promise.resolve();
  }
  show() {
    this.shown = true;
  }
  hide() {
    this.shown = false;
  }
  isVisible() {
    return this.shown;
  }
  focus() {
    this.focused++;
  }
  /** Whether the user is looking at it (a test sets it). */
  hasFocus = false;
  isFocused() {
    return this.hasFocus;
  }
  title = '';
  setTitle(t: string) {
    this.title = t;
  }
  overlay: { image: FakeImage | null; description: string } | undefined;
  setOverlayIcon(image: FakeImage | null, description: string) {
    this.overlay = { image, description };
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
  /** Every value given to the taskbar's progress bar. */
  readonly progress: number[] = [];
  setProgressBar(v: number) {
    this.progress.push(v);
  }
  getNormalBounds() {
    return { ...this.bounds };
  }
  close() {
    let prevented = false;
    this.emit('close', { preventDefault: () => void (prevented = true) });
    if (prevented) return;
    this.destroyed = true;
    this.webContents.destroy();
    this.emit('closed');
  }
}

class FakeApp extends EventEmitter {
  isPackaged = false;
  version = '0.1.0';
  appPath = '/opt/zulip-offline';
  readonly relaunch = vi.fn(() => undefined);
  lock = true;
  quitting = false;
  userData = '/nonexistent';
  readonly setBadgeCount = vi.fn((_n: number) => true);
  readonly setLoginItemSettings = vi.fn((_s: { openAtLogin?: boolean }) => undefined);
  readonly setAsDefaultProtocolClient = vi.fn((_scheme: string) => true);
  requestSingleInstanceLock() {
    return this.lock;
  }
  whenReady() {
    return Promise.resolve();
  }
  getPath(name: string) {
    if (name !== 'userData') throw new Error(`fake app.getPath(${name})`);
    return this.userData;
  }
  getName() {
    return 'Zulip Offline';
  }
  getVersion() {
    return this.version;
  }
  getAppPath() {
    return this.appPath;
  }
  /** Like Electron: `before-quit` may be prevented; otherwise the windows close and the app quits. */
  quit() {
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => void (prevented = true) });
    if (prevented) return;
    // Then every window closes (a prevented close cancels the quit), as Electron does.
    for (const w of fake.windows) {
      w.close();
      if (!w.isDestroyed()) return;
    }
    this.quitting = true;
  }
}
export const app = new FakeApp();

class FakeIpcMain extends EventEmitter {
  readonly handlers = new Map<string, Fn>();
  handle(channel: string, fn: Fn) {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, fn);
  }
  removeHandler(channel: string) {
    this.handlers.delete(channel);
  }
}
export const ipcMain = new FakeIpcMain();

class FakeIpcRenderer extends EventEmitter {
  readonly invoke = vi.fn(async (_channel: string, _payload: unknown): Promise<unknown> => ({ ok: true, value: null }));
  readonly send = vi.fn((_channel: string) => undefined);
}
export const ipcRenderer = new FakeIpcRenderer();

export const contextBridge = {
  exposeInMainWorld: vi.fn((key: string, api: unknown) => void (fake.exposed[key] = api)),
};

/** The keychain stands in as a reversible scrambling (shared with the Electron harness). */
export const safeStorage = {
  isEncryptionAvailable: vi.fn(() => fake.encryption.available),
  getSelectedStorageBackend: vi.fn(() => fake.encryption.backend),
  encryptString: vi.fn(seal),
  decryptString: vi.fn(unseal),
};

/** The save dialog answers `fake.saveAs` (a path) or, when it is undefined, canceled. */
export const dialog = {
  showSaveDialog: vi.fn(async (..._args: unknown[]) => (fake.saveAs === undefined ? { canceled: true, filePath: '' } : { canceled: false, filePath: fake.saveAs })),
};

export const shell = { openExternal: vi.fn(async (_url: string) => undefined) };

/** Electron's net.request over Node's http (electron-updater's requests, to a loopback feed in tests). */
export const net = { request: vi.fn(netRequest) };

/** Electron's own autoUpdater: electron-updater emits `before-quit-for-update` on it when it installs. */
export const autoUpdater = new EventEmitter();

export const session = {
  fromPartition: vi.fn((_partition: string) => session.defaultSession),
  defaultSession: {
    webRequest: { onHeadersReceived: (f: Fn) => void (fake.session.headers = f) },
    setPermissionRequestHandler: (f: Fn) => void (fake.session.permissionRequest = f),
    setPermissionCheckHandler: (f: Fn) => void (fake.session.permissionCheck = f),
    setDevicePermissionHandler: (f: Fn) => void (fake.session.devicePermission = f),
    availableSpellCheckerLanguages: ['de', 'en-US', 'fr'],
    setSpellCheckerEnabled: vi.fn((_on: boolean) => undefined),
    setSpellCheckerLanguages: vi.fn((_languages: string[]) => undefined),
    addWordToSpellCheckerDictionary: vi.fn((_word: string) => true),
    resolveProxy: vi.fn(async (_url: string) => 'DIRECT'),
  },
};

/** Schemes registered privileged, and the handlers `protocol.handle` installed (by scheme). */
export const protocol = {
  registerSchemesAsPrivileged: vi.fn((schemes: Array<{ scheme: string; privileges?: Record<string, boolean> }>) => void fake.protocol.privileged.push(...schemes)),
  handle: vi.fn((scheme: string, handler: (request: Request) => Response | Promise<Response>) => {
    if (fake.protocol.handlers.has(scheme)) throw new Error(`second handler for ${scheme}`);
    fake.protocol.handlers.set(scheme, handler);
  }),
  unhandle: vi.fn((scheme: string) => void fake.protocol.handlers.delete(scheme)),
};

export const screen = {
  getAllDisplays: () => fake.displays.map((workArea) => ({ workArea })),
  getPrimaryDisplay: () => ({ workArea: fake.displays[0] }),
};

export const Menu = {
  buildFromTemplate: (template: unknown[]) => ({ template, popup: () => void fake.popups.push(template) }),
  setApplicationMenu: vi.fn((_menu: { template: unknown[] } | null) => undefined),
};

export class FakeImage {
  constructor(
    readonly bitmap: Buffer,
    readonly width: number,
    readonly height: number,
  ) {}
}
export const nativeImage = {
  createFromBitmap: (bitmap: Buffer, o: { width: number; height: number }) => new FakeImage(bitmap, o.width, o.height),
};

type MenuItem = { label?: string; enabled?: boolean; type?: string; click?: () => void };
export class Tray extends RecordedTray<FakeImage, { template: MenuItem[] }> {
  constructor(image: FakeImage) {
    super(image);
    fake.trays.push(this);
  }
  /** The menu's labels, and a click on one. */
  labels(): string[] {
    return (this.menu?.template ?? []).flatMap((i) => (i.label === undefined ? [] : [i.label]));
  }
  clickItem(label: string) {
    const item = this.menu?.template.find((i) => i.label === label);
    if (!item?.click) throw new Error(`no clickable tray item ${label}`);
    item.click();
  }
}

export class Notification extends RecordedNotification {
  static isSupported() {
    return fake.notificationsSupported;
  }
  constructor(options: Electron.NotificationConstructorOptions) {
    super(options);
    fake.notifications.push(this);
  }
}

export const fake = {
  windows: [] as BrowserWindow[],
  exposed: {} as Record<string, unknown>,
  encryption: { available: true, backend: 'gnome_libsecret' as Backend },
  session: {} as { headers?: Fn; permissionRequest?: Fn; permissionCheck?: Fn; devicePermission?: Fn },
  protocol: { privileged: [] as Array<{ scheme: string; privileges?: Record<string, boolean> }>, handlers: new Map<string, (request: Request) => Response | Promise<Response>>() },
  displays: [{ x: 0, y: 0, width: 1920, height: 1080 }] as Rect[],
  saveAs: undefined as string | undefined,
  trays: [] as Tray[],
  notifications: [] as Notification[],
  notificationsSupported: true,
  /** Templates of the menus popped up (context menus). */
  popups: [] as unknown[][],
  reset() {
    fake.popups.length = 0;
    fake.trays.length = 0;
    fake.notifications.length = 0;
    fake.notificationsSupported = true;
    fake.saveAs = undefined;
    fake.windows.length = 0;
    fake.exposed = {};
    fake.encryption = { available: true, backend: 'gnome_libsecret' };
    fake.session = {};
    fake.protocol = { privileged: [], handlers: new Map() };
    fake.displays = [{ x: 0, y: 0, width: 1920, height: 1080 }];
    for (const e of [app, ipcMain, ipcRenderer, autoUpdater]) e.removeAllListeners();
    ipcMain.handlers.clear();
    Object.assign(app, { isPackaged: false, lock: true, quitting: false, userData: '/nonexistent', version: '0.1.0', appPath: '/opt/zulip-offline' });
    vi.clearAllMocks();
  },
};

export default { app, autoUpdater, BrowserWindow, ipcMain, ipcRenderer, contextBridge, safeStorage, dialog, shell, session, screen, Menu, net, protocol, nativeImage, Tray, Notification };
