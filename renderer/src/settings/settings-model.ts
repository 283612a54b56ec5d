/**
 * Pure: the personal settings screen (`#settings/...`). Every parameter of the spec's
 * "PATCH /settings" has a control here: the account ones (`ACCOUNT_FIELDS`, changed online only
 * through `updateAccount`, so a password never rests in the outbox) and every display, behaviour
 * and notification setting (`SETTING_CONTROLS`, queued through `updateSettings`), each of the
 * right kind with the spec's allowed values in words, in Zulip's tabs and groups. Also: a
 * control's value as the engine has it locally, a typed value from what the user picked, and the
 * "not saved yet" / failed state of a setting from the outbox rows that carry it.
 */
import { LANGUAGES, USER_SETTING_RANGES } from '../../../common/user-settings.js';
import type { OutboxRowOf } from '../../../sync/outbox/registry.js';

export type SettingValue = string | number | boolean;

export const SETTINGS_TABS = [
  { id: 'account-and-privacy', label: 'Account & privacy' },
  { id: 'preferences', label: 'Preferences' },
  { id: 'notifications', label: 'Notifications' },
  { id: 'network', label: 'Network' },
] as const;
export type TabId = (typeof SETTINGS_TABS)[number]['id'];

/** `#settings` alone (or an unknown tab) opens the first tab, as Zulip web does. */
export function tabOf(rest: readonly string[]): TabId {
  return SETTINGS_TABS.find((t) => t.id === rest[0])?.id ?? SETTINGS_TABS[0].id;
}

export interface Choice {
  value: string | number;
  label: string;
}

/**
 * `switch` a checkbox; `select` a fixed enumeration; `number` a bounded whole number; `duration` a
 * select of periods in seconds; `timezone`, `language`, `sound` selects whose lists come from the
 * runtime, the language table or the server.
 */
export type ControlKind = 'switch' | 'select' | 'number' | 'duration' | 'timezone' | 'language' | 'sound';

export interface SettingControl {
  name: string;
  /** The accessible name. */
  label: string;
  hint?: string;
  tab: TabId;
  group: string;
  kind: ControlKind;
  choices?: readonly Choice[];
  min?: number;
  max?: number;
  unit?: string;
}

/** The account parameters: changed together with the server, never queued. */
export const ACCOUNT_FIELDS = [
  { name: 'full_name', label: 'Name' },
  { name: 'email', label: 'Email' },
  { name: 'old_password', label: 'Current password' },
  { name: 'new_password', label: 'New password' },
] as const;

/** A select's choices, each a value as the server takes it and its label. */
const choices = (...pairs: ReadonlyArray<readonly [string | number, string]>): Choice[] => pairs.map(([value, label]) => ({ value, label }));

/** Zulip's delays before a message notification email (seconds). */
export const EMAIL_BATCHING_CHOICES: readonly Choice[] = choices(
  [120, '2 minutes'],
  [300, '5 minutes'],
  [600, '10 minutes'],
  [1800, '30 minutes'],
  [3600, '1 hour'],
  [21600, '6 hours'],
  [86400, '1 day'],
  [604800, '1 week'],
);

const sw = (tab: TabId, group: string, name: string, label: string, hint?: string): SettingControl => ({ name, label, tab, group, kind: 'switch', ...(hint ? { hint } : {}) });
const sel = (tab: TabId, group: string, name: string, label: string, options: readonly Choice[], hint?: string): SettingControl => ({ ...sw(tab, group, name, label, hint), kind: 'select', choices: options });

/**
 * The five notifications Zulip offers alike for channel messages (`enable_stream_desktop_notifications`,
 * `_audible_`, `_push_`, `_email_`, and `wildcard_mentions_notify`) and for followed topics
 * (`enable_followed_topic_desktop_notifications` and so on, and
 * `enable_followed_topic_wildcard_mentions_notify`): one group of switches, `what` in each label.
 */
function notifyIn(group: string, what: string, where: 'stream' | 'followed_topic', wildcard: string): SettingControl[] {
  const way = (name: string, words: string) => sw('notifications', group, name, `${what}: ${words}`);
  return [
    way(`enable_${where}_desktop_notifications`, 'desktop notifications'),
    way(`enable_${where}_audible_notifications`, 'audible desktop notifications'),
    way(`enable_${where}_push_notifications`, 'mobile notifications'),
    way(`enable_${where}_email_notifications`, 'email notifications'),
    way(wildcard, 'notify for @all and @everyone mentions'),
  ];
}

