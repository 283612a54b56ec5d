/**
 * PATCH /settings (and the deprecated aliases /settings/display and /settings/notifications):
 * account fields (full_name, email, password) and every personal setting, validated against its
 * allowed values before anything is written. One `user_settings` op `update` event per changed
 * property goes to the user's queues (+ the legacy `update_display_settings` /
 * `update_global_notifications` to queues without the `user_settings_object` capability).
 */
import { LANGUAGES, settingRange } from '../../common/user-settings.js';
import { emit } from '../events/emit.js';
import { badRequest, invalidParam } from '../http/errors.js';
import type { Params } from '../http/params.js';
import {
  getUserSettings,
  isValidTimezone,
  NOTIFICATION_SOUNDS,
  setUserSetting,
  USER_SETTING_CHOICES,
  USER_SETTING_DEFAULTS,
  USER_SETTING_NAMES,
  type UserSettingName,
} from '../model/user-settings.js';
import { changeFullName, checkFullName, EMAIL_RE, isStrongPassword } from '../model/accounts.js';
import { activeUserIds, getUserByEmail, hashPassword, verifyPassword, type UserRow } from '../model/users.js';
import type { ServerState } from '../state.js';
import { route, type ApiRouter, type Ctx } from './context.js';

/** Settings Zulip reported through `update_display_settings` before the user_settings object (FL 89). */
const LEGACY_DISPLAY = new Set([
  'color_scheme',
  'default_language',
  'web_home_view',
  'demote_inactive_streams',
  'emojiset',
  'enable_drafts_synchronization',
  'enter_sends',
  'fluid_layout_width',
  'high_contrast_mode',
  'left_side_userlist',
  'starred_message_counts',
  'translate_emoticons',
  'twenty_four_hour_time',
  'timezone',
]);
const LEGACY_NOTIFICATIONS = new Set([
  'desktop_icon_count_display',
  'email_notifications_batching_period_seconds',
  'enable_desktop_notifications',
  'enable_digest_emails',
  'enable_login_emails',
  'enable_marketing_emails',
  'enable_offline_email_notifications',
  'enable_offline_push_notifications',
  'enable_online_push_notifications',
  'enable_sounds',
  'enable_stream_audible_notifications',
  'enable_stream_desktop_notifications',
  'enable_stream_email_notifications',
  'enable_stream_push_notifications',
  'message_content_in_email_notifications',
  'notification_sound',
  'pm_content_in_desktop_notifications',
  'presence_enabled',
  'realm_name_in_email_notifications_policy',
  'wildcard_mentions_notify',
]);

/** Reads one setting with its type and allowed values; undefined when absent. */
function readSetting(params: Params, name: UserSettingName): boolean | number | string | undefined {
  const def = USER_SETTING_DEFAULTS[name];
  const choices = USER_SETTING_CHOICES[name];
  let value: boolean | number | string | undefined;
  if (typeof def === 'boolean') value = params.bool(name);
  else if (typeof def === 'number') value = params.int(name);
  else value = params.str(name);
  if (value === undefined) return undefined;
  if (choices && !choices.includes(value as number | string)) throw invalidParam(name, value, `Invalid ${name}`);
  const range = settingRange(name);
  if (range && typeof value === 'number' && (value < range.min || value > range.max)) {
    if (name === 'email_notifications_batching_period_seconds') throw badRequest(`Invalid email batching period: ${value} seconds`);
    throw invalidParam(name, value, `Invalid ${name}: must be between ${range.min} and ${range.max}`);
  }
  if (name === 'default_language' && !Object.hasOwn(LANGUAGES, value as string)) throw badRequest('Invalid default_language');
  if (name === 'notification_sound' && value !== 'none' && !(NOTIFICATION_SOUNDS as readonly string[]).includes(value as string)) {
    throw badRequest(`Invalid notification sound '${String(value)}'`);
  }
  return value;
}

function updateSettings(ctx: Ctx): Record<string, unknown> {
  const { srv, params, user } = ctx;
  if (user.is_bot) throw badRequest('This endpoint does not accept bot requests.');
  // Read (and validate) everything first: the request succeeds or fails as a whole.
  const fullName = params.str('full_name');
  const email = params.str('email');
  const oldPassword = params.str('old_password');
  const newPassword = params.str('new_password');
  const requested = new Map<UserSettingName | 'timezone', boolean | number | string>();
  for (const name of USER_SETTING_NAMES) {
    const v = readSetting(params, name);
    if (v !== undefined) requested.set(name, v);
  }
  const timezone = params.str('timezone');
  if (timezone !== undefined) {
    if (!isValidTimezone(timezone)) throw invalidParam('timezone', timezone, `${timezone} is not a recognized time zone`);
    requested.set('timezone', timezone);
  }

  if (newPassword !== undefined) {
    if (oldPassword === undefined || !verifyPassword(oldPassword, user.password_hash)) throw badRequest('Wrong password!');
    if (!isStrongPassword(newPassword)) throw badRequest('New password is too weak!');
  }
  if (email !== undefined) checkEmailChange(srv, user, email.trim());
  const newName = fullName !== undefined && fullName !== user.full_name ? checkFullName(fullName) : undefined;

  if (newPassword !== undefined) srv.db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(hashPassword(newPassword), user.id);
  // An email change only starts a confirmation flow (a mail to the new address): nothing changes yet.
  if (newName !== undefined && newName !== user.full_name) changeFullName(srv, user, newName);

  const current = getUserSettings(srv, user.id);
  for (const [name, value] of requested) {
    if (current[name] === value) continue;
    setUserSetting(srv, user.id, name, value);
    emitSettingChange(srv, user, name, value);
  }
  return {};
}

function checkEmailChange(srv: ServerState, user: UserRow, newEmail: string): void {
  if (newEmail === user.delivery_email) return;
  if (!EMAIL_RE.test(newEmail)) throw badRequest('Invalid address.');
  if (getUserByEmail(srv, newEmail)) throw badRequest('Email is already in use.');
}

function emitSettingChange(srv: ServerState, user: UserRow, name: UserSettingName | 'timezone', value: boolean | number | string): void {
  const languageName = name === 'default_language' ? { language_name: LANGUAGES[value as string] ?? String(value) } : {};
  emit(srv, [user.id], (q) => {
    const modern = { type: 'user_settings', op: 'update', property: name, value, ...languageName };
    if (q.options.capabilities.user_settings_object) return modern;
    if (LEGACY_DISPLAY.has(name)) return [modern, { type: 'update_display_settings', user: user.email, setting_name: name, setting: value, ...languageName }];
    if (LEGACY_NOTIFICATIONS.has(name)) return [modern, { type: 'update_global_notifications', user: user.email, notification_name: name, setting: value }];
    return modern;
  });
  if (name === 'timezone') {
    emit(srv, activeUserIds(srv), { type: 'realm_user', op: 'update', person: { user_id: user.id, timezone: value } });
  }
}

export function registerSettingsRoutes(r: ApiRouter): void {
  route(r, 'PATCH', '/settings', updateSettings);
  route(r, 'PATCH', '/settings/display', updateSettings);
  route(r, 'PATCH', '/settings/notifications', updateSettings);
}
