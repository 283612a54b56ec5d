/**
 * The Electron app end to end: the BUILT main process (out/main/index.js) and preload, run by the
 * harness in test/electron-harness/ with a stand-in `electron` over this Chromium (a BrowserWindow
 * is a page; IPC, protocol.handle, the session's headers and navigation events are the harness's
 * routes and bindings; tray, badge, notifications and login items are recorded). Each test signs in
 * against the reference server run as its own process. What this cannot prove: README, "The
 * Electron harness".
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { launchElectronApp, type ElectronApp } from '../electron-harness/launch.js';
import { lightAndDark, messageList, openTopic } from './fixtures.js';
import { freePort, startServerProcess, type Proc } from './processes.js';
import { restAs, signInFromWelcome, statusOf } from './real-world.js';
import { expectLoaded, upload } from './upload-helpers.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const PICTURE = readFileSync(path.join(ROOT, 'resources', 'icons', '256x256.png'));
// The harness runs the app unpackaged: its updater may check (main/updater.ts devChecks); updates
// stay off until a test sets a feed.
process.env['ZULIP_UPDATER_DEV'] = '1';

interface World {
  readonly app: ElectronApp;
  readonly page: Page;
  readonly serverUrl: string;
  /** The server process now (stop it to go offline). */
  server(): Proc;
  /** Start it again on the same port and data. */
  startServer(): Promise<void>;
  /** Errors the page logged, but those in `allowed`. */
  problems(allowed?: RegExp): string[];
}

/** The reference server as a process, the app launched in the harness, signed in as hamlet. */
const test = base.extend<{ world: World }>({
  world: async ({ browser }, use, testInfo) => {
    const work = mkdtempSync(path.join(tmpdir(), 'zulip-electron-'));
    const dataFile = path.join(work, 'server.db');
    const port = await freePort();
    const procs: Proc[] = [];
    let server = await startServerProcess(port, dataFile);
    procs.push(server.proc);
    const app = await launchElectronApp({ browser, userData: path.join(work, 'userData') });
    const errors: string[] = [];
    try {
      const page = await app.firstWindowPage();
      page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      // The keychain stand-in can encrypt: no "store unencrypted" question, as on a real desktop.
      await signInFromWelcome(page, server.url, 'hamlet@example.com', { keychain: true });
      await use({
        app,
        page,
        serverUrl: server.url,
        server: () => server.proc,
        async startServer() {
          server = await startServerProcess(port, dataFile);
          procs.push(server.proc);
        },
        problems: (allowed) => errors.filter((e) => !/Failed to load resource|ERR_CONNECTION/.test(e) && !allowed?.test(e)),
      });
    } finally {
      await app.quit().catch(() => undefined);
      for (const p of procs) await p.stop();
      await testInfo.attach('main-log.txt', { body: app.logs().join('\n'), contentType: 'text/plain' });
      rmSync(work, { recursive: true, force: true });
    }
  },
});

