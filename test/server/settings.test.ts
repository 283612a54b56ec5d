/** PATCH /settings: conformance to the spec's "Update settings" tables, with real Zulip where the spec is silent. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientCapabilities } from '../../server/events/queues.js';
import { USER_SETTING_DEFAULTS } from '../../server/model/user-settings.js';
import { startTestServer, type TestServer } from './harness.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** A queue for `who`, registered directly on the server, and a way to drain it. */
function listen(who: string, capabilities: ClientCapabilities = { user_settings_object: true }) {
  const q = t.server.state.queues.register(t.userId(who), {
    eventTypes: null,
    capabilities,
    applyMarkdown: true,
    clientGravatar: false,
    allPublicStreams: false,
    narrow: [],
  });
  return { events: () => t.server.state.queues.poll(q.id, q.userId, undefined, true) };
}

function setting(who: string, name: string): unknown {
  const raw = t.server.state.db.prepare('SELECT value FROM user_settings WHERE user_id = ? AND name = ?').pluck().get(t.userId(who), name);
  return typeof raw === 'string' ? JSON.parse(raw) : undefined;
}

describe('PATCH /settings: display and behavior', () => {
  it('a boolean setting is stored and reported by a user_settings update event', async () => {
    const l = listen('cordelia');
    const r = await t.as('cordelia').patch('/settings', { twenty_four_hour_time: true });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ result: 'success', msg: '' });
    expect(setting('cordelia', 'twenty_four_hour_time')).toBe(true);
    expect(await l.events()).toEqual([{ type: 'user_settings', op: 'update', property: 'twenty_four_hour_time', value: true, id: 0 }]);
  });

  it('an unchanged value produces no event', async () => {
    await t.as('cordelia').patch('/settings', { starred_message_counts: false });
    const l = listen('cordelia');
    await t.as('cordelia').patch('/settings', { starred_message_counts: false });
    expect(await l.events()).toEqual([]);
  });

  it('one event per changed property', async () => {
    const l = listen('othello');
    await t.as('othello').patch('/settings', { fluid_layout_width: true, high_contrast_mode: true, color_scheme: 2 });
    const props = (await l.events()).map((e) => e.property);
    expect(props.sort()).toEqual(['color_scheme', 'fluid_layout_width', 'high_contrast_mode']);
  });

  it('web_channel_default_view accepts 1, 2 and 4 (the spec\'s allowed set)', async () => {
    for (const v of [1, 2, 4]) expect((await t.as('othello').patch('/settings', { web_channel_default_view: v })).status).toBe(200);
  });

  it('web_channel_default_view 3 is rejected (the spec\'s set is 1, 2, 4)', async () => {
    const r = await t.as('othello').patch('/settings', { web_channel_default_view: 3 });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ result: 'error', code: 'REQUEST_VARIABLE_INVALID', var_name: 'web_channel_default_view' });
  });

  it.each([
    ['color_scheme', [1, 2, 3], [0, 4]],
    ['demote_inactive_streams', [1, 2, 3], [0, 4]],
    ['user_list_style', [1, 2, 3], [0, 4]],
    ['web_stream_unreads_count_display_policy', [1, 2, 3], [0, 4]],
    ['desktop_icon_count_display', [1, 2, 3, 4], [0, 5]],
    ['web_mark_read_on_scroll_policy', [1, 2, 3], [4]],
  ])('%s accepts only its allowed integers', async (name, good, bad) => {
    for (const v of good) expect((await t.as('shiva').patch('/settings', { [name]: v })).status).toBe(200);
    for (const v of bad) {
      const r = await t.as('shiva').patch('/settings', { [name]: v });
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ code: 'REQUEST_VARIABLE_INVALID', var_name: name });
    }
  });

  it.each([
    ['emojiset', ['google', 'twitter', 'text'], ['google-blob', 'apple']],
    ['web_home_view', ['recent_topics', 'inbox', 'all_messages'], ['recent', 'home']],
    ['web_animate_image_previews', ['always', 'on_hover', 'never'], ['sometimes']],
  ])('%s accepts only its allowed strings', async (name, good, bad) => {
    for (const v of good) expect((await t.as('shiva').patch('/settings', { [name]: v })).status).toBe(200);
    for (const v of bad) {
      const r = await t.as('shiva').patch('/settings', { [name]: v });
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ code: 'REQUEST_VARIABLE_INVALID', var_name: name });
    }
  });

  it('a boolean setting must be JSON true/false', async () => {
    const r = await t.as('shiva').patch('/settings', { twenty_four_hour_time: 'yes' });
    expect(r.status).toBe(400);
    expect(r.json.code).toMatch(/INVALID_JSON|REQUEST_VARIABLE_INVALID/);
  });

  it('web_font_size_px is limited to 12..20 and web_line_height_percent to 122..158', async () => {
    expect((await t.as('shiva').patch('/settings', { web_font_size_px: 12 })).status).toBe(200);
    expect((await t.as('shiva').patch('/settings', { web_font_size_px: 20 })).status).toBe(200);
    expect((await t.as('shiva').patch('/settings', { web_font_size_px: 11 })).status).toBe(400);
    expect((await t.as('shiva').patch('/settings', { web_font_size_px: 21 })).status).toBe(400);
    expect((await t.as('shiva').patch('/settings', { web_line_height_percent: 122 })).status).toBe(200);
    expect((await t.as('shiva').patch('/settings', { web_line_height_percent: 158 })).status).toBe(200);
    expect((await t.as('shiva').patch('/settings', { web_line_height_percent: 121 })).status).toBe(400);
    expect((await t.as('shiva').patch('/settings', { web_line_height_percent: 159 })).status).toBe(400);
  });

  it('timezone must be an IANA zone', async () => {
    expect((await t.as('shiva').patch('/settings', { timezone: 'Mars/Olympus' })).status).toBe(400);
    expect((await t.as('shiva').patch('/settings', { timezone: 'UTC' })).status).toBe(200);
  });

  it('current IANA names the runtime formats but does not list (Asia/Kolkata, Europe/Kyiv) are accepted', async () => {
    for (const tz of ['Asia/Kolkata', 'Europe/Kyiv', 'Etc/GMT+5', 'Asia/Calcutta']) {
      const r = await t.as('shiva').patch('/settings', { timezone: tz });
      expect(r.status, tz).toBe(200);
      expect(t.server.state.db.prepare('SELECT timezone FROM users WHERE id = ?').pluck().get(t.userId('shiva'))).toBe(tz);
    }
  });

  it('garbage, offsets and miscased listed names are refused with REQUEST_VARIABLE_INVALID', async () => {
    for (const tz of ['Garbage/Zone', '+05:30', 'asia/calcutta', 'Europe/', '../etc/passwd', 'x'.repeat(100)]) {
      const r = await t.as('shiva').patch('/settings', { timezone: tz });
      expect(r.status, tz).toBe(400);
      expect(r.json, tz).toMatchObject({ result: 'error', code: 'REQUEST_VARIABLE_INVALID', var_name: 'timezone' });
    }
  });

  it('a timezone change updates the user row and tells everyone through realm_user update', async () => {
    const other = listen('hamlet');
    const own = listen('shiva');
    await t.as('shiva').patch('/settings', { timezone: 'America/New_York' });
    const row = t.server.state.db.prepare('SELECT timezone FROM users WHERE id = ?').pluck().get(t.userId('shiva'));
    expect(row).toBe('America/New_York');
    expect(await own.events()).toContainEqual(expect.objectContaining({ type: 'user_settings', property: 'timezone', value: 'America/New_York' }));
    expect(await other.events()).toContainEqual(expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: t.userId('shiva'), timezone: 'America/New_York' } }));
  });

  it('default_language must be a known language code; the event carries language_name', async () => {
    expect((await t.as('shiva').patch('/settings', { default_language: 'xx' })).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid default_language' });
    const l = listen('shiva');
    expect((await t.as('shiva').patch('/settings', { default_language: 'de' })).status).toBe(200);
    expect(await l.events()).toEqual([expect.objectContaining({ type: 'user_settings', property: 'default_language', value: 'de', language_name: 'Deutsch' })]);
  });

  it('dense_mode (removed at feature level 364) lands in ignored_parameters_unsupported', async () => {
    const r = await t.as('shiva').patch('/settings', { dense_mode: true });
    expect(r.status).toBe(200);
    expect(r.json.ignored_parameters_unsupported).toEqual(['dense_mode']);
    expect(setting('shiva', 'dense_mode')).toBeUndefined();
  });

  it('unsupported parameters are listed in ignored_parameters_unsupported next to supported ones', async () => {
    const r = await t.as('shiva').patch('/settings', { nonsense: 1, enter_sends: true });
    expect(r.json).toMatchObject({ result: 'success', ignored_parameters_unsupported: ['nonsense'] });
    expect(setting('shiva', 'enter_sends')).toBe(true);
  });

  it('an invalid value rolls back the whole request', async () => {
    const r = await t.as('hamlet').patch('/settings', { translate_emoticons: true, color_scheme: 9 });
    expect(r.status).toBe(400);
    expect(setting('hamlet', 'translate_emoticons')).toBeUndefined();
  });
});

