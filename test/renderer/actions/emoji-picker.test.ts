/** The pickers' emoji: the shared table (common/emoji.ts), characters, search. */
import { describe, expect, it } from 'vitest';
import { unicodeEmojiCode } from '../../../common/emoji.js';
import { EMOJI, emojiChar, emojiLabel, searchEmoji, withServerNames } from '../../../renderer/src/shared/emoji.js';
import { emojiSuggestions } from '../../../renderer/src/compose/text-typeahead.js';

describe('the emoji list', () => {
  it('names every emoji as the server’s table does, with the same code (a reaction the server would refuse is never offered)', () => {
    for (const e of EMOJI) {
      for (const name of e.names) expect(unicodeEmojiCode(name), `${name}`).toBe(e.code);
    }
  });

  it('lists each code once, by category in Zulip’s order', () => {
    const codes = EMOJI.map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(EMOJI[0]).toMatchObject({ names: ['grinning', 'happy'], category: 'Smileys & Emotion' });
    expect(EMOJI.at(-1)?.category).toBe('Flags');
  });
});

describe('emojiChar', () => {
  it('turns codes into characters; text-default ones get the emoji presentation selector', () => {
    expect(emojiChar('1f44d')).toBe('👍');
    expect(emojiChar('1f1e9-1f1ea')).toBe('🇩🇪');
    expect(emojiChar('2764')).toBe('❤\ufe0f');
  });

  it('refuses what is not a code point list', () => {
    expect(emojiChar('zulip')).toBeNull();
    expect(emojiChar('d800')).toBeNull();
    expect(emojiChar('110000')).toBeNull();
    expect(emojiChar('')).toBeNull();
  });
});

describe('searchEmoji', () => {
  it('gives everything for a blank query', () => {
    expect(searchEmoji('  ')).toHaveLength(EMOJI.length);
  });

  it('finds by any name or word start: exact names first, then prefixes, then word starts', () => {
    expect(searchEmoji('tada').map((e) => e.names[0])[0]).toBe('tada');
    // "thumbs" is an alias of +1 and -1 (and starts no other name).
    expect(searchEmoji('thumbs').map((e) => e.names[0]).slice(0, 2)).toEqual(['+1', '-1']);
    // "heart" is a name itself; heart_eyes starts with it; broken_heart has it as a word.
    const hearts = searchEmoji('heart').map((e) => e.names[0]);
    expect(hearts[0]).toBe('heart');
    expect(hearts.indexOf('heart_eyes')).toBeLessThan(hearts.indexOf('broken_heart'));
    expect(hearts).toEqual(expect.arrayContaining(['sparkling_heart']));
    // Case and spaces do not matter; an alias finds its emoji.
    expect(searchEmoji('Working On')[0]?.names[0]).toBe('working_on_it');
    expect(searchEmoji('avoc')[0]?.names[0]).toBe('avocado');
    expect(searchEmoji('hammer and wrench')[0]?.code).toBe('1f6e0');
    expect(searchEmoji('zzzzq')).toEqual([]);
  });

  it('ranks names containing the query after those starting with it', () => {
    const list = [
      { code: '1', names: ['xabc'] },
      { code: '2', names: ['abc'] },
    ];
    expect(searchEmoji('ab', list).map((e) => e.code)).toEqual(['2', '1']);
  });

  it('labels read as words', () => {
    expect(emojiLabel('working_on_it')).toBe('working on it');
  });
});

describe("the server's names (server_emoji_data_url)", () => {
  it('rename the entries it lists, leave out those it does not, add its own codes without a category', () => {
    const table = { '1f44d': ['thumbs_up', '+1'], '1f419': ['octopus'], '1f600': [], zulip: ['zulip'], 'e000-zz': ['bad'], '1faff': ['future_face'] };
    const list = withServerNames(EMOJI, table);
    expect(list.find((e) => e.code === '1f44d')).toMatchObject({ names: ['thumbs_up', '+1'], category: 'People & Body' });
    expect(list.find((e) => e.code === '1f419')?.names).toEqual(['octopus']);
    // Not listed (or listed with no names, or no code points): the server would refuse it.
    expect(list.some((e) => e.code === '1f600' || e.code === '1f389' || e.code === 'zulip' || e.code === 'e000-zz')).toBe(false);
    expect(list.at(-1)).toEqual({ code: '1faff', names: ['future_face'] });
    expect(list).toHaveLength(3);
    // The canonical name is what a pick sends; search finds the aliases.
    expect(searchEmoji('+1', list)[0]?.names[0]).toBe('thumbs_up');
    expect(emojiSuggestions('future', list).map((e) => e.code)).toEqual(['1faff']);
  });

  it('without a table the app’s own list stands', () => {
    expect(withServerNames(EMOJI, null)).toBe(EMOJI);
  });
});
