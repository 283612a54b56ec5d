import { describe, expect, it } from 'vitest';
import { searchMatcher, splitMatches } from '../../../common/search.js';
import { searchTextOf } from '../../../renderer/src/data/target.js';
import { serverMarkedRuns } from '../../../renderer/src/shared/highlight.js';

const marked = (text: string, search: string) =>
  splitMatches(text, searchMatcher(search)!)
    .map((r) => (r.match ? `[${r.text}]` : r.text))
    .join('');

describe('search matches', () => {
  it('marks bare words as prefixes of whole words, case-insensitively, never inside a word', () => {
    expect(marked('The Zanzibar manuscript; zanzibarian maps, not bizanzibar.', 'zanzibar')).toBe('The [Zanzibar] manuscript; [zanzibarian] maps, not bizanzibar.');
    expect(marked('Lunch at noon, then lunches.', 'lunch noon')).toBe('[Lunch] at [noon], then [lunches].');
  });

  it('marks a quoted phrase with any separators between its words, and not a word of it alone', () => {
    expect(marked('the old-library key; the old library; the library', '"old library"')).toBe('the [old-library] key; the [old library]; the library');
  });

  it('non-Latin words, and no match at all', () => {
    expect(marked('Встреча в среду', 'сред')).toBe('Встреча в [среду]');
    expect(splitMatches('nothing here', searchMatcher('absent')!)).toEqual([{ text: 'nothing here', match: false }]);
    expect(searchMatcher('  "" ')).toBeNull();
  });

  it('the words a view searches: a search view, a filter view with a search term, none otherwise', () => {
    expect(searchTextOf({ kind: 'search', query: 'zanzibar maps' })).toBe('zanzibar maps');
    expect(searchTextOf({ kind: 'filter', terms: [{ operator: 'sender', operand: '9', negated: false, wire: 9 }, { operator: 'search', operand: 'maps', negated: false, wire: 'maps' }] })).toBe('maps');
    expect(searchTextOf({ kind: 'filter', terms: [{ operator: 'search', operand: 'maps', negated: true, wire: 'maps' }] })).toBeNull();
    expect(searchTextOf({ kind: 'starred' })).toBeNull();
  });

  it("the server's marked topic (match_subject) as runs of text; anything else is not trusted", () => {
    expect(serverMarkedRuns('<span class="highlight">Zanzibar</span> &amp; the &lt;maps&gt;', 'Zanzibar & the <maps>')).toEqual([
      { text: 'Zanzibar', match: true },
      { text: ' & the <maps>', match: false },
    ]);
    expect(serverMarkedRuns('it&#39;s <span class="highlight">here</span>', "it's here")).toEqual([
      { text: "it's ", match: false },
      { text: 'here', match: true },
    ]);
    expect(serverMarkedRuns('<b>bold</b>', 'bold')).toBeNull();
    expect(serverMarkedRuns('<span class="highlight">other</span>', 'topic')).toBeNull();
  });
});
