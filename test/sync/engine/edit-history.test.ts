/** sync/engine/edit-history.ts wordDiff (jsdiff over words): the parts rebuild both texts and keep as many words as a longest common subsequence. */
import { describe, expect, it } from 'vitest';
import { MAX_DIFF_WORDS, wordDiff, type DiffPart } from '../../../sync/engine/edit-history.js';

const words = (s: string) => s.split(/\s+/).filter(Boolean);
const side = (parts: readonly DiffPart[], keep: DiffPart['op']) => parts.filter((p) => p.op === 'same' || p.op === keep).flatMap((p) => words(p.text));

function lcsLength(a: readonly string[], b: readonly string[]): number {
  let prev = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    const row = [0];
    for (let j = 0; j < b.length; j++) row.push(x === b[j] ? prev[j]! + 1 : Math.max(prev[j + 1]!, row[j]!));
    prev = row;
  }
  return prev[b.length]!;
}

describe('wordDiff', () => {
  it('a word replaced: removed before added, the rest the same', () => {
    expect(wordDiff('the quick fox', 'the slow fox')).toEqual([
      { op: 'same', text: 'the' },
      { op: 'removed', text: 'quick' },
      { op: 'added', text: 'slow' },
      { op: 'same', text: 'fox' },
    ]);
    expect(wordDiff('a  b\nc', 'a b c')).toEqual([{ op: 'same', text: 'a b c' }]);
    expect(wordDiff('', 'new text')).toEqual([{ op: 'added', text: 'new text' }]);
    expect(wordDiff('old text', ' ')).toEqual([{ op: 'removed', text: 'old text' }]);
    expect(wordDiff('', '')).toEqual([]);
  });

  it('on random edits: both sides rebuild, parts alternate, and the same words are a longest common subsequence', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const vocab = ['a', 'b', 'c', 'd', 'e', 'lunch', 'at', 'noon'];
    for (let k = 0; k < 300; k++) {
      const a = Array.from({ length: rand(30) }, () => vocab[rand(vocab.length)]!);
      const b = a.filter(() => rand(4) !== 0);
      for (let i = rand(6); i > 0; i--) b.splice(rand(b.length + 1), 0, vocab[rand(vocab.length)]!);
      const parts = wordDiff(a.join(' '), b.join(' '));
      expect(side(parts, 'removed')).toEqual(a);
      expect(side(parts, 'added')).toEqual(b);
      for (let i = 1; i < parts.length; i++) expect(parts[i]!.op).not.toBe(parts[i - 1]!.op);
      expect(side(parts.filter((p) => p.op === 'same'), 'same')).toHaveLength(lcsLength(a, b));
    }
  });

  it(`past ${MAX_DIFF_WORDS} words on a side: all removed, all added`, () => {
    const long = Array.from({ length: MAX_DIFF_WORDS + 1 }, (_, i) => `w${i}`).join(' ');
    expect(wordDiff(long, `${long} more`)).toEqual([
      { op: 'removed', text: long },
      { op: 'added', text: `${long} more` },
    ]);
  });
});
