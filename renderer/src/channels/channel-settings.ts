/**
 * Pure: a subscribed channel's personal settings as the channel menu and the channel's page offer
 * them (Zulip web's "Personal" settings): muted, pinned, colour and the five notification toggles.
 * A notification toggle whose channel value is null follows the user's default for channels.
 */
import type { SubscriptionSettings } from '../../../sync/protocol/commands.js';


type NotificationProperty = 'desktop_notifications' | 'audible_notifications' | 'push_notifications' | 'email_notifications' | 'wildcard_mentions_notify';

/** The notification toggles: the channel's setting, its label, and the user's default it follows while unset. */
export const NOTIFICATION_TOGGLES: readonly { property: NotificationProperty; label: string; userDefault: string }[] = [
  { property: 'desktop_notifications', label: 'Desktop notifications', userDefault: 'enable_stream_desktop_notifications' },
  { property: 'audible_notifications', label: 'Audible desktop notifications', userDefault: 'enable_stream_audible_notifications' },
  { property: 'push_notifications', label: 'Mobile notifications', userDefault: 'enable_stream_push_notifications' },
  { property: 'email_notifications', label: 'Email notifications', userDefault: 'enable_stream_email_notifications' },
  { property: 'wildcard_mentions_notify', label: 'Notify for @all and @everyone mentions', userDefault: 'wildcard_mentions_notify' },
];

/** Whether a toggle is on: the channel's own value, else the user's default (off when unknown). */
export function notificationOn(personal: SubscriptionSettings, toggle: (typeof NOTIFICATION_TOGGLES)[number], userSettings: Readonly<Record<string, unknown>> | null): boolean {
  return personal[toggle.property] ?? userSettings?.[toggle.userDefault] === true;
}

/** The colours the channel menu offers (the first of Zulip's channel colours), by name. */
export const CHANNEL_COLORS: readonly { name: string; color: string }[] = [
  { name: 'green', color: '#76ce90' },
  { name: 'yellow', color: '#fae589' },
  { name: 'blue', color: '#a6c7e5' },
  { name: 'pink', color: '#e79ab5' },
  { name: 'lime', color: '#bfd56f' },
  { name: 'orange', color: '#f4ae55' },
  { name: 'lavender', color: '#b0a5fd' },
  { name: 'red', color: '#e4523d' },
  { name: 'grey', color: '#c2c2c2' },
  { name: 'cobalt', color: '#4f8de4' },
];

/** A `#rrggbb` colour for a colour input (the server also takes `#rgb`). */
export function colorInputValue(color: string | null): string {
  if (color === null) return '#c2c2c2';
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(color);
  return short ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase() : color.toLowerCase();
}