describe('PATCH /settings: notifications', () => {
  it('notification booleans are stored', async () => {
    await t.as('hamlet').patch('/settings', { enable_stream_push_notifications: true, wildcard_mentions_notify: false });
    expect(setting('hamlet', 'enable_stream_push_notifications')).toBe(true);
    expect(setting('hamlet', 'wildcard_mentions_notify')).toBe(false);
  });

  it('notification_sound must be an available sound or "none"', async () => {
    expect((await t.as('hamlet').patch('/settings', { notification_sound: 'ding' })).status).toBe(200);
    expect((await t.as('hamlet').patch('/settings', { notification_sound: 'none' })).status).toBe(200);
    expect((await t.as('hamlet').patch('/settings', { notification_sound: 'trumpet' })).json).toMatchObject({ code: 'BAD_REQUEST', msg: "Invalid notification sound 'trumpet'" });
  });

  it('email_notifications_batching_period_seconds must be positive and at most a week', async () => {
    expect((await t.as('hamlet').patch('/settings', { email_notifications_batching_period_seconds: 600 })).status).toBe(200);
    expect((await t.as('hamlet').patch('/settings', { email_notifications_batching_period_seconds: 0 })).json.code).toBe('BAD_REQUEST');
    expect((await t.as('hamlet').patch('/settings', { email_notifications_batching_period_seconds: 604801 })).json.code).toBe('BAD_REQUEST');
  });

  it('the deprecated aliases /settings/display and /settings/notifications behave like /settings', async () => {
    expect((await t.as('hamlet').patch('/settings/display', { left_side_userlist: true })).status).toBe(200);
    expect((await t.as('hamlet').patch('/settings/notifications', { enable_sounds: false })).status).toBe(200);
    expect(setting('hamlet', 'left_side_userlist')).toBe(true);
    expect(setting('hamlet', 'enable_sounds')).toBe(false);
  });

  it('queues without user_settings_object also get the legacy update_global_notifications event', async () => {
    const l = listen('hamlet', {});
    await t.as('hamlet').patch('/settings', { enable_digest_emails: false });
    const ev = await l.events();
    expect(ev.map((e) => e.type)).toEqual(['user_settings', 'update_global_notifications']);
    expect(ev[1]).toMatchObject({ notification_name: 'enable_digest_emails', setting: false });
  });

  it('every setting of the spec tables has a Zulip default', () => {
    for (const name of ['twenty_four_hour_time', 'web_channel_default_view', 'receives_typing_notifications', 'web_font_size_px', 'hide_ai_features', 'desktop_icon_count_display', 'enable_followed_topic_wildcard_mentions_notify']) {
      expect(USER_SETTING_DEFAULTS).toHaveProperty(name);
    }
    expect(USER_SETTING_DEFAULTS.receives_typing_notifications).toBe(true);
    expect(USER_SETTING_DEFAULTS.web_home_view).toBe('inbox');
  });
});

