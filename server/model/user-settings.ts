/**
 * Personal settings (PATCH /settings, register's `user_settings`): Zulip's defaults, stored
 * values in `user_settings` (only those a user changed), and each setting's allowed values.
 * `timezone` lives on the user row; `getUserSettings` merges it in. The language table and the
 * whole-number bounds are common/user-settings.ts (the settings screen offers the same).
 */
import type { ServerState } from '../state.js';
import { getUser } from './users.js';

/** Every setting of PATCH /settings with Zulip's default (UserBaseSettings). */
export const USER_SETTING_DEFAULTS = {
  // Display and behavior
  twenty_four_hour_time: false,
  web_mark_read_on_scroll_policy: 1,
  web_channel_default_view: 1,
  starred_message_counts: true,
  receives_typing_notifications: true,
  web_suggest_update_timezone: true,
  fluid_layout_width: false,
  high_contrast_mode: false,
  web_font_size_px: 16,
  web_line_height_percent: 140,
  color_scheme: 1,
  enable_drafts_synchronization: true,
  translate_emoticons: false,
  display_emoji_reaction_users: true,
  default_language: 'en',
  web_home_view: 'inbox',
  web_escape_navigates_to_home_view: true,
  left_side_userlist: false,
  emojiset: 'google',
  demote_inactive_streams: 1,
  user_list_style: 3,
  web_animate_image_previews: 'on_hover',
  web_stream_unreads_count_display_policy: 2,
  hide_ai_features: false,
  web_left_sidebar_show_channel_folders: true,
  web_left_sidebar_unreads_count_summary: true,
  web_navigate_to_sent_message: true,
  enter_sends: false,
  // Notifications
  enable_stream_desktop_notifications: false,
  enable_stream_email_notifications: false,
  enable_stream_push_notifications: false,
  enable_stream_audible_notifications: false,
  notification_sound: 'zulip',
  enable_desktop_notifications: true,
  enable_sounds: true,
  email_notifications_batching_period_seconds: 120,
  enable_offline_email_notifications: true,
  enable_offline_push_notifications: true,
  enable_online_push_notifications: true,
  enable_followed_topic_desktop_notifications: true,
  enable_followed_topic_email_notifications: true,
  enable_followed_topic_push_notifications: true,
  enable_followed_topic_audible_notifications: true,
  enable_digest_emails: true,
  enable_marketing_emails: true,
  enable_login_emails: true,
  message_content_in_email_notifications: true,
  pm_content_in_desktop_notifications: true,
  wildcard_mentions_notify: true,
  enable_followed_topic_wildcard_mentions_notify: true,
  desktop_icon_count_display: 1,
  realm_name_in_email_notifications_policy: 1,
  automatically_follow_topics_policy: 3,
  automatically_unmute_topics_in_muted_streams_policy: 2,
  automatically_follow_topics_where_mentioned: true,
  resolved_topic_notice_auto_read_policy: 'except_followed',
  presence_enabled: true,
  // Privacy
  send_private_typing_notifications: true,
  send_stream_typing_notifications: true,
  send_read_receipts: true,
  allow_private_data_export: false,
  email_address_visibility: 1,
} as const satisfies Record<string, boolean | number | string>;

type Widen<T> = T extends boolean ? boolean : T extends number ? number : T extends string ? string : never;
export type StoredUserSettings = { -readonly [K in keyof typeof USER_SETTING_DEFAULTS]: Widen<(typeof USER_SETTING_DEFAULTS)[K]> };
export type UserSettingName = keyof StoredUserSettings;
/** What register's `user_settings` and GET-style readers see: the stored settings plus `timezone`. */
export type UserSettings = StoredUserSettings & { timezone: string };

export const USER_SETTING_NAMES = Object.keys(USER_SETTING_DEFAULTS) as UserSettingName[];

export function isUserSettingName(name: string): name is UserSettingName {
  return Object.hasOwn(USER_SETTING_DEFAULTS, name);
}

