/**
 * main/updater.ts with electron-updater itself (its AppImage updater, as on Linux) against a feed on
 * loopback: electron-updater's requests go through the fake's `net.request` (Node's http) and its
 * `require('electron')` gets the fake (test/electron-harness/require-electron.ts). The feed serves
 * `latest-linux.yml` and an "AppImage" (a shell script) with its sha512.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import electronUpdater from 'electron-updater';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DesktopSettingsStore, handleDesktopSettings } from '../../main/desktop-settings.js';
import { handleUpdates, startUpdater, type Updater, type UpdaterOptions } from '../../main/updater.js';
import type { UpdateStatus } from '../../sync/protocol/desktop.js';
import { IPC_DESKTOP_SETTINGS, IPC_UPDATE } from '../../sync/protocol/rpc.js';
import { ELECTRON_KEY, electronForRequire } from '../electron-harness/require-electron.js';
import { until } from '../sync/engine/session-helpers.js';
import fakeElectron, { app, autoUpdater, BrowserWindow, fake, ipcMain, net } from './fake-electron.js';

vi.mock('electron', () => import('./fake-electron.js'));

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const NEW = 'zulip-offline-0.2.0-linux-x86_64.AppImage';
/** The "new AppImage": started by the installer, it leaves a mark beside itself. */
const NEW_BYTES = Buffer.from('#!/bin/sh\necho "installed $APPIMAGE_SILENT_INSTALL" > "$0.ran"\n');
const sha512 = (b: Buffer) => createHash('sha512').update(b).digest('base64');

let dir: string;
let server: Server;
let feedUrl: string;
let files: Map<string, Buffer>;
let requests: string[];
const env = { ...process.env };