/** Every display, behaviour and notification setting of PATCH /settings, in Zulip's tabs and groups. */
export const SETTING_CONTROLS: readonly SettingControl[] = [
  // Account & privacy
  sw('account-and-privacy', 'Privacy', 'receives_typing_notifications', 'Show when other people are typing'),

  // Preferences › General
  { name: 'default_language', label: 'Language', tab: 'preferences', group: 'General', kind: 'language', hint: 'The language of the web app and of emails from the server.' },
  sw('preferences', 'General', 'twenty_four_hour_time', 'Use 24-hour time'),
  { name: 'timezone', label: 'Time zone', tab: 'preferences', group: 'General', kind: 'timezone' },
  sw('preferences', 'General', 'web_suggest_update_timezone', 'Offer to update my time zone when my computer’s differs'),
  sel('preferences', 'General', 'color_scheme', 'Theme', choices([1, 'Automatic (follow the system)'], [2, 'Dark'], [3, 'Light'])),
  { name: 'web_font_size_px', label: 'Font size', tab: 'preferences', group: 'General', kind: 'number', ...USER_SETTING_RANGES.web_font_size_px, unit: 'px' },
  { name: 'web_line_height_percent', label: 'Line spacing', tab: 'preferences', group: 'General', kind: 'number', ...USER_SETTING_RANGES.web_line_height_percent, unit: '%' },
  sw('preferences', 'General', 'fluid_layout_width', 'Use the full width of wide screens'),
  sw('preferences', 'General', 'high_contrast_mode', 'High contrast mode'),
  sel('preferences', 'General', 'web_animate_image_previews', 'Play animated images', choices(['always', 'Always'], ['on_hover', 'On hover'], ['never', 'Never'])),
  sw('preferences', 'General', 'enable_drafts_synchronization', 'Save drafts on the server', 'Turning this off deletes the drafts the server keeps.'),
  sw('preferences', 'General', 'hide_ai_features', 'Hide AI features'),

  // Preferences › Emoji
  sel('preferences', 'Emoji', 'emojiset', 'Emoji theme', choices(['google', 'Google'], ['twitter', 'Twitter'], ['text', 'Plain text'])),
  sw('preferences', 'Emoji', 'translate_emoticons', 'Convert emoticons before sending (:) becomes 😃)'),
  sw('preferences', 'Emoji', 'display_emoji_reaction_users', 'Show the names of the people who reacted when few did'),

  // Preferences › Navigation
  sel('preferences', 'Navigation', 'web_home_view', 'Home view', choices(['recent_topics', 'Recent conversations'], ['inbox', 'Inbox'], ['all_messages', 'Combined feed'])),
  sw('preferences', 'Navigation', 'web_escape_navigates_to_home_view', 'Escape key goes to the home view'),
  sel('preferences', 'Navigation', 'web_channel_default_view', 'Channel links go to', choices([1, 'Top topic in the channel'], [2, 'Channel feed'], [4, 'Top unread topic in the channel'])),

  // Preferences › Sidebars
  sel('preferences', 'Sidebars', 'demote_inactive_streams', 'Demote inactive channels', choices([1, 'Automatic'], [2, 'Always'], [3, 'Never'])),
  sel('preferences', 'Sidebars', 'web_stream_unreads_count_display_policy', 'Show unread counts for', choices([1, 'All channels'], [2, 'Unmuted channels and topics'], [3, 'No channels'])),
  sw('preferences', 'Sidebars', 'starred_message_counts', 'Show the count of starred messages'),
  sel('preferences', 'Sidebars', 'user_list_style', 'User list style', choices([1, 'Compact'], [2, 'With status'], [3, 'With avatar and status'])),
  sw('preferences', 'Sidebars', 'left_side_userlist', 'Show the user list in the left sidebar in narrow windows'),

  // Notifications › Channels and followed topics
  ...notifyIn('Channels', 'Channel messages', 'stream', 'wildcard_mentions_notify'),
  ...notifyIn('Followed topics', 'Followed topics', 'followed_topic', 'enable_followed_topic_wildcard_mentions_notify'),

  // Notifications › Desktop
  sw('notifications', 'Desktop', 'enable_desktop_notifications', 'Desktop notifications for direct messages and mentions'),
  sw('notifications', 'Desktop', 'enable_sounds', 'Audible desktop notifications for direct messages and mentions'),
  { name: 'notification_sound', label: 'Notification sound', tab: 'notifications', group: 'Desktop', kind: 'sound' },
  sw('notifications', 'Desktop', 'pm_content_in_desktop_notifications', 'Show message content in direct message notifications'),
  sel('notifications', 'Desktop', 'desktop_icon_count_display', 'Unread count on the app icon', choices([1, 'All unread messages'], [2, 'Direct messages, mentions and followed topics'], [3, 'Direct messages and mentions'], [4, 'None'])),

  // Notifications › Mobile
  sw('notifications', 'Mobile', 'enable_offline_push_notifications', 'Mobile notifications for direct messages and mentions'),
  sw('notifications', 'Mobile', 'enable_online_push_notifications', 'Send mobile notifications even while I am online'),

  // Notifications › Email
  sw('notifications', 'Email', 'enable_offline_email_notifications', 'Email notifications for direct messages and mentions'),
  { name: 'email_notifications_batching_period_seconds', label: 'Delay before message notification emails', tab: 'notifications', group: 'Email', kind: 'duration', choices: EMAIL_BATCHING_CHOICES },
  sw('notifications', 'Email', 'message_content_in_email_notifications', 'Include message content in notification emails'),
  sw('notifications', 'Email', 'enable_digest_emails', 'Send digest emails while I am away'),
  sw('notifications', 'Email', 'enable_login_emails', 'Email me about new logins to my account'),
  sw('notifications', 'Email', 'enable_marketing_emails', 'Send me the low-traffic newsletter'),
];