describe('PATCH /settings: account', () => {
  it('full_name changes the name and sends realm_user update to everyone', async () => {
    const l = listen('iago');
    const r = await t.as('othello').patch('/settings', { full_name: '  Othello  ' });
    expect(r.status).toBe(200);
    const row = t.server.state.db.prepare('SELECT full_name FROM users WHERE id = ?').pluck().get(t.userId('othello'));
    expect(row).toBe('Othello');
    expect(await l.events()).toEqual([{ type: 'realm_user', op: 'update', person: { user_id: t.userId('othello'), full_name: 'Othello' }, id: 0 }]);
  });

  it('full_name that is too short, too long or has invalid characters is rejected', async () => {
    expect((await t.as('othello').patch('/settings', { full_name: 'O' })).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Name too short!' });
    expect((await t.as('othello').patch('/settings', { full_name: 'x'.repeat(101) })).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Name too long!' });
    expect((await t.as('othello').patch('/settings', { full_name: 'O*thello' })).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid characters in name!' });
  });

  it('email starts a confirmation flow: success, but the email does not change yet', async () => {
    const r = await t.as('cordelia').patch('/settings', { email: 'new-cordelia@example.com' });
    expect(r.status).toBe(200);
    const row = t.server.state.db.prepare('SELECT delivery_email FROM users WHERE id = ?').pluck().get(t.userId('cordelia'));
    expect(row).toBe('cordelia@example.com');
  });

  it('email already used by another account is rejected', async () => {
    expect((await t.as('cordelia').patch('/settings', { email: 'hamlet@example.com' })).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Email is already in use.' });
  });

  it('an invalid email address is rejected', async () => {
    expect((await t.as('cordelia').patch('/settings', { email: 'not-an-address' })).json).toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('new_password with the right old_password changes the password', async () => {
    const r = await t.as('polonius').patch('/settings', { old_password: 'sandbox', new_password: 'sandbox-2' });
    expect(r.status).toBe(200);
    const login = await t.raw('POST', '/fetch_api_key', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'username=polonius%40example.com&password=sandbox-2' });
    expect(login.json.result).toBe('success');
  });

  it('a wrong old_password is an error ("Wrong password!")', async () => {
    const r = await t.as('hamlet').patch('/settings', { old_password: 'nope', new_password: 'whatever-123' });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Wrong password!' });
  });

  it('new_password without old_password is an error', async () => {
    expect((await t.as('hamlet').patch('/settings', { new_password: 'whatever-123' })).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Wrong password!' });
  });

  it('a too-short new password is rejected', async () => {
    expect((await t.as('hamlet').patch('/settings', { old_password: 'sandbox', new_password: 'abc' })).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'New password is too weak!' });
  });
});
