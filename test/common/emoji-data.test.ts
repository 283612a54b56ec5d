/**
 * The generated emoji table (common/emoji-data.ts): identical to what scripts/gen-emoji.mjs makes
 * from the installed emoji-datasource (so it never drifts into a hand-kept list), complete, with
 * Zulip's codes and names: every name the app's earlier built-in list had is there, meaning what
 * Zulip's table says (four meant another emoji in that hand list; a real server would refuse them).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { CATEGORY_ORDER, emojiModule, OUTPUT, readDatasource, zulipCode } from '../../scripts/gen-emoji.mjs';
import { EMOJI_CATEGORIES, emojiText, unicodeEmoji, unicodeEmojiCode } from '../../common/emoji.js';

/** The app's built-in list before the full set (code → names), corrected to Zulip's table. */
const EARLIER: Readonly<Record<string, readonly string[]>> = {
  '1f44d': ['+1', 'thumbs_up'],
  '1f389': ['tada', 'party_popper'],
  '263a': ['smile'],
  '2764': ['heart'],
  '1f6e0': ['working_on_it'],
  '1f419': ['octopus'],
  '1f44e': ['-1', 'thumbs_down'],
  '1f603': ['smiley'],
  '1f600': ['grinning'],
  '1f601': ['grin'],
  '1f602': ['joy'],
  '1f923': ['rolling_on_the_floor_laughing'],
  '1f606': ['laughing'],
  '1f609': ['wink'],
  '1f60a': ['blush'],
  '1f607': ['innocent'],
  '1f642': ['slight_smile'],
  '1f643': ['upside_down'],
  '1f60d': ['heart_eyes'],
  '1f617': ['kiss'],
  '1f914': ['thinking'],
  '1f610': ['neutral'],
  '1f611': ['expressionless'],
  '1f644': ['rolling_eyes'],
  '1f60f': ['smirk'],
  '2639': ['sad'],
  '1f641': ['frown'],
  '1f622': ['cry'],
  '1f62d': ['sob'],
  '1f620': ['angry'],
  '1f621': ['rage'],
  '1f631': ['scream'],
  '1f632': ['astonished'],
  '1f62e': ['open_mouth'],
  '1f634': ['sleeping'],
  '1f605': ['sweat_smile'],
  '1f60e': ['sunglasses'],
  '1f913': ['nerd'],
  '1f615': ['confused'],
  '1f61f': ['worried'],
  '1f494': ['broken_heart'],
  '1f496': ['sparkling_heart'],
  '1f525': ['fire'],
  '2b50': ['star'],
  '2728': ['sparkles'],
  '1f680': ['rocket'],
  '1f440': ['eyes'],
  '1f44f': ['clap'],
  '1f44b': ['wave'],
  '1f64f': ['pray'],
  '1f4aa': ['muscle'],
  '1f44c': ['ok', 'got_it', 'ok_hand'],
  '1f446': ['point_up'],
  '1f64c': ['raised_hands'],
  '1f91d': ['handshake'],
  '1f4af': ['100', 'hundred_points'],
  '2714': ['check', 'check_mark'],
  '2705': ['white_check_mark'],
  '274c': ['cross_mark', 'x'],
  '2795': ['heavy_plus_sign'],
  '26a0': ['warning'],
  '2753': ['question'],
  '2757': ['exclamation'],
  '1f4a1': ['bulb', 'light_bulb'],
  '26a1': ['zap'],
  '1f4ac': ['speech_bubble'],
  '2600': ['sun'],
  '2601': ['cloud'],
  '1f308': ['rainbow'],
  '2744': ['snowflake'],
  '2615': ['coffee'],
  '1f355': ['pizza'],
  '1f370': ['cake'],
  '1f37a': ['beer'],
  '1f415': ['dog'],
  '1f408': ['cat'],
  '1f422': ['turtle'],
  '1f41b': ['bug'],
  '1f451': ['crown'],
  '1f480': ['skull'],
  '1f47b': ['ghost'],
  '1f916': ['robot'],
  '1f3c6': ['trophy'],
  '1f3c5': ['medal'],
  '1f381': ['gift'],
  '1f3b5': ['musical_note'],
  '1f514': ['bell'],
  '1f4da': ['books'],
  '1f4d6': ['book'],
  '1f4dd': ['memo'],
  '1f4c5': ['calendar'],
  '1f570': ['clock'],
  '231b': ['hourglass'],
  '1f512': ['lock'],
  '1f511': ['key'],
  '2699': ['gear'],
  '1f528': ['hammer'],
  '1f527': ['wrench'],
  '1f517': ['link'],
  '1f4ce': ['paperclip'],
  '1f4e7': ['email'],
  '1f310': ['globe'],
  '1f3e0': ['house'],
  '1f3f0': ['castle'],
  '1f6a2': ['ship'],
  '1f697': ['car'],
  '2708': ['airplane'],
};

