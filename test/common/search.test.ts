/** common/search.ts and common/html-text.ts: the search operator's terms and the text that is searched. */
import { describe, expect, it } from 'vitest';
import { htmlText } from '../../common/html-text.js';
import { ftsQuery, searchTerms } from '../../common/search.js';

describe('searchTerms / ftsQuery', () => {
  it('bare words are prefixes, quoted phrases stay together, punctuation separates words', () => {
    expect(searchTerms('lunch "team meeting" c++ état')).toEqual([
      { phrase: 'lunch', prefix: true },
      { phrase: 'team meeting', prefix: false },
      { phrase: 'c', prefix: true },
      { phrase: 'état', prefix: true },
    ]);
    expect(ftsQuery('lunch "team meeting"')).toBe('"lunch"* AND "team meeting"');
  });

  it('FTS syntax never reaches the MATCH expression; no word at all matches everything', () => {
    // A token with punctuation inside is one phrase of its words.
    expect(ftsQuery('NEAR(a b) OR -c*')).toBe('"NEAR a"* AND "b"* AND "OR"* AND "c"*');
    expect(ftsQuery('"" !!! ()')).toBeNull();
  });
});

describe('htmlText', () => {
  it('drops tags, decodes the renderer entities once, collapses whitespace', () => {
    expect(htmlText('<p>a &amp;lt; b&nbsp;&gt;&quot;&#39;</p>\n<p>next</p>')).toBe('a &lt; b >"\' next');
  });
});
