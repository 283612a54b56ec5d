/**
 * A hand-written stand-in for the `electron` module (no Electron binary exists here or in CI), used
 * with `vi.mock('electron', () => import('./fake-electron.js'))`. It records what main/ asks of
 * Electron (handlers, windows, menus, badge, files sealed) and lets tests play the platform's part
 * (fire navigation events, send IPC from a chosen frame, quit). `fake.reset()` between tests.
 */
import { EventEmitter } from 'node:events';
import { vi } from 'vitest';

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
  focus() {
    this.focused++;
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
    this.emit('close', { preventDefault: () => undefined });
    this.destroyed = true;
    this.webContents.destroy();
    this.emit('closed');
  }
}

class FakeApp extends EventEmitter {
  isPackaged = false;
  lock = true;
  quitting = false;
  userData = '/nonexistent';
  readonly setBadgeCount = vi.fn((_n: number) => true);
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
  getAppPath() {
    return '/opt/zulip-offline';
  }
  /** Like Electron: `before-quit` may be prevented; otherwise the app quits. */
  quit() {
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => void (prevented = true) });
    if (!prevented) this.quitting = true;
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

/** A reversible scrambling standing in for the OS keychain: the clear text never appears in it. */
const scramble = (b: Buffer) => Buffer.from(b.map((x) => x ^ 0x5a));
export const safeStorage = {
  isEncryptionAvailable: vi.fn(() => fake.encryption.available),
  getSelectedStorageBackend: vi.fn(() => fake.encryption.backend),
  encryptString: vi.fn((s: string) => Buffer.concat([Buffer.from('SEALED:'), scramble(Buffer.from(s, 'utf8'))])),
  decryptString: vi.fn((b: Buffer) => {
    if (!b.subarray(0, 7).equals(Buffer.from('SEALED:'))) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    return scramble(b.subarray(7)).toString('utf8');
  }),
};

/** The save dialog answers `fake.saveAs` (a path) or, when it is undefined, canceled. */
export const dialog = {
  showSaveDialog: vi.fn(async (..._args: unknown[]) => (fake.saveAs === undefined ? { canceled: true, filePath: '' } : { canceled: false, filePath: fake.saveAs })),
};

export const shell = { openExternal: vi.fn(async (_url: string) => undefined) };

export const session = {
  defaultSession: {
    webRequest: { onHeadersReceived: (f: Fn) => void (fake.session.headers = f) },
    setPermissionRequestHandler: (f: Fn) => void (fake.session.permissionRequest = f),
    setPermissionCheckHandler: (f: Fn) => void (fake.session.permissionCheck = f),
    setDevicePermissionHandler: (f: Fn) => void (fake.session.devicePermission = f),
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
  buildFromTemplate: (template: unknown[]) => ({ template }),
  setApplicationMenu: vi.fn((_menu: { template: unknown[] } | null) => undefined),
};

export const fake = {
  windows: [] as BrowserWindow[],
  exposed: {} as Record<string, unknown>,
  encryption: { available: true, backend: 'gnome_libsecret' as Backend },
  session: {} as { headers?: Fn; permissionRequest?: Fn; permissionCheck?: Fn; devicePermission?: Fn },
  protocol: { privileged: [] as Array<{ scheme: string; privileges?: Record<string, boolean> }>, handlers: new Map<string, (request: Request) => Response | Promise<Response>>() },
  displays: [{ x: 0, y: 0, width: 1920, height: 1080 }] as Rect[],
  saveAs: undefined as string | undefined,
  reset() {
    fake.saveAs = undefined;
    fake.windows.length = 0;
    fake.exposed = {};
    fake.encryption = { available: true, backend: 'gnome_libsecret' };
    fake.session = {};
    fake.protocol = { privileged: [], handlers: new Map() };
    fake.displays = [{ x: 0, y: 0, width: 1920, height: 1080 }];
    for (const e of [app, ipcMain, ipcRenderer]) e.removeAllListeners();
    ipcMain.handlers.clear();
    Object.assign(app, { isPackaged: false, lock: true, quitting: false, userData: '/nonexistent' });
    vi.clearAllMocks();
  },
};

export default { app, BrowserWindow, ipcMain, ipcRenderer, contextBridge, safeStorage, dialog, shell, session, screen, Menu, protocol };