interface Source {
  unified: string;
  non_qualified: string | null;
  category: string;
  short_names: string[];
}

describe('common/emoji-data.ts', () => {
  const source = readDatasource() as Source[];

  it('is exactly what scripts/gen-emoji.mjs generates from the installed emoji-datasource', () => {
    expect(readFileSync(OUTPUT, 'utf8')).toBe(emojiModule(source));
  });

  it('holds every emoji of the package but the skin-tone swatches, each code once, in Zulip’s categories', () => {
    const all = unicodeEmoji();
    const expected = source.filter((e) => e.category !== 'Component');
    expect(all.length).toBe(expected.length);
    expect(all.length).toBeGreaterThan(1800);
    expect(new Set(all.map((e) => e.code)).size).toBe(all.length);
    expect(new Set(all.map((e) => e.code))).toEqual(new Set(expected.map(zulipCode)));
    expect(EMOJI_CATEGORIES).toEqual(CATEGORY_ORDER);
    expect(EMOJI_CATEGORIES[0]).toBe('Smileys & Emotion');
    expect(all.every((e) => e.names.length > 0 && EMOJI_CATEGORIES.includes(e.category))).toBe(true);
  });

  it('writes codes as Zulip does: lower-case hex without U+FE0F', () => {
    expect(unicodeEmojiCode('heart')).toBe('2764');
    expect(unicodeEmojiCode('flag-de')).toBe('1f1e9-1f1ea');
    expect(unicodeEmojiCode('rainbow-flag')).toBe('1f3f3-200d-1f308');
    expect(unicodeEmoji().some((e) => e.code.includes('fe0f') || e.code !== e.code.toLowerCase())).toBe(false);
  });

  it('uses Zulip’s names where Zulip renames iamcal’s, and keeps iamcal’s short names as aliases', () => {
    expect(unicodeEmojiCode('working_on_it')).toBe('1f6e0');
    expect(unicodeEmojiCode('hammer_and_wrench')).toBe('1f6e0');
    expect(unicodeEmojiCode('slight_smile')).toBe('1f642');
    // Zulip's emoji_names.py, where the old hand list had it wrong.
    expect(unicodeEmojiCode('big_smile')).toBe('1f604');
    expect(unicodeEmojiCode('heart_kiss')).toBe('1f618');
    expect(unicodeEmojiCode('squared_ok')).toBe('1f197');
    expect(unicodeEmojiCode('wait_one_second')).toBe('261d');
    expect(unicodeEmojiCode('slightly_smiling_face')).toBe('1f642');
    expect(unicodeEmojiCode('octopus')).toBe('1f419');
    expect(unicodeEmojiCode('lipstick_kiss')).toBe('1f48b');
    expect(unicodeEmojiCode('no_such_name')).toBeUndefined();
    expect(unicodeEmojiCode('constructor')).toBeUndefined();
  });

  it('keeps every name of the earlier built-in list, with its code, first names first', () => {
    for (const [code, names] of Object.entries(EARLIER)) {
      for (const n of names) expect(unicodeEmojiCode(n), n).toBe(code);
      expect(unicodeEmoji().find((e) => e.code === code)?.names.slice(0, names.length)).toEqual(names);
    }
  });

  it('emojiText adds U+FE0F where the qualified form has it', () => {
    expect(emojiText([0x2764])).toBe('❤\ufe0f');
    expect(emojiText([0x1f44d])).toBe('👍');
    expect(emojiText([0x23, 0x20e3])).toBe('#\ufe0f\u20e3');
    expect(emojiText([0x1f3f3, 0x200d, 0x1f308])).toBe('🏳\ufe0f\u200d🌈');
  });
});
