/**
 * Desktop notifications: the engine's `notifications` events shown with the Web Notifications API
 * (in Electron too: its renderer's `Notification` is the system's). A click brings the window
 * forward and opens the conversation. Do Not Disturb is a per-device switch; the permission is asked
 * for from the settings, by a click (browsers ask only on a user's gesture).
 */
import { createSignal } from 'solid-js';
import type { Bridge } from '../core/bridge.js';
import { hashOfTarget } from '../data/target.js';
import { DND_KEY, notificationsToShow, type NotifyContext, type ShownNotification } from './notify-model.js';

const supported = () => typeof window !== 'undefined' && 'Notification' in window;

const stored = (): boolean => {
  try {
    return window.localStorage.getItem(DND_KEY) === '1';
  } catch {
    return false;
  }
};
const [doNotDisturb, setDnd] = createSignal(stored());
const [permission, setPermission] = createSignal<NotifyContext['permission']>(supported() ? Notification.permission : 'unsupported');

export const notificationPrefs = {
  doNotDisturb,
  setDoNotDisturb(on: boolean): void {
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

function hashOf(n: ShownNotification): string {
  if (n.target.kind === 'inbox') return '#inbox';
  if (n.target.kind === 'dm') return hashOfTarget({ kind: 'dm', userIds: n.target.user_ids });
  return hashOfTarget({ kind: 'topic', channelId: n.target.channel_id, channelName: n.target.channel_name, topic: n.target.topic });
}

/** Show the engine's notifications while this page lives; returns the unsubscribe. */
export function startNotifier(bridge: Pick<Bridge, 'subscribe'>, navigate: (hash: string) => void): () => void {
  return bridge.subscribe((e) => {
    if (e.type !== 'notifications' || !supported()) return;
    setPermission(Notification.permission);
    const shown = notificationsToShow(e, { focused: document.hasFocus(), doNotDisturb: doNotDisturb(), permission: permission() });
    for (const n of shown) {
      const note = new Notification(n.title, { body: n.body, tag: n.tag, silent: n.silent });
      note.onclick = () => {
        window.focus();
        navigate(hashOf(n));
        note.close();
      };
    }
  });
}
