/**
 * What the page shows for the engine's `notifications` event: the rules are shared with the
 * Electron main process (sync/protocol/notify.ts); the Do Not Disturb switch is the page's.
 */
export { notificationsToShow, type NotificationsEvent, type NotifyContext, type ShownNotification } from '../../../sync/protocol/notify.js';

/** The device's Do Not Disturb (kept in the page's storage, per device as zulip-desktop's). */
export const DND_KEY = 'zulip-offline.do-not-disturb';
