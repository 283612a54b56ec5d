/**
 * Desktop notifications under Electron, from the main process: the engine's `notifications` events
 * (sync/engine/notifications.ts decides which messages deserve one) shown with Electron's
 * `Notification`, by the rules the page uses in a browser (sync/protocol/notify.ts): not while the
 * window is focused, not in Do Not Disturb (a desktop setting, main/desktop-settings.ts). Main holds
 * its own engine client, so notifications come while the window is hidden in the tray or the page
 * is reloading. Every signed-in organisation notifies, shown or not; a click brings the window
 * back, shows that organisation and asks the page to open the conversation.
 *
 * Electron drops a notification's click handler when the object is garbage-collected, so the shown
 * ones are kept (by tag: the same message or the summary replaces the earlier one) until closed.
 */
import { Notification, type BrowserWindow } from 'electron';
import type { EngineEvent } from '../sync/protocol/commands.js';
import { notificationsToShow, type OpenTarget } from '../sync/protocol/notify.js';
import type { EngineClient } from '../sync/service/index.js';

export interface NotifyOptions {
  readonly service: { connect(push: (e: EngineEvent) => void): EngineClient };
  readonly window: () => BrowserWindow | undefined;
  readonly doNotDisturb: () => boolean;
  /** A notification was clicked: show the window, show the account it came from, and open `target` in the page. */
  readonly open: (target: OpenTarget, accountId: string | undefined) => void;
}

export function startDesktopNotifications(opts: NotifyOptions): { close(): void } {
  const shown = new Map<string, Notification>();
  const client = opts.service.connect((e) => {
    if (e.type !== 'notifications') return;
    const win = opts.window();
    const focused = win !== undefined && !win.isDestroyed() && win.isVisible() && win.isFocused();
    const permission = Notification.isSupported() ? 'granted' : 'unsupported';
    for (const n of notificationsToShow(e, { focused, doNotDisturb: opts.doNotDisturb(), permission })) {
      shown.get(n.tag)?.close();
      const note = new Notification({ title: n.title, body: n.body, silent: n.silent });
      shown.set(n.tag, note);
      note.on('click', () => {
        opts.open(n.target, e.account_id);
        note.close();
      });
      note.on('close', () => {
        if (shown.get(n.tag) === note) shown.delete(n.tag);
      });
      note.show();
    }
  });
  return {
    close: () => {
      client.close();
      shown.clear();
    },
  };
}