/** Allowed values of the enumerated settings (spec tables; the spec's set wins where it differs). */
export const USER_SETTING_CHOICES: Partial<Record<UserSettingName, readonly (number | string)[]>> = {
  web_mark_read_on_scroll_policy: [1, 2, 3],
  web_channel_default_view: [1, 2, 4],
  color_scheme: [1, 2, 3],
  web_home_view: ['recent_topics', 'inbox', 'all_messages'],
  emojiset: ['google', 'twitter', 'text'],
  demote_inactive_streams: [1, 2, 3],
  user_list_style: [1, 2, 3],
  web_animate_image_previews: ['always', 'on_hover', 'never'],
  web_stream_unreads_count_display_policy: [1, 2, 3],
  desktop_icon_count_display: [1, 2, 3, 4],
  realm_name_in_email_notifications_policy: [1, 2, 3],
  automatically_follow_topics_policy: [1, 2, 3, 4],
  automatically_unmute_topics_in_muted_streams_policy: [1, 2, 3, 4],
  resolved_topic_notice_auto_read_policy: ['always', 'except_followed', 'never'],
  email_address_visibility: [1, 2, 3, 4, 5],
};

/** Notification sounds the server offers (`none` also accepted), as register's available_notification_sounds. */
export const NOTIFICATION_SOUNDS = ['chime-short', 'chime', 'ding', 'zulip'] as const;

/** An IANA name's shape: `Area/Location[/Sub]`, or a single word like `UTC`, `EST5EDT`, `Etc/GMT+5`. */
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;
let listedByLowerCase: Map<string, string> | undefined;

/**
 * IANA time zones the server accepts (and `""` for "not set"). `Intl.supportedValuesOf` is not the
 * test: Node 20's ICU lists only the older spellings (`Asia/Calcutta`, `Europe/Kiev`), so the
 * current names real Zulip accepts (`Asia/Kolkata`, `Europe/Kyiv`) would be refused. Any name the
 * runtime can format with is accepted instead, provided it looks like an IANA name (newer runtimes
 * also format offsets such as `+05:30`, which are not zone names) and is not a differently cased
 * spelling of a listed zone (ICU matches case-insensitively; Zulip's `zoneinfo` does not).
 */
export function isValidTimezone(tz: string): boolean {
  if (tz === '') return true;
  if (tz.length > 64 || !IANA_NAME.test(tz)) return false;
  listedByLowerCase ??= new Map(Intl.supportedValuesOf('timeZone').map((z) => [z.toLowerCase(), z]));
  const listed = listedByLowerCase.get(tz.toLowerCase());
  if (listed !== undefined && listed !== tz) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export function getUserSettings(srv: ServerState, userId: number): UserSettings {
  const rows = srv.db.prepare('SELECT name, value FROM user_settings WHERE user_id = ?').all(userId) as Array<{ name: string; value: string }>;
  const out: Record<string, unknown> = { ...USER_SETTING_DEFAULTS };
  for (const r of rows) if (isUserSettingName(r.name)) out[r.name] = JSON.parse(r.value);
  out.timezone = getUser(srv, userId)?.timezone ?? '';
  return out as UserSettings;
}

export function getUserSetting<K extends keyof UserSettings>(srv: ServerState, userId: number, name: K): UserSettings[K] {
  if (name === 'timezone') return (getUser(srv, userId)?.timezone ?? '') as UserSettings[K];
  const raw = srv.db.prepare('SELECT value FROM user_settings WHERE user_id = ? AND name = ?').pluck().get(userId, name) as string | undefined;
  return (raw === undefined ? USER_SETTING_DEFAULTS[name as UserSettingName] : JSON.parse(raw)) as UserSettings[K];
}

/** Stores one setting (`timezone` goes to the user row). No event: callers emit `user_settings`. */
export function setUserSetting(srv: ServerState, userId: number, name: keyof UserSettings, value: boolean | number | string): void {
  if (name === 'timezone') {
    srv.db.prepare('UPDATE users SET timezone = ? WHERE id = ?').run(value, userId);
    return;
  }
  srv.db
    .prepare('INSERT INTO user_settings (user_id, name, value) VALUES (?, ?, ?) ON CONFLICT(user_id, name) DO UPDATE SET value = excluded.value')
    .run(userId, name, JSON.stringify(value));
}
