/**
 * The main process wired (main/app.ts) under the fake `electron`: one instance, one locked-down
 * window, the engine behind IPC (with the real engine service and, for `--sandbox`, the real
 * embedded reference server on loopback), the badge, and a quit that waits for the engine.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startApp } from '../../main/app.js';
import { IPC_EVENT, IPC_INVOKE, IPC_SUBSCRIBE, type RpcResult } from '../../sync/protocol/rpc.js';
import { EngineService } from '../../sync/service/index.js';
import { until } from '../sync/engine/session-helpers.js';
import { app, Menu, fake, ipcMain, type BrowserWindow } from './fake-electron.js';

vi.mock('electron', () => import('./fake-electron.js'));

let userData: string;

async function boot(argv: string[] = ['electron', '.']): Promise<BrowserWindow | undefined> {
  startApp(argv);
  await new Promise((r) => setTimeout(r, 0)); // whenReady().then(...)
  return fake.windows[0];
}

async function quit(): Promise<void> {
  app.quit();
  await until(() => app.quitting, 15_000, 'the app to quit');
}

async function eventually(cond: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function invoke(win: BrowserWindow, name: string, request: unknown = {}): Promise<RpcResult> {
  const h = ipcMain.handlers.get(IPC_INVOKE);
  if (!h) throw new Error('no invoke handler');
  return Promise.resolve(h({ sender: win.webContents, senderFrame: win.webContents.mainFrame } as never, { name, request } as never)) as Promise<RpcResult>;
}

beforeEach(() => {
  fake.reset();
  userData = mkdtempSync(path.join(tmpdir(), 'zo-main-'));
  app.userData = userData;
});
afterEach(async () => {
  if (!app.quitting && ipcMain.handlers.size > 0) await quit();
  vi.restoreAllMocks();
  rmSync(userData, { recursive: true, force: true });
});

describe('main process', () => {
  it('opens one locked-down window on the built renderer, with the menu and session policy', async () => {
    const win = await boot();
    expect(fake.windows).toHaveLength(1);
    expect(win?.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true });
    expect((win?.options.webPreferences as { preload: string }).preload).toBe(path.join('/opt/zulip-offline', 'out', 'preload', 'index.cjs'));
    expect(win?.loaded).toEqual({ file: path.join('/opt/zulip-offline', 'out', 'renderer', 'index.html') });
    expect(Menu.setApplicationMenu).toHaveBeenCalledTimes(1);
    expect(fake.session.headers).toBeTypeOf('function');
    expect(fake.session.permissionCheck?.()).toBe(false);
    // The window's webContents got the guards through web-contents-created.
    expect(win?.webContents.fire('will-navigate', { url: 'https://evil.example/', isMainFrame: true })).toBe(true);
    expect(win?.webContents.openHandler?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(ipcMain.handlers.has(IPC_INVOKE)).toBe(true);
  });

  it('serves zulip-upload: from the engine service (registered before ready, removed on quit)', async () => {
    await boot();
    expect(fake.protocol.privileged.map((p) => p.scheme)).toEqual(['zulip-upload']);
    const h = fake.protocol.handlers.get('zulip-upload');
    expect(h).toBeTypeOf('function');
    // No account is open: the service has no image to give.
    const spy = vi.spyOn(EngineService.prototype, 'upload');
    const r = await h!({ url: 'zulip-upload://realm/user_uploads/2/ab/pic.png', method: 'GET' } as Request);
    expect(r.status).toBe(404);
    expect(spy).toHaveBeenCalledWith('/user_uploads/2/ab/pic.png');
    await quit();
    expect(fake.protocol.handlers.has('zulip-upload')).toBe(false);
  });

  it('loads the dev server only in an unpackaged app', async () => {
    vi.stubEnv('ELECTRON_RENDERER_URL', 'http://localhost:5173/');
    try {
      app.isPackaged = true;
      expect((await boot())?.loaded).toEqual({ file: path.join('/opt/zulip-offline', 'out', 'renderer', 'index.html') });
      await quit();
      fake.reset();
      app.userData = userData;
      expect((await boot())?.loaded).toEqual({ url: 'http://localhost:5173/' });
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('a second instance quits without a window; the first one comes to the front', async () => {
    const win = await boot();
    if (!win) throw new Error('no window');
    win.minimized = true;
    app.emit('second-instance', {}, ['electron', '.']);
    expect(win.minimized).toBe(false);
    expect(win.focused).toBe(1);
    await quit();

    fake.reset();
    app.userData = userData;
    app.lock = false;
    await boot();
    expect(app.quitting).toBe(true);
    expect(fake.windows).toHaveLength(0);
    expect(ipcMain.handlers.size).toBe(0);
  });

  it('quitting waits for the engine service to close, once', async () => {
    let release: () => void = () => undefined;
    const close = vi.spyOn(EngineService.prototype, 'close').mockImplementation(() => new Promise<void>((r) => (release = r)));
    await boot();
    app.quit();
    app.quit();
    await new Promise((r) => setTimeout(r, 10));
    expect(app.quitting).toBe(false);
    expect(close).toHaveBeenCalledTimes(1);
    release();
    await until(() => app.quitting, 5_000, 'quit');
    expect(ipcMain.handlers.size).toBe(0);
  });

  it('without --sandbox it restores the last account; the window size comes back from userData', async () => {
    writeFileSync(path.join(userData, 'window-state.json'), JSON.stringify({ version: 1, bounds: { x: 100, y: 80, width: 900, height: 640 }, maximized: true }));
    const restore = vi.spyOn(EngineService.prototype, 'restore');
    const win = await boot();
    expect(restore).toHaveBeenCalledTimes(1);
    expect(win?.options).toMatchObject({ x: 100, y: 80, width: 900, height: 640 });
    // Never smaller than the narrow layout is made for (480 px wide; 400 tall, 200% zoom of 800).
    expect(win?.options).toMatchObject({ minWidth: 480, minHeight: 400 });
    expect(win?.maximized).toBe(true);
    if (!win) return;
    expect(await invoke(win, 'accounts')).toEqual({ ok: true, value: { accounts: [], active: null, secret_storage: 'encrypted', sandbox_available: true } });
    expect(await invoke(win, 'channels')).toMatchObject({ ok: false, error: { code: 'NO_ACCOUNT' } });
    win.bounds = { x: 120, y: 90, width: 1000, height: 700 };
    win.maximized = false;
    win.close();
    expect(JSON.parse(readFileSync(path.join(userData, 'window-state.json'), 'utf8'))).toMatchObject({ bounds: { x: 120, y: 90, width: 1000, height: 700 }, maximized: false });
    // Electron says so once the last window is gone; off macOS that quits (after the engine closed).
    app.emit('window-all-closed');
    await until(() => app.quitting, 15_000, 'the app to quit');
  });

  it('--sandbox opens the embedded sandbox: demo channels reach the page over IPC, with live events and the badge', async () => {
    const win = await boot(['electron', '.', '--sandbox']);
    if (!win) throw new Error('no window');
    ipcMain.emit(IPC_SUBSCRIBE, { sender: win.webContents, senderFrame: win.webContents.mainFrame });
    await eventually(async () => {
      const r = await invoke(win, 'accounts');
      return r.ok && (r.value as { active: string | null }).active === 'sandbox';
    }, 'the sandbox account');
    let names: string[] = [];
    await eventually(async () => {
      const r = await invoke(win, 'channels');
      names = r.ok ? (r.value as { name: string }[]).map((c) => c.name) : [];
      return names.length > 0;
    }, 'the demo channels');
    expect(names).toEqual(expect.arrayContaining(['general', 'Verona', 'Denmark']));
    expect(win.webContents.sent.some((s) => s.channel === IPC_EVENT)).toBe(true);
    await until(() => app.setBadgeCount.mock.calls.some(([n]) => n > 0), 10_000, 'an unread badge');
    await quit();
  }, 60_000);
});