/** Every PATCH /settings parameter the screen offers: the account fields and the settings. */
export function settingParameters(): string[] {
  return [...ACCOUNT_FIELDS.map((f) => f.name), ...SETTING_CONTROLS.map((c) => c.name)];
}

export function controlOf(name: string): SettingControl | undefined {
  return SETTING_CONTROLS.find((c) => c.name === name);
}

/** A setting's name in words (the outbox panel's rows), or the name itself when unknown. */
export function settingLabel(name: string): string {
  return controlOf(name)?.label ?? ACCOUNT_FIELDS.find((f) => f.name === name)?.label ?? name;
}

/** Where the first of these settings is changed (the first tab when none is known). */
export function settingsHref(names: readonly string[]): string {
  const tab = names.map((n) => controlOf(n)?.tab).find((t) => t !== undefined) ?? SETTINGS_TABS[0].id;
  return `#settings/${tab}`;
}

/** A tab's controls by group, in order. */
export function groupsOf(tab: TabId): Array<{ group: string; controls: SettingControl[] }> {
  const out: Array<{ group: string; controls: SettingControl[] }> = [];
  for (const c of SETTING_CONTROLS) {
    if (c.tab !== tab) continue;
    const g = out.find((x) => x.group === c.group);
    if (g) g.controls.push(c);
    else out.push({ group: c.group, controls: [c] });
  }
  return out;
}

