/** The user's display settings → what the page applies (theme, hours, font size, line height, dense, fluid). */
import { describe, expect, it } from 'vitest';
import { DEFAULT_DISPLAY, displaySettings, resolveTheme, rootLook, themeChoice } from '../../../renderer/src/data/display.js';
import { formatFullTime, formatMessageTime, hourOptions } from '../../../renderer/src/kit/format.js';

describe('displaySettings', () => {
  it('reads the settings the server sends', () => {
    expect(
      displaySettings({ color_scheme: 2, twenty_four_hour_time: true, web_font_size_px: 18, web_line_height_percent: 150, dense_mode: true, fluid_layout_width: true, emojiset: 'google', user_list_style: 3 }),
    ).toEqual({ theme: 'dark', twentyFourHour: true, fontSizePx: 18, lineHeightPercent: 150, dense: true, fluid: true, userListAvatars: true });
    expect(displaySettings({ user_list_style: 2 }).userListAvatars).toBe(false);
  });

  it('falls back to the defaults for what is missing, and before anything is known', () => {
    expect(displaySettings(null)).toEqual(DEFAULT_DISPLAY);
    expect(displaySettings({})).toEqual(DEFAULT_DISPLAY);
    // FL 408: null means the locale's default hour format.
    expect(displaySettings({ twenty_four_hour_time: null }).twentyFourHour).toBeNull();
    expect(displaySettings({ twenty_four_hour_time: false }).twentyFourHour).toBe(false);
  });

  it('maps color_scheme 1 / 2 / 3 and treats anything else as automatic', () => {
    expect(themeChoice(1)).toBe('automatic');
    expect(themeChoice(2)).toBe('dark');
    expect(themeChoice(3)).toBe('light');
    expect(themeChoice(4)).toBe('automatic');
    expect(themeChoice('unknown')).toBe('automatic');
  });

  it('clamps sizes to a usable range and ignores values that are not numbers', () => {
    expect(displaySettings({ web_font_size_px: 2, web_line_height_percent: 900 })).toMatchObject({ fontSizePx: 10, lineHeightPercent: 250 });
    expect(displaySettings({ web_font_size_px: 17.6 }).fontSizePx).toBe(18);
    expect(displaySettings({ web_font_size_px: '20px; background: red', web_line_height_percent: Number.NaN })).toMatchObject({ fontSizePx: null, lineHeightPercent: null });
    expect(displaySettings({ dense_mode: 'yes', fluid_layout_width: 1 })).toMatchObject({ dense: false, fluid: false });
  });
});

describe('the page look', () => {
  it('follows the system for automatic, and the choice otherwise', () => {
    expect(resolveTheme('automatic', true)).toBe('dark');
    expect(resolveTheme('automatic', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });

  it('turns settings into the root attributes and custom properties', () => {
    expect(rootLook(displaySettings({ color_scheme: 2, web_font_size_px: 20, web_line_height_percent: 135, fluid_layout_width: true }), false)).toEqual({
      theme: 'dark',
      dense: false,
      fluid: true,
      fontSize: '20px',
      lineHeight: '1.35',
    });
    // Nothing set: the CSS defaults stay (null removes the property).
    expect(rootLook(DEFAULT_DISPLAY, false)).toEqual({ theme: 'light', dense: false, fluid: false, fontSize: null, lineHeight: null });
  });
});

describe('hour format', () => {
  const at = Date.parse('2024-06-15T14:05:00Z') / 1000;
  const now = new Date(Date.UTC(2024, 5, 15, 18, 0));

  it('shows 24-hour or 12-hour times as the setting says, whatever the locale', () => {
    expect(formatMessageTime(at, now, 'en-US', 'UTC', true)).toBe('14:05');
    expect(formatMessageTime(at, now, 'en-US', 'UTC', false)).toBe('2:05 PM');
    expect(formatMessageTime(at, now, 'en-GB', 'UTC', false)).toMatch(/^2:05\s?pm$/i);
    expect(formatMessageTime(Date.parse('2024-03-02T00:05:00Z') / 1000, now, 'en-US', 'UTC', true)).toBe('Mar 2, 00:05');
  });

  it("leaves the locale's own format when the setting is null", () => {
    expect(formatMessageTime(at, now, 'en-GB', 'UTC', null)).toBe('14:05');
    expect(formatMessageTime(at, now, 'en-US', 'UTC', null)).toBe('02:05 PM');
    expect(hourOptions(null)).not.toHaveProperty('hour12');
  });

  it('applies to the full time in the tooltip too', () => {
    expect(formatFullTime(at, 'en-US', 'UTC', true)).toContain('14:05');
    expect(formatFullTime(at, 'en-GB', 'UTC', false)).toMatch(/2:05\s?pm/i);
  });
});
