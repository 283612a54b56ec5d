/** The reaction picker's emoji: the list agrees with the reference server's table, characters, search. */
import { describe, expect, it } from 'vitest';
import { EMOJI as SERVER_EMOJI } from '../../../server/markdown/emoji.js';
import { EMOJI, emojiChar, emojiLabel, searchEmoji } from '../../../renderer/src/actions/emoji.js';

describe('the built-in emoji list', () => {
  it('names every emoji as the server does, with the same code (a reaction the server would refuse is never offered)', () => {
    for (const e of EMOJI) {
      for (const name of e.names) expect(SERVER_EMOJI[name], `${name}`).toBe(e.code);
    }
  });

  it('lists each code once, Zulip’s popular reactions first', () => {
    const codes = EMOJI.map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(EMOJI.slice(0, 6).map((e) => e.names[0])).toEqual(['+1', 'tada', 'smile', 'heart', 'working_on_it', 'octopus']);
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

  it('finds by any name or word start, prefix matches before inner matches', () => {
    expect(searchEmoji('tad').map((e) => e.names[0])).toEqual(['tada']);
    // "thumbs" is an alias of +1 and -1.
    expect(searchEmoji('thumbs').map((e) => e.names[0])).toEqual(['+1', '-1']);
    // "heart" starts heart, heart_eyes, and is a word of broken_heart / sparkling_heart.
    const hearts = searchEmoji('heart').map((e) => e.names[0]);
    expect(hearts[0]).toBe('heart');
    expect(hearts).toEqual(expect.arrayContaining(['heart_eyes', 'broken_heart', 'sparkling_heart']));
    // Case and spaces do not matter.
    expect(searchEmoji('Working On').map((e) => e.names[0])).toEqual(['working_on_it']);
    expect(searchEmoji('zzz')).toEqual([]);
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
