/** common/user-settings.ts: the language table and the whole-number settings' bounds. */
import { describe, expect, it } from 'vitest';
import { LANGUAGES, settingRange, USER_SETTING_RANGES } from '../../common/user-settings.js';

describe('user settings tables', () => {
  it('every language has its own name; English is there', () => {
    expect(LANGUAGES.en).toBe('English');
    for (const [code, name] of Object.entries(LANGUAGES)) {
      expect(code).toMatch(/^[a-z]{2}([_-][A-Za-z]+)?$/);
      expect(name.trim()).not.toBe('');
    }
  });

  it('settingRange answers only the bounded settings (never inherited names)', () => {
    expect(settingRange('web_font_size_px')).toEqual(USER_SETTING_RANGES.web_font_size_px);
    expect(settingRange('email_notifications_batching_period_seconds')).toEqual({ min: 1, max: 604800 });
    expect(settingRange('enter_sends')).toBeUndefined();
    expect(settingRange('constructor')).toBeUndefined();
  });
});
