import { describe, expect, it } from 'vitest';
import { ZulipApiError } from '../../../../sync/api/errors.js';
import { updateSettings } from '../../../../sync/api/routes/settings.js';
import { fakeServer, ok } from '../fake-transport.js';

describe('settings routes', () => {
  it('updateSettings PATCHes /settings with only the keys given, strings raw and the rest JSON', async () => {
    const f = fakeServer();
    f.reply(ok({ ignored_parameters_unsupported: ['web_left_sidebar_show_channel_folders'] }));
    const res = await updateSettings(f.conn, {
      full_name: 'Hamlet & "Co"',
      emojiset: 'twitter',
      timezone: 'Europe/Berlin',
      default_language: 'de',
      notification_sound: 'ding',
      web_animate_image_previews: 'on_hover',
      resolved_topic_notice_auto_read_policy: 'except_followed',
      twenty_four_hour_time: true,
      enable_sounds: false,
      color_scheme: 2,
      web_channel_default_view: 3,
      desktop_icon_count_display: 4,
      demote_inactive_streams: 3,
      user_list_style: 1,
      web_stream_unreads_count_display_policy: 2,
      email_notifications_batching_period_seconds: 120,
      web_font_size_px: 16,
      web_left_sidebar_show_channel_folders: true,
    });
    const req = f.only();
    expect(req.method).toBe('PATCH');
    expect(req.path).toBe('/settings');
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(req.query).toEqual({});
    expect(req.body).toEqual({
      full_name: 'Hamlet & "Co"',
      emojiset: 'twitter',
      timezone: 'Europe/Berlin',
      default_language: 'de',
      notification_sound: 'ding',
      web_animate_image_previews: 'on_hover',
      resolved_topic_notice_auto_read_policy: 'except_followed',
      twenty_four_hour_time: 'true',
      enable_sounds: 'false',
      color_scheme: '2',
      web_channel_default_view: '3',
      desktop_icon_count_display: '4',
      demote_inactive_streams: '3',
      user_list_style: '1',
      web_stream_unreads_count_display_policy: '2',
      email_notifications_batching_period_seconds: '120',
      web_font_size_px: '16',
      web_left_sidebar_show_channel_folders: 'true',
    });
    expect(res.ignored_parameters_unsupported).toEqual(['web_left_sidebar_show_channel_folders']);
  });

  it('sends a single setting alone, and keys given as undefined are left out', async () => {
    const f = fakeServer();
    await updateSettings(f.conn, { enable_desktop_notifications: false, email: undefined });
    expect(f.only().body).toEqual({ enable_desktop_notifications: 'false' });
    expect(f.only().rawBody).toBe('enable_desktop_notifications=false');
  });

  it('sends old_password and new_password together, raw', async () => {
    const f = fakeServer();
    await updateSettings(f.conn, { old_password: 'old 1&2', new_password: 'n3w=pass' });
    expect(f.only().body).toEqual({ old_password: 'old 1&2', new_password: 'n3w=pass' });
  });

  it('refuses half a password change at the type level and at run time, before sending', async () => {
    const f = fakeServer();
    // @ts-expect-error new_password requires old_password
    await expect(updateSettings(f.conn, { new_password: 'x' })).rejects.toThrow(/together/);
    // @ts-expect-error old_password alone is meaningless
    await expect(updateSettings(f.conn, { old_password: 'x' })).rejects.toThrow(/together/);
    expect(f.calls).toHaveLength(0);
  });

  it('does not offer dense_mode (removed at FL 364) nor out-of-range values', () => {
    const typeOnly = (fn: () => unknown) => fn;
    typeOnly(() =>
      // @ts-expect-error dense_mode is not a setting any more
      updateSettings(fakeServer().conn, { dense_mode: true }),
    );
    typeOnly(() =>
      // @ts-expect-error color_scheme is 1, 2 or 3
      updateSettings(fakeServer().conn, { color_scheme: 4 }),
    );
    typeOnly(() =>
      // @ts-expect-error emojiset is a closed list
      updateSettings(fakeServer().conn, { emojiset: 'apple' }),
    );
    typeOnly(() =>
      // @ts-expect-error desktop_icon_count_display is 1..4
      updateSettings(fakeServer().conn, { desktop_icon_count_display: 0 }),
    );
  });

  it('web_home_view recent/recent_topics is sent as recent_topics before FL 454', async () => {
    const f = fakeServer({ featureLevel: 453 });
    await updateSettings(f.conn, { web_home_view: 'recent' });
    expect(f.only().body).toEqual({ web_home_view: 'recent_topics' });
  });

  it('web_home_view recent/recent_topics is sent as recent from FL 454', async () => {
    const f = fakeServer({ featureLevel: 454 });
    await updateSettings(f.conn, { web_home_view: 'recent_topics' });
    expect(f.only().body).toEqual({ web_home_view: 'recent' });
  });

  it('other web_home_view values pass through unchanged', async () => {
    const f = fakeServer({ featureLevel: 454 });
    await updateSettings(f.conn, { web_home_view: 'inbox' });
    expect(f.only().body).toEqual({ web_home_view: 'inbox' });
  });

  it('a rejected value surfaces as an api error with its code', async () => {
    const f = fakeServer();
    f.reply({ status: 400, json: { result: 'error', msg: "Invalid language 'xx'", code: 'BAD_REQUEST' } });
    const err = await updateSettings(f.conn, { default_language: 'xx' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZulipApiError);
    expect(err).toMatchObject({ kind: 'api', code: 'BAD_REQUEST', httpStatus: 400 });
  });
});
