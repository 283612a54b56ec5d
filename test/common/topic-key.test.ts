/** common/topic-key.ts: topic names compare as the server compares them (SQL UPPER() per character). */
import { describe, expect, it } from 'vitest';
import { sameTopic, topicKey } from '../../common/topic-key.js';

describe('topicKey / sameTopic', () => {
  it('one topic whatever the case, non-ASCII letters included', () => {
    expect(sameTopic('Äpfel', 'äpfel')).toBe(true);
    expect(sameTopic('ÄPFEL', 'äpfel')).toBe(true);
    expect(sameTopic('Lunch', 'lunch')).toBe(true);
    expect(sameTopic('ΟΔΟΣ', 'οδοσ')).toBe(true); // toLowerCase() keeps the final sigma apart
    expect(sameTopic('Ǆemal', 'ǆemal')).toBe(true);
  });

  it('what SQL UPPER() keeps apart stays apart (ß/SS, ﬁ/FI, İ/i̇, NFC/NFD), unlike toLowerCase() for İ', () => {
    expect(sameTopic('Straße', 'STRASSE')).toBe(false);
    expect(sameTopic('ﬁle', 'FILE')).toBe(false);
    expect(sameTopic('İ', 'i\u0307')).toBe(false);
    expect('İ'.toLowerCase()).toBe('i\u0307');
    expect(sameTopic('Äpfel'.normalize('NFC'), 'Äpfel'.normalize('NFD'))).toBe(false);
  });

  it('keys read like toLowerCase(): exactly that for ASCII and for ordinary accented text', () => {
    for (const s of ['Lunch Plans', 'äPFEL', 'Crème Brûlée', 'Москва', 'ΑΘΗΝΑ']) expect(topicKey(s)).toBe(s.toLowerCase().replace(/ς/g, 'σ'));
  });
});

describe('topicKey on every code point', () => {
  it('a key is its own key, and a code point and its one-code-point upper case share a key', () => {
    const wrong: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      const key = topicKey(ch);
      const upper = ch.toUpperCase();
      const oneUpper = upper.length === 1 || (upper.length === 2 && upper.codePointAt(0)! > 0xffff);
      if (topicKey(key) !== key || [...key].length !== 1 || (oneUpper && topicKey(upper) !== key)) wrong.push(cp.toString(16));
    }
    expect(wrong).toEqual([]);
  });
});
