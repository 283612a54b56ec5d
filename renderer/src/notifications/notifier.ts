/**
 * Desktop notifications: in a browser, the engine's `notifications` events shown with the Web
 * Notifications API; a click brings the window forward and opens the conversation. Do Not Disturb
 * is a per-device switch; the permission is asked for from the settings, by a click (browsers ask
 * only on a user's gesture). Under Electron the main process shows them (main/notify.ts, so they
 * come while the window is hidden in the tray too), Do Not Disturb is a desktop setting kept there,
 * and a click comes back as the preload's `onOpen` with the conversation to open.
 */
import { createSignal } from 'solid-js';
import type { Bridge } from '../core/bridge.js';
import { hashOfTarget } from '../data/target.js';
import { openTargetSchema, type OpenTarget } from '../../../sync/protocol/notify.js';
import { desktopSettings } from '../core/desktop-settings.js';
import { DND_KEY, notificationsToShow, type NotifyContext } from './notify-model.js';

const supported = () => typeof window !== 'undefined' && 'Notification' in window;
/** Electron: the main process shows the notifications. */
const fromMain = () => typeof window !== 'undefined' && typeof window.zulip?.onOpen === 'function';

const stored = (): boolean => {
  try {
    return window.localStorage.getItem(DND_KEY) === '1';
  } catch {
    return false;
  }
};
const [doNotDisturb, setDnd] = createSignal(stored());
const [permission, setPermission] = createSignal<NotifyContext['permission']>(fromMain() ? 'granted' : supported() ? Notification.permission : 'unsupported');

export const notificationPrefs = {
  doNotDisturb: (): boolean => (desktopSettings.available() ? (desktopSettings.get()?.do_not_disturb ?? false) : doNotDisturb()),
  setDoNotDisturb(on: boolean): void {
    if (desktopSettings.available()) {
      desktopSettings.set({ do_not_disturb: on }).catch((e: unknown) => console.warn('could not change Do Not Disturb', e));
      return;
    }
    setDnd(on);
    try {
      window.localStorage.setItem(DND_KEY, on ? '1' : '0');
    } catch {
      // Storage refused: the switch still holds for this page.
    }
  },
  permission,
  async requestPermission(): Promise<void> {
    if (!supported()) return;
    setPermission(await Notification.requestPermission());
  },
};

function hashOf(target: OpenTarget): string {
  if (target.kind === 'inbox') return '#inbox';
  if (target.kind === 'dm') return hashOfTarget({ kind: 'dm', userIds: target.user_ids });
  return hashOfTarget({ kind: 'topic', channelId: target.channel_id, channelName: target.channel_name, topic: target.topic });
}

/**
 * Show the engine's notifications while this page lives; returns the unsubscribe. Every signed-in
 * account notifies: a click on another one's first shows it (`show`), then opens the conversation.
 */
export function startNotifier(bridge: Pick<Bridge, 'subscribe'>, navigate: (hash: string) => void, show: (accountId: string) => Promise<void> = async () => undefined): () => void {
  const onOpen = window.zulip?.onOpen;
  if (typeof onOpen === 'function') {
    let live = true;
    onOpen((raw) => {
      const target = openTargetSchema.safeParse(raw);
      if (live && target.success) navigate(hashOf(target.data));
    });
    void desktopSettings.load().catch((e: unknown) => console.warn('could not read the desktop settings', e));
    return () => void (live = false);
  }
  return bridge.subscribe((e) => {
    if (e.type !== 'notifications' || !supported()) return;
    setPermission(Notification.permission);
    const shown = notificationsToShow(e, { focused: document.hasFocus(), doNotDisturb: doNotDisturb(), permission: permission() });
    for (const n of shown) {
      const note = new Notification(n.title, { body: n.body, tag: n.tag, silent: n.silent });
      note.onclick = () => {
        window.focus();
        note.close();
        const open = () => navigate(hashOf(n.target));
        if (e.account_id === undefined) open();
        else show(e.account_id).then(open, (err: unknown) => console.warn('could not show the organisation of a notification', err));
      };
    }
  });
}
