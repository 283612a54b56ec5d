/** A channel's personal settings as its page shows them: notification toggles and the colour input. */
import { describe, expect, it } from 'vitest';
import { colorInputValue, notificationOn, NOTIFICATION_TOGGLES } from '../../../renderer/src/channels/channel-settings.js';

const personal = { is_muted: false, pin_to_top: false, desktop_notifications: null, audible_notifications: false, push_notifications: true, email_notifications: null, wildcard_mentions_notify: null };
const toggle = (p: string) => NOTIFICATION_TOGGLES.find((t) => t.property === p)!;

describe('channel settings', () => {
  it("a notification toggle shows the channel's own value, else the user's default for channels", () => {
    const defaults = { enable_stream_desktop_notifications: true, enable_stream_email_notifications: false, enable_stream_audible_notifications: true };
    expect(notificationOn(personal, toggle('desktop_notifications'), defaults)).toBe(true);
    expect(notificationOn(personal, toggle('email_notifications'), defaults)).toBe(false);
    // Set on the channel: its value, whatever the default.
    expect(notificationOn(personal, toggle('audible_notifications'), defaults)).toBe(false);
    expect(notificationOn(personal, toggle('push_notifications'), null)).toBe(true);
    // Unknown default: off.
    expect(notificationOn(personal, toggle('wildcard_mentions_notify'), null)).toBe(false);
  });

  it('the colour input gets #rrggbb', () => {
    expect(colorInputValue('#ABC')).toBe('#aabbcc');
    expect(colorInputValue('#76CE90')).toBe('#76ce90');
    expect(colorInputValue(null)).toBe('#c2c2c2');
  });
});