beforeAll(async () => {
  electronForRequire();
  (globalThis as Record<symbol, unknown>)[ELECTRON_KEY] = fakeElectron;
  server = createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url ?? '/', 'http://feed').pathname.slice('/feed/'.length));
    requests.push(name);
    const body = files.get(name);
    if (!body) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  feedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed/`;
});
afterAll(async () => {
  delete (globalThis as Record<symbol, unknown>)[ELECTRON_KEY];
  await new Promise((r) => server.close(r));
});

beforeEach(() => {
  fake.reset();
  dir = mkdtempSync(path.join(tmpdir(), 'zo-updater-'));
  app.userData = path.join(dir, 'userData');
  // electron-updater's dev config (dev-app-update.yml) is the repository's.
  app.appPath = ROOT;
  files = new Map();
  requests = [];
  // The AppImage runtime names the running AppImage; electron-updater keeps downloads in the cache.
  const installed = path.join(dir, 'apps', 'Zulip-Offline.AppImage');
  mkdirSync(path.dirname(installed));
  writeFileSync(installed, 'the installed 0.1.0');
  process.env['APPIMAGE'] = installed;
  process.env['XDG_CACHE_HOME'] = path.join(dir, 'cache');
});
afterEach(() => {
  for (const k of ['APPIMAGE', 'XDG_CACHE_HOME']) {
    if (env[k] === undefined) delete process.env[k];
    else process.env[k] = env[k];
  }
  rmSync(dir, { recursive: true, force: true });
});

/** The feed offers `version`, its file with this sha512 (the right one by default). */
function publish(version: string, digest = sha512(NEW_BYTES)) {
  files.set(NEW, NEW_BYTES);
  files.set('latest-linux.yml', Buffer.from(`version: ${version}\nfiles:\n  - url: ${NEW}\n    sha512: ${digest}\n    size: ${NEW_BYTES.length}\npath: ${NEW}\nsha512: ${digest}\nreleaseDate: '2026-11-27T00:00:00.000Z'\n`));
}

/** An updater over electron-updater's AppImage updater (a fresh one per test), every state it published kept. */
function updaterFor(url: string, more: Partial<UpdaterOptions> = {}) {
  const states: UpdateStatus[] = [];
  const logs: string[] = [];
  const loaded: InstanceType<typeof electronUpdater.AppImageUpdater>[] = [];
  const updater = startUpdater({
    feedUrl: () => url,
    beforeInstall: async () => undefined,
    publish: (s) => states.push(s),
    log: (l) => logs.push(l),
    devChecks: true,
    load: async () => {
      const u = new electronUpdater.AppImageUpdater();
      loaded.push(u);
      return u;
    },
    ...more,
  });
  return { updater, states, logs, loaded };
}

const settled = (u: Updater, state: UpdateStatus['state']) => until(() => u.status().state === state, 10_000, `the updater ${state} (now ${JSON.stringify(u.status())})`);

describe('the updater', () => {
  it('is off with no feed: no request, electron-updater not even loaded; the first check waits for the window', async () => {
    const { updater, loaded } = updaterFor('');
    expect(updater.status()).toEqual({ current_version: '0.1.0', state: 'off' });
    expect(await updater.check()).toEqual({ current_version: '0.1.0', state: 'off' });
    expect(loaded).toEqual([]);
    expect(requests).toEqual([]);
    expect(net.request).not.toHaveBeenCalled();

    // With a feed, nothing is asked at start: only after the window is shown and the delay.
    publish('0.1.0');
    vi.useFakeTimers();
    const later = updaterFor(feedUrl, { firstCheckDelayMs: 10_000 });
    try {
      expect(later.updater.status().state).toBe('idle');
      later.updater.windowShown();
      await vi.advanceTimersByTimeAsync(9_000);
      expect(later.loaded).toEqual([]);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(later.loaded).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
    // That check ends here (not in the next test's feed and cache).
    await settled(later.updater, 'up_to_date');
    later.updater.close();
  });

  it('says up to date when the feed offers this version; a feed set is checked at once, and cleared is off', async () => {
    publish('0.1.0');
    let url = '';
    const { updater } = updaterFor('', { feedUrl: () => url });
    url = feedUrl;
    updater.feedChanged();
    await settled(updater, 'up_to_date');
    expect(requests).toEqual(['latest-linux.yml']);
    expect(await updater.check()).toMatchObject({ current_version: '0.1.0', state: 'up_to_date' });
    expect(requests).toEqual(['latest-linux.yml', 'latest-linux.yml']);
    url = '';
    updater.feedChanged();
    expect(updater.status()).toEqual({ current_version: '0.1.0', state: 'off' });
    // electron-updater asked through Electron's net (the fake's: Node's http), in its own session.
    expect(net.request).toHaveBeenCalled();
    expect(fake.windows).toEqual([]);
  });

  it('downloads a newer version, checks its sha512, and "Restart to update" installs it only after the engine closed', async () => {
    publish('0.2.0');
    const order: string[] = [];
    const { updater, states, loaded } = updaterFor(feedUrl, {
      beforeInstall: async () => {
        order.push('engine closing');
        await new Promise((r) => setTimeout(r, 20));
        order.push('engine closed');
      },
    });
    await updater.check();
    await settled(updater, 'downloaded');
    expect(updater.status()).toEqual({ current_version: '0.1.0', state: 'downloaded', version: '0.2.0' });
    expect(states.map((s) => s.state)).toEqual(expect.arrayContaining(['checking', 'available', 'downloaded']));
    const cached = path.join(dir, 'cache', 'zulip-offline-desktop-updater', 'pending', NEW);
    expect(readFileSync(cached)).toEqual(NEW_BYTES);

    const u = loaded[0]!;
    expect(u.autoInstallOnAppQuit).toBe(true);
    const real = u.quitAndInstall.bind(u);
    u.quitAndInstall = (...args) => {
      order.push('quitAndInstall');
      real(...args);
    };
    autoUpdater.on('before-quit-for-update', () => order.push('before-quit-for-update'));
    app.on('before-quit', () => order.push('quit'));
    await updater.install();
    await until(() => app.quitting, 10_000, 'the app to quit');
    expect(order).toEqual(['engine closing', 'engine closed', 'quitAndInstall', 'before-quit-for-update', 'quit']);
    // electron-updater's AppImage install: the verified file in place of the running one, started.
    const installed = process.env['APPIMAGE']!;
    expect(readFileSync(installed)).toEqual(NEW_BYTES);
    await until(() => existsSync(`${installed}.ran`), 10_000, 'the new AppImage to run');
    expect(readFileSync(`${installed}.ran`, 'utf8')).toBe('installed true\n');
  });

  it('a wrong sha512 is an error in words, nothing is kept or marked ready', async () => {
    publish('0.2.0', sha512(Buffer.from('another file')));
    const { updater, states } = updaterFor(feedUrl);
    await updater.check();
    await settled(updater, 'error');
    expect(updater.status()).toEqual({ current_version: '0.1.0', state: 'error', message: 'The downloaded update did not match its checksum (sha512) and was discarded.' });
    expect(states.map((s) => s.state)).not.toContain('downloaded');
    const pending = path.join(dir, 'cache', 'zulip-offline-desktop-updater', 'pending');
    expect(existsSync(pending) ? readdirSync(pending).filter((f) => f.endsWith('.AppImage')) : []).toEqual([]);
    await expect(updater.install()).resolves.toBeUndefined();
    expect(app.quitting).toBe(false);
  });

  it('a feed that is down or has no update information is an error in words; the app goes on', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const down = updaterFor(`http://127.0.0.1:${port}/feed/`);
    expect(await down.updater.check()).toEqual({ current_version: '0.1.0', state: 'error', message: 'The update feed could not be reached: the connection was refused.' });
    const empty = updaterFor(feedUrl);
    expect(await empty.updater.check()).toEqual({ current_version: '0.1.0', state: 'error', message: 'The update feed has no update information for this system (HTTP 404).' });
    // Nothing quit or was shown; a later check (the feed back) works.
    expect(app.quitting).toBe(false);
    publish('0.1.0');
    expect(await empty.updater.check()).toMatchObject({ state: 'up_to_date' });
  });
});

