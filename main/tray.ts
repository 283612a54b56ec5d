/**
 * Where the unread count shows besides the page (the count itself is main/badge.ts's):
 *   - the window title, "(3) Zulip Offline" (the page's own <title> does not replace it);
 *   - the dock / launcher badge (`app.setBadgeCount`: macOS dock, Linux Unity launchers);
 *   - Windows' taskbar: an overlay icon drawn with the count (main/unread-image.ts);
 *   - the tray icon: a red dot on it, the count in its tooltip (and its title on macOS' menu bar),
 *     and its menu: Show, the count, Quit.
 * A click on the tray icon (or Show) brings the window back; Quit quits for real (the engine closes
 * first: main/app.ts), also when closing the window only hides it (close to tray).
 */
import { app, Menu, nativeImage, Tray, type BrowserWindow } from 'electron';
import { overlayBitmap, overlayText, trayBitmap, type RawImage } from './unread-image.js';

export interface UnreadDisplayOptions {
  readonly window: () => BrowserWindow | undefined;
  /** Bring the window back (creating it if it was closed). */
  readonly show: () => void;
  readonly quit: () => void;
  readonly platform?: NodeJS.Platform;
}

const image = (raw: RawImage) => nativeImage.createFromBitmap(raw.bitmap, { width: raw.width, height: raw.height });

export function unreadLabel(count: number): string {
  if (count === 0) return 'No unread messages';
  return count === 1 ? '1 unread message' : `${count} unread messages`;
}

export function windowTitle(appName: string, count: number): string {
  return count > 0 ? `(${count}) ${appName}` : appName;
}

export function startUnreadDisplay(opts: UnreadDisplayOptions): { show(count: number): void; attach(win: BrowserWindow): void; close(): void } {
  const platform = opts.platform ?? process.platform;
  const name = app.getName();
  let count = 0;
  // macOS' menu bar is about 16 pt tall; other trays scale a 32 px image down as they need.
  const traySize = platform === 'darwin' ? 16 : 32;
  const tray = new Tray(image(trayBitmap(0, traySize)));
  tray.on('click', () => opts.show());

  const paintWindow = (win: BrowserWindow) => {
    if (win.isDestroyed()) return;
    win.setTitle(windowTitle(name, count));
    if (platform === 'win32') win.setOverlayIcon(count > 0 ? image(overlayBitmap(count)) : null, count > 0 ? `${overlayText(count)} unread` : '');
  };

  const show = (n: number) => {
    count = n;
    app.setBadgeCount(n);
    const win = opts.window();
    if (win) paintWindow(win);
    tray.setImage(image(trayBitmap(n, traySize)));
    tray.setToolTip(n > 0 ? `${name}: ${unreadLabel(n)}` : name);
    if (platform === 'darwin') tray.setTitle(n > 0 ? String(n) : '');
    tray.setContextMenu(
      Menu.buildFromTemplate([
        { label: `Show ${name}`, click: () => opts.show() },
        { label: unreadLabel(n), enabled: false },
        { type: 'separator' },
        { label: 'Quit', click: () => opts.quit() },
      ]),
    );
  };
  show(0);

  return {
    show,
    /** A new window: keep its title ours and paint the count on it. */
    attach(win) {
      win.on('page-title-updated', (e) => e.preventDefault());
      paintWindow(win);
    },
    close: () => tray.destroy(),
  };
}