/** A duration in seconds, in words (for a batching period no choice names). */
export function durationWords(seconds: number): string {
  const units: Array<[number, string]> = [
    [604800, 'week'],
    [86400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, unit] of units) {
    if (seconds >= size && seconds % size === 0) {
      const n = seconds / size;
      return `${n} ${unit}${n === 1 ? '' : 's'}`;
    }
  }
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

/** A sound's name in words: `chime-short` → `Chime short`. */
export function soundLabel(sound: string): string {
  if (sound === 'none') return 'None';
  const words = sound.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The local value of a setting (`recent`, the FL 454 name, shown as Recent conversations). */
export function currentValue(c: SettingControl, raw: Readonly<Record<string, unknown>> | null): unknown {
  const v = raw?.[c.name];
  if (c.name === 'web_home_view' && v === 'recent') return 'recent_topics';
  return v;
}

export interface ChoiceSources {
  /** IANA zone names (Intl.supportedValuesOf('timeZone') in the page). */
  timeZones: readonly string[];
}

/**
 * A select's options; a current value none of them names (set by a newer server or client) is
 * listed too, so the control never shows something the user did not pick.
 */
export function choicesFor(c: SettingControl, raw: Readonly<Record<string, unknown>> | null, src: ChoiceSources): Choice[] {
  let list: Choice[];
  switch (c.kind) {
    case 'timezone':
      list = [{ value: '', label: 'Not set' }, ...src.timeZones.map((z) => ({ value: z, label: z.replaceAll('_', ' ') }))];
      break;
    case 'language':
      list = Object.entries(LANGUAGES).map(([code, name]) => ({ value: code, label: `${name} (${code})` }));
      break;
    case 'sound': {
      const offered = raw?.available_notification_sounds;
      const sounds = Array.isArray(offered) ? offered.filter((s): s is string => typeof s === 'string') : [];
      list = [...sounds.map((s) => ({ value: s, label: soundLabel(s) })), { value: 'none', label: 'None' }];
      break;
    }
    default:
      list = [...(c.choices ?? [])];
  }
  const v = currentValue(c, raw);
  if ((typeof v === 'string' || typeof v === 'number') && !list.some((x) => x.value === v)) {
    const label = c.kind === 'duration' && typeof v === 'number' ? durationWords(v) : c.kind === 'sound' && typeof v === 'string' ? soundLabel(v) : `${String(v)} (set elsewhere)`;
    list.push({ value: v, label });
  }
  return list;
}

export type Parsed = { ok: true; value: SettingValue } | { ok: false; error: string };

/**
 * What the user picked as the setting's typed value: a checkbox's boolean; a select's option
 * (by its string form, as the DOM gives it); a number within its bounds.
 */
export function parseInput(c: SettingControl, input: string | boolean, choices: readonly Choice[]): Parsed {
  if (c.kind === 'switch') return typeof input === 'boolean' ? { ok: true, value: input } : { ok: false, error: `${c.label}: on or off` };
  if (typeof input !== 'string') return { ok: false, error: `${c.label}: not a value` };
  if (c.kind === 'number') {
    const text = input.trim();
    const n = Number(text);
    const bounds = `${c.label} must be a whole number from ${c.min ?? '…'} to ${c.max ?? '…'}${c.unit ? ` ${c.unit}` : ''}.`;
    if (text === '' || !Number.isInteger(n)) return { ok: false, error: bounds };
    if ((c.min !== undefined && n < c.min) || (c.max !== undefined && n > c.max)) return { ok: false, error: bounds };
    return { ok: true, value: n };
  }
  const choice = choices.find((x) => String(x.value) === input);
  return choice ? { ok: true, value: choice.value } : { ok: false, error: `${c.label}: “${input}” is not one of the choices.` };
}

export const SETTINGS_KIND = 'update_settings';

export type SettingMark =
  | { status: 'pending'; outboxId: number }
  /** `others`: the other settings the same row carries (Retry and Discard act on all of them). */
  | { status: 'failed'; outboxId: number; message: string; others: string[] };

const finished = (r: OutboxRowOf) => r.state === 'done' || r.state === 'discarded';
const isFailed = (r: OutboxRowOf) => r.state === 'failed' || r.state === 'conflict';

/** The settings a row changes: an `update_settings` row's names; none for other rows. */
function settingsOf(r: OutboxRowOf): string[] {
  return r.kind === SETTINGS_KIND && r.args !== null ? Object.keys(r.args) : [];
}

/**
 * A setting's state in the outbox: failed (the first failed row that carries it, with the
 * server's words) before pending (any unfinished one), null when everything is on the server.
 */
export function settingMark(rows: readonly OutboxRowOf[], name: string): SettingMark | null {
  // Object.keys, not Object.hasOwn: the rows may be a Solid store, whose proxies track the keys a
  // read lists (ownKeys) but not a single own-property check, so a setting merged into a queued row
  // would not be noticed.
  const carrying = rows.filter((r) => !finished(r) && settingsOf(r).includes(name));
  const failed = carrying.find(isFailed);
  if (failed) {
    return {
      status: 'failed',
      outboxId: failed.outbox_id,
      message: failed.last_error?.message ?? 'The server did not take this change.',
      others: settingsOf(failed).filter((k) => k !== name),
    };
  }
  const pending = carrying[carrying.length - 1];
  return pending ? { status: 'pending', outboxId: pending.outbox_id } : null;
}

/** What the account form sends, or why it cannot (checked before asking the server). */
export type AccountRequest = { ok: true; request: { full_name?: string; email?: string; old_password?: string; new_password?: string } } | { ok: false; error: string };

export function nameChange(current: string | null, input: string): AccountRequest {
  const name = input.trim();
  if (name === '') return { ok: false, error: 'Enter a name.' };
  if (name === current) return { ok: false, error: 'That is already your name.' };
  return { ok: true, request: { full_name: name } };
}

export function emailChange(current: string | null, input: string): AccountRequest {
  const email = input.trim();
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) return { ok: false, error: 'Enter an email address.' };
  if (email.toLowerCase() === current?.toLowerCase()) return { ok: false, error: 'That is already your email address.' };
  return { ok: true, request: { email } };
}

export function passwordChange(oldPassword: string, newPassword: string, repeated: string): AccountRequest {
  if (oldPassword === '') return { ok: false, error: 'Enter your current password.' };
  if (newPassword === '') return { ok: false, error: 'Enter a new password.' };
  if (newPassword !== repeated) return { ok: false, error: 'The new password and its repetition differ.' };
  return { ok: true, request: { old_password: oldPassword, new_password: newPassword } };
}