describe('the feed setting and IPC_UPDATE', () => {
  const OWN = 'file:///app/out/renderer/index.html';

  it('takes https, or http to this computer only; empty is off', async () => {
    const store = new DesktopSettingsStore(path.join(dir, 's.json'), 'linux');
    const win = new BrowserWindow({});
    win.webContents.mainFrame.url = OWN;
    const dispose = handleDesktopSettings(store, { window: () => win as never, isOwnUrl: (u) => u === OWN });
    const h = ipcMain.handlers.get(IPC_DESKTOP_SETTINGS)!;
    const call = (payload: unknown) => h({ sender: win.webContents, senderFrame: win.webContents.mainFrame } as never, payload as never);
    expect(store.get().update_feed_url).toBe('');
    expect(await call({ update_feed_url: 'https://downloads.example.org/zulip-offline/' })).toMatchObject({ ok: true, value: { update_feed_url: 'https://downloads.example.org/zulip-offline/' } });
    expect(await call({ update_feed_url: 'http://127.0.0.1:8080/feed/' })).toMatchObject({ ok: true });
    expect(await call({ update_feed_url: 'http://localhost:8080/' })).toMatchObject({ ok: true });
    for (const bad of ['http://downloads.example.org/', 'ftp://127.0.0.1/', 'https://user:secret@example.org/', 'not a url']) {
      expect(await call({ update_feed_url: bad })).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST' } });
    }
    expect(await call({ update_feed_url: '' })).toMatchObject({ ok: true, value: { update_feed_url: '' } });
    dispose();
  });

  it('answers our page only, with the state; check and install go to the updater', async () => {
    const win = new BrowserWindow({});
    win.webContents.mainFrame.url = OWN;
    publish('0.1.0');
    const { updater } = updaterFor(feedUrl);
    const dispose = handleUpdates(updater, { window: () => win as never, isOwnUrl: (u) => u === OWN });
    const h = ipcMain.handlers.get(IPC_UPDATE)!;
    const call = (payload: unknown, sender = win.webContents) => h({ sender, senderFrame: sender.mainFrame } as never, payload as never);
    expect(await call({ action: 'status' })).toEqual({ ok: true, value: { current_version: '0.1.0', state: 'idle' } });
    expect(await call({ action: 'check' })).toMatchObject({ ok: true, value: { state: 'up_to_date' } });
    expect(await call({ action: 'install' })).toMatchObject({ ok: true, value: { state: 'up_to_date' } });
    expect(app.quitting).toBe(false);
    expect(await call({ action: 'rm -rf' })).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST' } });
    const other = new BrowserWindow({});
    other.webContents.mainFrame.url = OWN;
    expect(await call({ action: 'check' }, other.webContents)).toMatchObject({ ok: false, error: { message: expect.stringContaining('refused') } });
    dispose();
  });
});