test('the built main process: IPC, the zulip-upload: scheme, the CSP header, locked navigation', async ({ world }) => {
  const { app, page } = world;
  const win = await app.firstWindow();
  expect(win.isVisible()).toBe(true);
  // Recorded, not enforced, here (README, "The Electron harness").
  expect(win.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
  expect(app.records.privilegedSchemes.map((s) => s.scheme)).toEqual(['zulip-upload']);

  // IPC: the preload's bridge, through ipcMain to the engine (keys sealed by safeStorage).
  const accounts = await page.evaluate(() => (globalThis as unknown as { zulip: { host: string; invoke(n: string, r: unknown): Promise<unknown> } }).zulip.invoke('accounts', {}));
  expect(accounts).toMatchObject({ ok: true, value: { secret_storage: 'encrypted', active: expect.any(String) } });
  // The engine's "system proxy" (the default) asked the session for the server's route.
  expect(app.records.resolvedProxies).toContain(`${world.serverUrl}/`);

  // An image another user uploaded, shown through zulip-upload: (the engine fetches it).
  const iago = await restAs(world.serverUrl, 'iago@example.com');
  const sunset = await upload(world.serverUrl, 'iago@example.com', 'sunset.png', PICTURE);
  await iago.call('POST', '/messages', { type: 'stream', to: 'Verona', topic: 'the harness', content: `The view: [sunset.png](${sunset})` });
  await openTopic(page, 'Verona', 'the harness');
  const picture = messageList(page).getByRole('img', { name: 'sunset.png' });
  await expectLoaded(picture);
  expect(await picture.getAttribute('src')).toBe(`zulip-upload://realm${sunset}`);
  expect(app.records.responses.get(`zulip-upload://realm${sunset}`)).toMatchObject({ 'content-type': 'image/png', 'x-content-type-options': 'nosniff' });

  // The page carries main's CSP header (the session's onHeadersReceived); a reload comes back live.
  const response = await page.reload();
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("img-src 'self' zulip-upload:");
  expect(csp).toContain("frame-ancestors 'none'");
  await expect(statusOf(page)).toContainText('Live', { timeout: 30_000 });
  const blocked = await page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const d = (globalThis as unknown as { document: { addEventListener(t: string, f: (e: { violatedDirective: string }) => void): void; createElement(t: string): { src: string }; body: { append(n: unknown): void } } }).document;
        d.addEventListener('securitypolicyviolation', (e) => resolve(e.violatedDirective));
        const img = d.createElement('img');
        img.src = 'https://images.example/tracker.png';
        d.body.append(img);
      }),
  );
  expect(blocked).toBe('img-src');

  // Navigation is locked: a web page opens in the system browser, the window stays on the app;
  // window.open never makes a window; a file: URL goes nowhere.
  const appUrl = page.url();
  await page.evaluate(() => void ((globalThis as unknown as { location: { href: string } }).location.href = 'https://example.com/elsewhere'));
  await expect.poll(() => app.records.openedExternally).toEqual(['https://example.com/elsewhere']);
  await page.evaluate(() => (globalThis as unknown as { open(u: string): unknown }).open('https://example.org/popup'));
  await page.evaluate(() => (globalThis as unknown as { open(u: string): unknown }).open('file:///etc/passwd'));
  await expect.poll(() => app.records.openedExternally).toEqual(['https://example.com/elsewhere', 'https://example.org/popup']);
  await expect.poll(() => app.context.pages().length).toBe(1);
  expect(page.url()).toBe(appUrl);
  expect(app.standIn.windows()).toHaveLength(1);
  await expect(statusOf(page)).toContainText('Live');

  await app.quit();
  expect(world.problems(/tracker\.png/)).toEqual([]);
});

