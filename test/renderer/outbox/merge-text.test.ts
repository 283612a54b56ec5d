/** The three-way merge "Edit a merge" starts from: clean where the sides do not overlap, marked where they do. */
import { describe, expect, it } from 'vitest';
import { hasConflictMarkers, lines, MAX_WORD_CELLS, merge3, mergeForEditing, words } from '../../../renderer/src/outbox/merge-text.js';

describe('merge3', () => {
  it('takes both sides where their changes do not overlap', () => {
    expect(merge3(['a', 'b', 'c', 'd', 'e'], ['A', 'b', 'c', 'd', 'e'], ['a', 'b', 'c', 'd', 'E'])).toEqual([{ ok: 'AbcdE' }]);
  });

  it('takes an identical change once', () => {
    expect(merge3(['a', 'b', 'c'], ['a', 'X', 'c'], ['a', 'X', 'c'])).toEqual([{ ok: 'aXc' }]);
  });

  it('marks overlapping changes with each side and the base of the region', () => {
    expect(merge3(['a', 'b', 'c'], ['a', 'Y', 'c'], ['a', 'T', 'c'])).toEqual([{ ok: 'a' }, { yours: 'Y', base: 'b', theirs: 'T' }, { ok: 'c' }]);
  });

  it('takes deletions, and marks a deletion against a change of the same part', () => {
    expect(merge3(['a', 'b', 'c', 'd', 'e'], ['a', 'c', 'd', 'e'], ['a', 'b', 'c', 'd'])).toEqual([{ ok: 'acd' }]);
    expect(merge3(['a', 'b', 'c'], ['a', 'c'], ['a', 'B', 'c'])).toEqual([{ ok: 'a' }, { yours: '', base: 'b', theirs: 'B' }, { ok: 'c' }]);
  });

  it('marks two insertions at the same place, and keeps insertions at different places', () => {
    expect(merge3(['a', 'b'], ['a', 'x', 'b'], ['a', 'y', 'b'])).toEqual([{ ok: 'a' }, { yours: 'x', base: '', theirs: 'y' }, { ok: 'b' }]);
    expect(merge3(['a', 'b', 'c'], ['x', 'a', 'b', 'c'], ['a', 'b', 'c', 'y'])).toEqual([{ ok: 'xabcy' }]);
  });

  it('treats a change touching the other side\'s change as overlapping', () => {
    expect(merge3(['a', 'b', 'c'], ['a', 'B', 'c'], ['a', 'b', 'x', 'c'])).toEqual([{ ok: 'a' }, { yours: 'B', base: 'b', theirs: 'bx' }, { ok: 'c' }]);
  });

  it('gives either side back when the other did not change', () => {
    expect(merge3(['a'], ['a'], ['z'])).toEqual([{ ok: 'z' }]);
    expect(merge3([], [], [])).toEqual([]);
    expect(merge3([], ['new'], [])).toEqual([{ ok: 'new' }]);
  });
});

describe('mergeForEditing', () => {
  const base = 'We meet at noon by the gate.\nBring an umbrella.\nSee you there.';

  it('merges changes to different lines, and different words of one line, without markers', () => {
    expect(mergeForEditing(base, base.replace('noon', 'two'), base.replace('an umbrella', 'a coat'))).toEqual({
      text: 'We meet at two by the gate.\nBring a coat.\nSee you there.',
      conflicts: 0,
    });
    expect(mergeForEditing('We meet at noon by the gate.', 'We meet at noon by the old gate.', 'We meet at one by the gate.')).toEqual({
      text: 'We meet at one by the old gate.',
      conflicts: 0,
    });
  });

  it('marks the lines whose words overlap, keeping both sides\' other changes', () => {
    const yours = 'We meet at two by the gate.\nBring an umbrella.\nSee you there, Hamlet.';
    const theirs = 'We meet at one by the gate.\nBring an umbrella.\nSee you there.';
    const m = mergeForEditing(base, yours, theirs);
    expect(m.conflicts).toBe(1);
    expect(m.text).toBe('<<<<<<< yours\nWe meet at two by the gate.\n=======\nWe meet at one by the gate.\n>>>>>>> theirs\nBring an umbrella.\nSee you there, Hamlet.');
    expect(hasConflictMarkers(m.text)).toBe(true);
  });

  it('marks a one-line message whole, with no newline added at its end', () => {
    expect(mergeForEditing('noon', 'two', 'one')).toEqual({ text: '<<<<<<< yours\ntwo\n=======\none\n>>>>>>> theirs', conflicts: 1 });
  });

  it('keeps line endings and a final newline exactly', () => {
    expect(mergeForEditing('a\r\nb\r\nc\r\n', 'A\r\nb\r\nc\r\n', 'a\r\nb\r\nC\r\n')).toEqual({ text: 'A\r\nb\r\nC\r\n', conflicts: 0 });
    expect(mergeForEditing('x\n', 'y\n', 'z\n').text).toBe('<<<<<<< yours\ny\n=======\nz\n>>>>>>> theirs\n');
  });

  it('marks a region too long to retry on words whole, rather than stalling the page', () => {
    const n = Math.ceil(Math.sqrt(MAX_WORD_CELLS) / 2) + 1; // words; each is two tokens with its space
    const base = Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    const yours = base.replace('w0 ', 'first ');
    const theirs = base.replace(/ w\d+$/, ' last');
    expect(mergeForEditing(base, yours, theirs)).toEqual({ text: `<<<<<<< yours\n${yours}\n=======\n${theirs}\n>>>>>>> theirs`, conflicts: 1 });
    // The same changes in a shorter paragraph merge on words.
    expect(mergeForEditing('w0 w1 w2', 'first w1 w2', 'w0 w1 last')).toEqual({ text: 'first w1 last', conflicts: 0 });
  });

  it('takes a deletion by one side and a change by the other elsewhere', () => {
    expect(mergeForEditing('one\ntwo\nthree\nfour\n', 'one\nthree\nfour\n', 'one\ntwo\nthree\nFOUR\n')).toEqual({ text: 'one\nthree\nFOUR\n', conflicts: 0 });
  });
});

describe('tokens and markers', () => {
  it('splits into lines and words that join back exactly', () => {
    for (const s of ['', 'a', 'a\n', 'a\r\nb', ' two  words \n\tand\n\n']) {
      expect(lines(s).join('')).toBe(s);
      expect(words(s).join('')).toBe(s);
    }
  });

  it('sees only its own marker lines, not a heading underline', () => {
    expect(hasConflictMarkers('Title\n=======\ntext')).toBe(false);
    expect(hasConflictMarkers('a <<<<<<< yours b')).toBe(false);
    expect(hasConflictMarkers('a\r\n>>>>>>> theirs\r\n')).toBe(true);
  });
});
