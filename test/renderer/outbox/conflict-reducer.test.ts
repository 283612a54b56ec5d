/** A content conflict on screen: each side as a word diff against the base, the row's texts, and when a merge saves. */
import { describe, expect, it } from 'vitest';
import { canSaveMerge, conflictOf, MAX_DIFF_CELLS, tokenize, wordDiff, type Segment } from '../../../renderer/src/outbox/conflict-reducer.js';

/** The text a diff shows for one side (its own words: kept and added). */
const side = (s: Segment[]) =>
  s
    .filter((x) => x.kind !== 'removed')
    .map((x) => x.text)
    .join('');
const baseOf = (s: Segment[]) =>
  s
    .filter((x) => x.kind !== 'added')
    .map((x) => x.text)
    .join('');

describe('word diff', () => {
  it('tokenizes into words and whitespace that join back to the text', () => {
    expect(tokenize('a  b\nc')).toEqual(['a', '  ', 'b', '\n', 'c']);
    expect(tokenize('')).toEqual([]);
  });

  it('marks a replaced word as removed then added, keeping the rest', () => {
    expect(wordDiff('We meet at noon.', 'We meet at one.')).toEqual([
      { kind: 'same', text: 'We meet at ' },
      { kind: 'removed', text: 'noon.' },
      { kind: 'added', text: 'one.' },
    ]);
  });

  it('shows words added and removed anywhere, runs of one kind joined', () => {
    expect(wordDiff('lunch at noon', 'early lunch')).toEqual([
      { kind: 'added', text: 'early ' },
      { kind: 'same', text: 'lunch' },
      { kind: 'removed', text: ' at noon' },
    ]);
  });

  it('is all "same" for equal texts, and all added / removed against an empty side', () => {
    expect(wordDiff('a b', 'a b')).toEqual([{ kind: 'same', text: 'a b' }]);
    expect(wordDiff('', 'new text')).toEqual([{ kind: 'added', text: 'new text' }]);
    expect(wordDiff('old text', '')).toEqual([{ kind: 'removed', text: 'old text' }]);
    expect(wordDiff('', '')).toEqual([]);
  });

  it('always gives back both texts exactly (line breaks and repeated words included)', () => {
    const pairs: [string, string][] = [
      ['the cat sat on the mat', 'the dog sat on the cat mat'],
      ['line one\nline two\n\nline three', 'line one\nline 2\nline three\n'],
      ['a a a b', 'b a a'],
      ['**bold** _it_ `code`', '**bolder** `code` _it_'],
    ];
    for (const [base, text] of pairs) {
      const d = wordDiff(base, text);
      expect(d).not.toBeNull();
      if (d === null) continue;
      expect(side(d)).toBe(text);
      expect(baseOf(d)).toBe(base);
      // Adjacent segments never share a kind.
      for (let i = 1; i < d.length; i++) expect(d[i]?.kind).not.toBe(d[i - 1]?.kind);
    }
  });

  it('is not computed for texts too long to compare (the raw text is shown instead)', () => {
    const long = 'word '.repeat(Math.ceil(Math.sqrt(MAX_DIFF_CELLS)));
    expect(wordDiff(long, `${long}more`)).toBeNull();
    expect(wordDiff('short', long)).not.toBeNull();
  });
});

describe('conflict rows', () => {
  const conflict = { base: 'b', ours: 'o', theirs: 't', merged: 'm' };
  const rows = [
    { outbox_id: 1, conflict: null },
    { outbox_id: 2, conflict },
  ];

  it("finds a row's three texts by outbox id; none for an unknown row or a row without them", () => {
    expect(conflictOf(rows, 2)).toEqual(conflict);
    expect(conflictOf(rows, 1)).toBeNull();
    expect(conflictOf(rows, 3)).toBeNull();
    expect(conflictOf(rows, null)).toBeNull();
  });

  it('saves a merge that says something', () => {
    expect(canSaveMerge('We meet at half past one.')).toBe(true);
    expect(canSaveMerge('')).toBe(false);
    expect(canSaveMerge(' \n ')).toBe(false);
  });

  it('does not save a merge that still holds its conflict markers', () => {
    expect(canSaveMerge('<<<<<<< yours\ntwo\n=======\none\n>>>>>>> theirs')).toBe(false);
    expect(canSaveMerge('one\n>>>>>>> theirs')).toBe(false);
    // A Markdown heading's underline is not a marker.
    expect(canSaveMerge('Lunch\n=======\nat one')).toBe(true);
  });
});
