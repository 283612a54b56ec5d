/**
 * The content-edit merge must be exact: a merge that altered one byte the user did not touch would
 * make the next `prev_content_sha256` wrong (a false "edited by another client") or lose text.
 */
import { describe, expect, it } from 'vitest';
import { contentSha256 } from '../../../sync/api/index.js';
import { seededRandom } from '../../../sync/base/seams.js';
import { mergeForEditing, sha256Hex, splitLines, splitWords, threeWayMerge } from '../../../sync/outbox/merge.js';
import { hasConflictMarkers } from '../../../common/merge-markers.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const clean = (text: string) => ({ kind: 'clean', text });

describe('sha256Hex', () => {
  it('equals the API client hash over the exact raw text', () => {
    const texts = ['', 'plain', 'naïve café ✓ 日本語', 'line\r\nline\r\n', 'trailing  \n', '👨‍👩‍👧 🎉', '\u00e9 vs e\u0301'];
    for (const t of texts) expect(sha256Hex(t)).toBe(contentSha256(t));
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('tells apart texts that differ only in invisible bytes', () => {
    expect(sha256Hex('a\r\nb')).not.toBe(sha256Hex('a\nb'));
    expect(sha256Hex('a ')).not.toBe(sha256Hex('a'));
    expect(sha256Hex('\u00e9')).not.toBe(sha256Hex('e\u0301'));
  });
});

describe('tokenizers', () => {
  it('split lines and words losslessly', () => {
    const t = 'a  b\r\nc\rd\n\nlast 🎉 👨‍👩‍👧 end  ';
    expect(splitLines(t).join('')).toBe(t);
    expect(splitLines(t)).toEqual(['a  b\r\n', 'c\rd\n', '\n', 'last 🎉 👨‍👩‍👧 end  ']);
    expect(splitWords(t).join('')).toBe(t);
    expect(splitWords(t)).toContain('👨‍👩‍👧');
    expect(splitLines('')).toEqual([]);
  });
});

describe('threeWayMerge', () => {
  it('takes the other side when one side is unchanged, byte for byte', () => {
    const base = 'one\r\ntwo  \n';
    expect(threeWayMerge(base, base, 'ONE\r\ntwo  \n')).toEqual(clean('ONE\r\ntwo  \n'));
    expect(threeWayMerge(base, 'one\ntwo\n', base)).toEqual(clean('one\ntwo\n'));
  });

  it('treats identical changes on both sides as clean', () => {
    expect(threeWayMerge('a\nb\nc\n', 'a\nB\nc\n', 'a\nB\nc\n')).toEqual(clean('a\nB\nc\n'));
    // Same change in one region, different changes elsewhere: still clean.
    expect(threeWayMerge('a\nb\nc\nd\ne\n', 'A\nb\nC\nd\ne\n', 'a\nb\nC\nd\nE\n')).toEqual(clean('A\nb\nC\nd\nE\n'));
  });

  it('merges changes to different lines', () => {
    const base = 'first\nsecond\nthird\nfourth\n';
    expect(threeWayMerge(base, 'first!\nsecond\nthird\nfourth\n', 'first\nsecond\nthird\nfourth?\n')).toEqual(
      clean('first!\nsecond\nthird\nfourth?\n'),
    );
  });

  it('merges edits to different words of one line', () => {
    const base = 'The quick brown fox jumps over the lazy dog.';
    const ours = 'The quick red fox jumps over the lazy dog.';
    const theirs = 'The quick brown fox jumps over the sleepy dog.';
    expect(threeWayMerge(base, ours, theirs)).toEqual(clean('The quick red fox jumps over the sleepy dog.'));
  });

  it('keeps CRLF line endings and trailing whitespace through a merge', () => {
    const base = 'alpha  \r\nbeta\r\ngamma\t\r\ndelta';
    const ours = 'alpha  \r\nBETA\r\ngamma\t\r\ndelta';
    const theirs = 'alpha  \r\nbeta\r\ngamma\t\r\ndelta and more';
    expect(threeWayMerge(base, ours, theirs)).toEqual(clean('alpha  \r\nBETA\r\ngamma\t\r\ndelta and more'));
  });

  it('merges non-ASCII and emoji without splitting characters', () => {
    const base = 'Grüße 👋 an alle\nMorgen um 9 ☕\nTschüß 🎉🎉\n';
    const ours = 'Grüße 👋🏽 an alle\nMorgen um 9 ☕\nTschüß 🎉🎉\n';
    const theirs = 'Grüße 👋 an alle\nMorgen um 10 ☕\nTschüß 🎉🎊\n';
    const r = threeWayMerge(base, ours, theirs);
    expect(r).toEqual(clean('Grüße 👋🏽 an alle\nMorgen um 10 ☕\nTschüß 🎉🎊\n'));
    if (r.kind === 'clean') expect(LONE_SURROGATE.test(r.text)).toBe(false);
  });

  it('never splits a surrogate pair when emoji sharing a code unit change on both sides', () => {
    // 😀 and 😁 share their high surrogate: a UTF-16 diff would see a common half-character.
    const base = 'x 😀 y 😀 z';
    const r = threeWayMerge(base, 'x 😁 y 😀 z', 'x 😀 y 😀 w');
    expect(r).toEqual(clean('x 😁 y 😀 w'));
    const c = threeWayMerge(base, 'x 😁 y 😀 z', 'x 😂 y 😀 z');
    expect(c.kind).toBe('conflict');
  });

  it('merges a deletion with an unrelated edit, and conflicts on deleting what the other side edited', () => {
    const base = 'keep\ndrop me\nmiddle\nedit me\n';
    expect(threeWayMerge(base, 'keep\nmiddle\nedit me\n', 'keep\ndrop me\nmiddle\nedited\n')).toEqual(clean('keep\nmiddle\nedited\n'));
    const r = threeWayMerge(base, 'keep\nmiddle\nedit me\n', 'keep\ndrop me, changed\nmiddle\nedit me\n');
    expect(r.kind).toBe('conflict');
  });

  it('handles deleting everything and appending past a missing final newline', () => {
    expect(threeWayMerge('a\nb', '', 'a\nb')).toEqual(clean(''));
    expect(threeWayMerge('a\nb', 'A\nb', 'a\nb\nc')).toEqual(clean('A\nb\nc'));
  });

  it('reports overlapping changes as a conflict keeping all three texts verbatim', () => {
    const base = 'Meet at 10:00 in room 4.\r\n';
    const ours = 'Meet at 11:00 in room 4.\r\n';
    const theirs = 'Meet at 10:30 in room 4.\r\n';
    expect(threeWayMerge(base, ours, theirs)).toEqual({ kind: 'conflict', base, ours, theirs });
  });

  it('conflicts when both sides insert different text at the same place', () => {
    const r = threeWayMerge('a\nz\n', 'a\nmine\nz\n', 'a\ntheirs\nz\n');
    expect(r.kind).toBe('conflict');
  });

  it('is symmetric for clean merges', () => {
    const base = 'p q r\ns t u\n';
    const a = 'P q r\ns t u\n';
    const b = 'p q r\ns t U\n';
    expect(threeWayMerge(base, a, b)).toEqual(threeWayMerge(base, b, a));
  });
});

describe('threeWayMerge on seeded random documents', () => {
  const pieces = ['alpha', 'béta', '🎉', '👨‍👩‍👧', 'x\t', 'CRLF\r', '', '  ', '日本'];
  it('merges edits to lines far apart into exactly the expected text', () => {
    const rand = seededRandom(42);
    const pick = () => pieces[Math.floor(rand() * pieces.length)] ?? '';
    for (let trial = 0; trial < 200; trial++) {
      const n = 6 + Math.floor(rand() * 10);
      const lines = Array.from({ length: n }, (_, i) => `${i} ${pick()} ${pick()}${rand() < 0.5 ? '\r\n' : '\n'}`);
      // Ours touches even lines in the first half, theirs odd lines in the second: never adjacent.
      const ours = lines.map((l, i) => (i < n / 2 - 1 && i % 2 === 0 && rand() < 0.6 ? `${l.trimEnd()} ${pick()}mine\n` : l));
      const theirs = lines.map((l, i) => (i > n / 2 + 1 && i % 2 === 1 && rand() < 0.6 ? `theirs${pick()}\r\n` : l));
      const expected = lines.map((l, i) => (ours[i] !== l ? ours[i] : theirs[i])).join('');
      expect(threeWayMerge(lines.join(''), ours.join(''), theirs.join(''))).toEqual(clean(expected));
    }
  });
});

describe('mergeForEditing: the text "Edit a merge" starts from', () => {
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

  it("marks the lines whose words collide, keeping both sides' other changes", () => {
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

  it('takes a deletion by one side and a change by the other elsewhere, and an identical change once', () => {
    expect(mergeForEditing('one\ntwo\nthree\nfour\n', 'one\nthree\nfour\n', 'one\ntwo\nthree\nFOUR\n')).toEqual({ text: 'one\nthree\nFOUR\n', conflicts: 0 });
    expect(mergeForEditing('a\nb\n', 'a\nB\n', 'a\nB\n')).toEqual({ text: 'a\nB\n', conflicts: 0 });
  });

  it('is clean exactly when the automatic merge is', () => {
    const cases: [string, string, string][] = [
      [base, base.replace('noon', 'two'), base.replace('noon', 'one')],
      [base, base.replace('gate', 'door'), base.replace('umbrella', 'coat')],
      ['x', 'y', 'x'],
    ];
    for (const [b, o, t] of cases) expect(mergeForEditing(b, o, t).conflicts === 0).toBe(threeWayMerge(b, o, t).kind === 'clean');
  });
});

describe('merge markers', () => {
  it('sees only its own marker lines, not a heading underline', () => {
    expect(hasConflictMarkers('Title\n=======\ntext')).toBe(false);
    expect(hasConflictMarkers('a <<<<<<< yours b')).toBe(false);
    expect(hasConflictMarkers('a\r\n>>>>>>> theirs\r\n')).toBe(true);
  });
});