test('notifications from main, the unread count in the tray, close to tray while the outbox drains', async ({ world }, testInfo) => {
  const { app, page } = world;
  const win = await app.firstWindow();
  const tray = app.records.trays[0]!;
  const trayCount = () => Number(/: (\d+) unread/.exec(tray.tooltip)?.[1] ?? 0);

  // The desktop settings, in Preferences: close to tray on by default here (Linux), start at login off.
  await page.goto(`${page.url().split('#')[0]}#settings/preferences`);
  const group = page.getByRole('group', { name: 'Desktop app' });
  const closeToTray = group.getByRole('checkbox', { name: 'Keep running in the tray when the window is closed' });
  await expect(closeToTray).toBeChecked();
  const atLogin = group.getByRole('checkbox', { name: 'Start Zulip Offline when you log in to this computer' });
  await expect(atLogin).not.toBeChecked();
  await group.scrollIntoViewIfNeeded();
  await lightAndDark(page, testInfo, '125-desktop-settings');
  await atLogin.check();
  await expect.poll(() => app.records.loginItems.at(-1)).toEqual({ openAtLogin: true });

  // The tray follows unread: a message arrives, the count goes up (title and badge too) ...
  await expect.poll(trayCount, { timeout: 20_000 }).toBeGreaterThan(0);
  const before = trayCount();
  const iago = await restAs(world.serverUrl, 'iago@example.com');
  await iago.call('POST', '/messages', { type: 'stream', to: 'Verona', topic: 'tray count', content: 'One more to read.' });
  await expect.poll(trayCount, { timeout: 20_000 }).toBe(before + 1);
  expect(win.getTitle()).toBe(`(${before + 1}) Zulip Offline`);
  expect(app.standIn.app.getBadgeCount()).toBe(before + 1);
  expect(tray.menu?.labels()).toEqual(['Show Zulip Offline', `${before + 1} unread messages`, 'Quit']);
  // ... and reading it brings it down (the topic opened by its link: the channel's other unread stay so).
  const streams = (await iago.call('GET', '/streams'))['streams'] as Array<{ stream_id: number; name: string }>;
  const verona = streams.find((c) => c.name === 'Verona')!.stream_id;
  await page.evaluate((h) => void ((globalThis as unknown as { location: { hash: string } }).location.hash = h), `#narrow/channel/${verona}-Verona/topic/tray.20count`);
  await expect(page.getByRole('heading', { level: 1, name: 'Verona › tray count' })).toBeVisible();
  await expect.poll(trayCount, { timeout: 20_000 }).toBe(before);

  // A direct message while the user is in another app: main shows it; a click opens the conversation.
  win.blur();
  const othello = await restAs(world.serverUrl, 'othello@example.com');
  await othello.call('POST', '/messages', { type: 'direct', to: JSON.stringify(['hamlet@example.com']), content: 'Are you there, my lord?' });
  await expect.poll(() => app.records.notifications.filter((n) => n.shown).map((n) => n.body), { timeout: 20_000 }).toContain('Are you there, my lord?');
  const note = app.records.notifications.find((n) => n.body === 'Are you there, my lord?')!;
  expect(note.title).toContain('Othello');
  note.click();
  expect(win.isFocused()).toBe(true);
  await expect(page).toHaveURL(/#narrow\/dm\//);
  const reply = page.getByRole('textbox', { name: /^Message to / });
  await expect(reply).toBeVisible();

  // Close to tray: offline, a reply is queued, the window is closed: it hides, the app runs on,
  // the server comes back and the outbox drains with no window showing.
  await world.server().stop();
  await expect(statusOf(page)).toContainText('Offline', { timeout: 30_000 });
  await reply.fill('Yes, from the tray.');
  await reply.press('Control+Enter');
  // (Reading the conversation may queue a flag change too, under load.)
  await expect(page.getByRole('status', { name: 'Outbox' })).toHaveText(/^[12] pending$/);
  win.close();
  expect(win.isDestroyed()).toBe(false);
  expect(win.isVisible()).toBe(false);
  expect(app.standIn.app.quitted).toBe(false);
  await world.startServer();
  await expect
    .poll(async () => (await othello.messages([{ operator: 'dm', operand: 'hamlet@example.com' }])).map((m) => m.content), { timeout: 30_000 })
    .toContain('Yes, from the tray.');

  // Quit from the tray quits for real: the engine closes, then the window goes.
  tray.menu?.clickItem('Quit');
  await expect.poll(() => app.standIn.app.quitted, { timeout: 15_000 }).toBe(true);
  expect(win.isDestroyed()).toBe(true);
  expect(app.logs().filter((l) => /closing the engine|still closing/.test(l))).toEqual([]);
  expect(world.problems()).toEqual([]);
});

test('links from the OS open in the running window; spell-check languages; the context menu replaces a misspelled word', async ({ world }, testInfo) => {
  const { app, page } = world;
  const win = await app.firstWindow();
  // Registered at start (installers register it too: electron-builder.yml).
  expect(app.records.protocolClients).toEqual(['zulip']);

  // Spell check: on by default; languages chosen among the session's dictionaries reach the session.
  await page.goto(`${page.url().split('#')[0]}#settings/preferences`);
  const group = page.getByRole('group', { name: 'Desktop app' });
  await expect(group.getByRole('checkbox', { name: 'Check spelling as you type' })).toBeChecked();
  const languages = group.getByRole('listbox', { name: 'Spell-check languages' });
  await expect(languages.getByRole('option')).toHaveCount(4);
  await languages.selectOption(['de', 'en-US']);
  await expect.poll(() => app.records.spellChecker.languages.at(-1)).toEqual(['de', 'en-US']);
  expect(app.records.spellChecker.enabled.at(-1)).toBe(true);
  await languages.scrollIntoViewIfNeeded();
  await lightAndDark(page, testInfo, '128-desktop-spellcheck');

  // A second launch with a zulip:// link to a channel of this realm: the hidden window comes back
  // and shows the channel.
  const iago = await restAs(world.serverUrl, 'iago@example.com');
  const streams = (await iago.call('GET', '/streams'))['streams'] as Array<{ stream_id: number; name: string }>;
  const verona = streams.find((c) => c.name === 'Verona')!.stream_id;
  const host = new URL(world.serverUrl).host;
  win.hide();
  app.standIn.app.emit('second-instance', {}, ['/opt/Zulip Offline/zulip-offline', '--no-sandbox', `zulip://${host}/#narrow/channel/${verona}-Verona`], '/', {});
  expect(win.isVisible()).toBe(true);
  expect(win.isFocused()).toBe(true);
  await expect(page.getByRole('heading', { level: 1, name: 'Verona' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`#narrow/channel/${verona}-Verona$`));

  // The context menu on a misspelled word in the composer (the stand-in gives Chromium's answer):
  // its suggestions, one picked replaces the word; Add to dictionary; Cut, Copy, Paste.
  const input = page.getByRole('form', { name: 'New topic' }).getByRole('textbox', { name: 'Message to a new topic' });
  await input.fill('Good mornign, Verona');
  await input.evaluate((el: { setSelectionRange(a: number, b: number): void; focus(): void }) => {
    el.focus();
    el.setSelectionRange(5, 12);
  });
  const params = { misspelledWord: 'mornign', dictionarySuggestions: ['morning', 'mourning'], isEditable: true, selectionText: 'mornign', editFlags: { canCut: true, canCopy: true, canPaste: true } };
  win.webContents.emit('context-menu', {}, params);
  const menu = app.records.contextMenus.at(-1)!;
  expect(menu.labels()).toEqual(['morning', 'mourning', 'Add to dictionary', 'Cut', 'Copy', 'Paste']);
  menu.clickItem('morning');
  await expect(input).toHaveValue('Good morning, Verona');
  win.webContents.emit('context-menu', {}, { ...params, misspelledWord: 'Elsinore', dictionarySuggestions: [] });
  app.records.contextMenus.at(-1)!.clickItem('Add to dictionary');
  expect(app.records.spellChecker.added).toEqual(['Elsinore']);

  // macOS hands links over as open-url: one to a server with no account here opens the sign-in
  // screen filled in with it, over the open account, which Back brings back.
  app.standIn.app.emit('open-url', { preventDefault: () => undefined }, 'zulip://chat.unknown.example/#narrow/channel/1-general');
  await expect(page.getByRole('textbox', { name: 'Server URL' })).toHaveValue('https://chat.unknown.example');
  await page.getByRole('button', { name: /^Back to http:\/\/127\.0\.0\.1:/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Verona' })).toBeVisible();
  expect(world.problems()).toEqual([]);
});

test('updates: the feed set in Desktop app settings, a newer version downloaded, Restart to update installs it after the engine closed', async ({ world }, testInfo) => {
  const { app, page } = world;
  // A feed on loopback: latest-linux.yml and the "new AppImage" (a script leaving a mark when started).
  const NEW = 'zulip-offline-0.2.0-linux-x86_64.AppImage';
  const bytes = Buffer.from('#!/bin/sh\necho started > "$0.ran"\n');
  const sha512 = createHash('sha512').update(bytes).digest('base64');
  const files = new Map<string, string | Buffer>([
    ['latest-linux.yml', `version: 0.2.0\nfiles:\n  - url: ${NEW}\n    sha512: ${sha512}\n    size: ${bytes.length}\npath: ${NEW}\nsha512: ${sha512}\nreleaseDate: '2026-11-27T00:00:00.000Z'\n`],
    [NEW, bytes],
  ]);
  const feed = createServer((req, res) => {
    const body = files.get(new URL(req.url ?? '/', 'http://feed').pathname.replace('/feed/', ''));
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200).end(body);
  });
  await new Promise<void>((r) => feed.listen(0, '127.0.0.1', r));
  const work = mkdtempSync(path.join(tmpdir(), 'zulip-update-'));
  // The AppImage runtime names the running AppImage; electron-updater downloads into the user's cache.
  const installed = path.join(work, 'Zulip-Offline.AppImage');
  writeFileSync(installed, 'the installed 0.1.0');
  const env = { APPIMAGE: process.env['APPIMAGE'], XDG_CACHE_HOME: process.env['XDG_CACHE_HOME'] };
  process.env['APPIMAGE'] = installed;
  process.env['XDG_CACHE_HOME'] = path.join(work, 'cache');
  try {
    await page.goto(`${page.url().split('#')[0]}#settings/preferences`);
    const group = page.getByRole('group', { name: 'Desktop app' }).getByRole('group', { name: 'Updates' });
    const status = group.getByRole('status');
    await expect(status).toContainText('Updates are off');
    const url = group.getByRole('textbox', { name: 'Update feed URL' });
    await expect(url).toHaveValue('');

    // Plain http elsewhere than this computer is refused, in words.
    await url.fill('http://downloads.example.org/feed/');
    await url.press('Enter');
    await expect(page.getByRole('group', { name: 'Desktop app' }).getByRole('alert')).toContainText('must be an https:// address');

    await url.fill(`http://127.0.0.1:${(feed.address() as AddressInfo).port}/feed/`);
    await group.getByRole('button', { name: 'Check for updates' }).click();
    await expect(status).toContainText('Version 0.2.0 is downloaded and ready to install', { timeout: 20_000 });
    const restart = group.getByRole('button', { name: 'Restart to update' });
    await expect(restart).toBeVisible();
    await group.scrollIntoViewIfNeeded();
    await lightAndDark(page, testInfo, '132-desktop-updates');
    expect(world.problems()).toEqual([]);
    // Nothing was installed yet, and nothing popped up by itself.
    expect(readFileSync(installed, 'utf8')).toBe('the installed 0.1.0');
    expect(app.records.notifications).toEqual([]);

    // Restart to update: the engine closes (main's IPC handlers gone with it), then electron-updater
    // installs (the verified file in place of the AppImage, started) and the app quits.
    await restart.click();
    await expect.poll(() => app.standIn.app.quitted, { timeout: 15_000 }).toBe(true);
    expect(app.records.autoUpdater).toEqual([{ event: 'before-quit-for-update', ipcHandlers: [] }]);
    expect(readFileSync(installed)).toEqual(bytes);
    await expect.poll(() => existsSync(`${installed}.ran`)).toBe(true);
    expect(app.logs().filter((l) => /closing the engine|still closing/.test(l))).toEqual([]);
  } finally {
    for (const [k, v] of Object.entries(env)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await new Promise((r) => feed.close(r));
    rmSync(work, { recursive: true, force: true });
  }
});

test('two organisations: one offline, the other syncing and notifying from main; a click shows it; the tray counts both', async ({ world }) => {
  const { app, page } = world;
  const win = await app.firstWindow();
  const tray = app.records.trays[0]!;
  const trayCount = () => Number(/: (\d+) unread/.exec(tray.tooltip)?.[1] ?? 0);
  const work = mkdtempSync(path.join(tmpdir(), 'zulip-electron-orgs-'));
  const second = await startServerProcess(await freePort(), path.join(work, 'second.db'));
  try {
    const bar = page.getByRole('navigation', { name: 'Organisations' });
    const tile = (url: string) => bar.getByRole('button', { name: new RegExp(`^Organisation Sandbox \\(${new URL(url).host.replace(/\./g, '\\.')}\\)`) });
    await expect.poll(trayCount, { timeout: 20_000 }).toBeGreaterThan(0);
    const firstOnly = trayCount();
    // "Add organisation" signs in to the second without signing out of the first.
    await bar.getByRole('button', { name: 'Add organisation' }).click();
    await signInFromWelcome(page, second.url, 'hamlet@example.com', { keychain: true });
    await expect(bar.getByRole('listitem')).toHaveCount(2);
    // The tray counts both organisations' unread.
    await expect.poll(trayCount, { timeout: 20_000 }).toBeGreaterThan(firstOnly);

    // The first shown, its server stops.
    await tile(world.serverUrl).click();
    await expect(tile(world.serverUrl)).toHaveAttribute('aria-current', 'true');
    await world.server().stop();
    await expect(statusOf(page)).toContainText('Offline', { timeout: 30_000 });

    // The second, not shown, still syncs: a DM there is shown by main, and counted in the tray.
    const before = trayCount();
    win.blur();
    const othello = await restAs(second.url, 'othello@example.com');
    await othello.call('POST', '/messages', { type: 'direct', to: JSON.stringify(['hamlet@example.com']), content: 'From the other organisation' });
    await expect.poll(() => app.records.notifications.filter((n) => n.shown).map((n) => n.body), { timeout: 20_000 }).toContain('From the other organisation');
    await expect.poll(trayCount, { timeout: 20_000 }).toBe(before + 1);
    // A click shows that organisation and opens the conversation.
    app.records.notifications.find((n) => n.body === 'From the other organisation')!.click();
    await expect(tile(second.url)).toHaveAttribute('aria-current', 'true', { timeout: 20_000 });
    await expect(page).toHaveURL(/#narrow\/dm\//);
    await expect(page.getByRole('textbox', { name: /^Message to / })).toBeVisible();
    await expect(statusOf(page)).toContainText('Live');
    expect(world.problems()).toEqual([]);
  } finally {
    await second.proc.stop();
    rmSync(work, { recursive: true, force: true });
  }
});
