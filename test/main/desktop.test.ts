/**
 * The desktop pieces of main/: the app's own settings (file, IPC, start at login), the unread count
 * shown in the title, badge, Windows overlay and tray (whose Quit quits), close to tray, and desktop
 * notifications from the main process (not while focused or in Do Not Disturb; a click opens).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startApp } from '../../main/app.js';
import { DesktopSettingsStore, handleDesktopSettings } from '../../main/desktop-settings.js';
import { startDesktopNotifications } from '../../main/notify.js';
import { startUnreadDisplay } from '../../main/tray.js';
import { overlayBitmap, trayBitmap } from '../../main/unread-image.js';
import type { EngineEvent } from '../../sync/protocol/commands.js';
import { IPC_DESKTOP_SETTINGS } from '../../sync/protocol/rpc.js';
import { until } from '../sync/engine/session-helpers.js';
import { app, BrowserWindow, fake, ipcMain, type FakeImage } from './fake-electron.js';

vi.mock('electron', () => import('./fake-electron.js'));

const OWN = 'file:///app/out/renderer/index.html';
let dir: string;
beforeEach(() => {
  fake.reset();
  dir = mkdtempSync(path.join(tmpdir(), 'zo-desktop-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The pixel at (x, y) of a BGRA bitmap, as [r, g, b, a]. */
const pixel = (img: { bitmap: Buffer; width: number }, x: number, y: number) => {
  const i = (y * img.width + x) * 4;
  return [img.bitmap[i + 2], img.bitmap[i + 1], img.bitmap[i], img.bitmap[i + 3]];
};

describe('desktop settings', () => {
  it('default to close to tray off macOS only, are kept in a file, and a broken file means defaults', () => {
    const file = path.join(dir, 'desktop-settings.json');
    expect(new DesktopSettingsStore(file, 'linux').get()).toEqual({ close_to_tray: true, start_at_login: false, do_not_disturb: false, spellcheck: true, spellcheck_languages: [], update_feed_url: '' });
    expect(new DesktopSettingsStore(file, 'win32').get().close_to_tray).toBe(true);
    expect(new DesktopSettingsStore(file, 'darwin').get().close_to_tray).toBe(false);
    new DesktopSettingsStore(file, 'linux').set({ start_at_login: true });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ close_to_tray: true, start_at_login: true, do_not_disturb: false, spellcheck: true, spellcheck_languages: [], update_feed_url: '' });
    expect(new DesktopSettingsStore(file, 'linux').get().start_at_login).toBe(true);
    writeFileSync(file, '{"close_to_tray": "yes"');
    expect(new DesktopSettingsStore(file, 'linux').get()).toEqual({ close_to_tray: true, start_at_login: false, do_not_disturb: false, spellcheck: true, spellcheck_languages: [], update_feed_url: '' });
  });

  it('over IPC: our page reads and patches them; another sender and an unknown key are refused', async () => {
    const store = new DesktopSettingsStore(path.join(dir, 's.json'), 'linux');
    const win = new BrowserWindow({});
    win.webContents.mainFrame.url = OWN;
    const dispose = handleDesktopSettings(store, { window: () => win as never, isOwnUrl: (u) => u === OWN });
    const h = ipcMain.handlers.get(IPC_DESKTOP_SETTINGS)!;
    const call = (payload: unknown, sender = win.webContents) => h({ sender, senderFrame: sender.mainFrame } as never, payload as never);
    expect(await call(null)).toEqual({ ok: true, value: { close_to_tray: true, start_at_login: false, do_not_disturb: false, spellcheck: true, spellcheck_languages: [], available_spellcheck_languages: [], update_feed_url: '' } });
    expect(await call({ close_to_tray: false })).toEqual({ ok: true, value: { close_to_tray: false, start_at_login: false, do_not_disturb: false, spellcheck: true, spellcheck_languages: [], available_spellcheck_languages: [], update_feed_url: '' } });
    expect(await call({ open_devtools: true })).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST' } });
    expect(await call({ close_to_tray: 'no' })).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST' } });
    const other = new BrowserWindow({});
    other.webContents.mainFrame.url = OWN;
    expect(await call({ do_not_disturb: true }, other.webContents)).toMatchObject({ ok: false, error: { message: expect.stringContaining('refused') } });
    expect(store.get().do_not_disturb).toBe(false);
    dispose();
    expect(ipcMain.handlers.has(IPC_DESKTOP_SETTINGS)).toBe(false);
  });
});

describe('the unread count on the desktop', () => {
  it('draws a red overlay with the count in white, 9+ above nine; the tray icon gets a red dot', () => {
    const one = overlayBitmap(3);
    expect(one.bitmap).toHaveLength(16 * 16 * 4);
    expect(pixel(one, 8, 2)).toEqual([0xd9, 0x30, 0x25, 0xff]);
    expect(pixel(one, 0, 0)[3]).toBe(0); // outside the disc: transparent
    const white = (img: ReturnType<typeof overlayBitmap>) => Array.from({ length: 256 }, (_, i) => pixel(img, i % 16, Math.floor(i / 16))).filter((p) => p[0] === 0xff && p[1] === 0xff).length;
    expect(white(one)).toBeGreaterThan(0);
    expect(white(overlayBitmap(3))).not.toBe(white(overlayBitmap(8)));
    expect(white(overlayBitmap(12))).toBe(white(overlayBitmap(99)));
    expect(pixel(trayBitmap(0), 25, 7)).not.toEqual(pixel(trayBitmap(4), 25, 7));
    expect(pixel(trayBitmap(4), 25, 7)).toEqual([0xd9, 0x30, 0x25, 0xff]);
  });

  it('shows in the title, the badge, the Windows overlay and the tray, whose menu shows and quits', () => {
    const win = new BrowserWindow({});
    const show = vi.fn();
    const quit = vi.fn();
    const display = startUnreadDisplay({ window: () => win as never, show, quit, platform: 'win32' });
    display.attach(win as never);
    // The page's <title> does not replace ours.
    let prevented = false;
    win.emit('page-title-updated', { preventDefault: () => void (prevented = true) }, 'A page title');
    expect(prevented).toBe(true);
    const tray = fake.trays[0]!;
    expect(tray.tooltip).toBe('Zulip Offline');
    display.show(12);
    expect(win.title).toBe('(12) Zulip Offline');
    expect(app.setBadgeCount).toHaveBeenLastCalledWith(12);
    expect(win.overlay?.description).toBe('9+ unread');
    expect((win.overlay?.image as FakeImage).width).toBe(16);
    expect(tray.tooltip).toBe('Zulip Offline: 12 unread messages');
    expect(tray.labels()).toEqual(['Show Zulip Offline', '12 unread messages', 'Quit']);
    display.show(0);
    expect(win.title).toBe('Zulip Offline');
    expect(win.overlay).toEqual({ image: null, description: '' });
    expect(tray.labels()).toContain('No unread messages');
    tray.clickItem('Show Zulip Offline');
    tray.emit('click');
    expect(show).toHaveBeenCalledTimes(2);
    tray.clickItem('Quit');
    expect(quit).toHaveBeenCalledTimes(1);
    display.close();
    expect(tray.destroyed).toBe(true);
  });
});

describe('desktop notifications from main', () => {
  const event: EngineEvent = {
    type: 'notifications',
    items: [{ message_id: 7, reason: 'dm', sender: 'Othello', title: 'Othello', body: 'Are you there?', silent: false, target: { kind: 'dm', user_ids: [4, 9] } }],
    summary: null,
    account_id: 'org-a',
  };

  function setup(opts: { focused?: boolean; dnd?: boolean } = {}) {
    let push: (e: EngineEvent) => void = () => undefined;
    const win = new BrowserWindow({});
    win.shown = true;
    win.hasFocus = opts.focused ?? false;
    const open = vi.fn();
    const closed = vi.fn();
    const n = startDesktopNotifications({
      service: { connect: (p) => ((push = p), { invoke: async () => ({ ok: true, value: null }), close: closed }) },
      window: () => win as never,
      doNotDisturb: () => opts.dnd ?? false,
      open,
    });
    return { push: (e: EngineEvent) => push(e), open, closed, n, win };
  }

  it('shows one in the background; a click opens the conversation; the same message replaces it', () => {
    const s = setup();
    s.push(event);
    expect(fake.notifications.map((x) => [x.options.title, x.options.body, x.shown])).toEqual([['Othello', 'Are you there?', true]]);
    s.push(event);
    expect(fake.notifications[0]!.closed).toBe(true);
    fake.notifications[1]!.emit('click');
    // With the organisation it came from, which main shows first.
    expect(s.open).toHaveBeenCalledWith({ kind: 'dm', user_ids: [4, 9] }, 'org-a');
    s.n.close();
    expect(s.closed).toHaveBeenCalled();
  });

  it('none while the window is focused, in Do Not Disturb, or where the system has none; a summary opens the Inbox', () => {
    setup({ focused: true }).push(event);
    setup({ dnd: true }).push(event);
    fake.notificationsSupported = false;
    setup().push(event);
    expect(fake.notifications).toHaveLength(0);
    fake.notificationsSupported = true;
    const s = setup();
    s.win.hasFocus = true;
    s.win.shown = false; // hidden in the tray: focus does not count
    s.push({ type: 'notifications', items: [], summary: { count: 12, senders: ['Iago', 'Othello', 'Cordelia'] } });
    expect(fake.notifications.map((x) => x.options.title)).toEqual(['12 new messages']);
    fake.notifications[0]!.emit('click');
    expect(s.open).toHaveBeenCalledWith({ kind: 'inbox' }, undefined);
  });
});

describe('close to tray (the app wired)', () => {
  it('closing the window hides it while the app runs on; Quit from the tray closes the engine and quits', async () => {
    app.userData = dir;
    startApp(['electron', '.']);
    await new Promise((r) => setTimeout(r, 0));
    const win = fake.windows[0]!;
    win.show();
    win.close();
    expect(win.isDestroyed()).toBe(false);
    expect(win.shown).toBe(false);
    expect(app.quitting).toBe(false);
    fake.trays[0]!.clickItem('Show Zulip Offline');
    expect(win.shown).toBe(true);
    // Start at login follows the setting, through the page's IPC.
    win.webContents.mainFrame.url = `file://${path.join('/opt/zulip-offline', 'out', 'renderer', 'index.html')}`;
    const h = ipcMain.handlers.get(IPC_DESKTOP_SETTINGS)!;
    await h({ sender: win.webContents, senderFrame: win.webContents.mainFrame } as never, { start_at_login: true } as never);
    expect(app.setLoginItemSettings).toHaveBeenCalledWith({ openAtLogin: true });
    fake.trays[0]!.clickItem('Quit');
    await until(() => app.quitting, 15_000, 'the app to quit');
    expect(win.isDestroyed()).toBe(true);
    expect(fake.trays[0]!.destroyed).toBe(true);
    expect(ipcMain.handlers.size).toBe(0);
  });
});
