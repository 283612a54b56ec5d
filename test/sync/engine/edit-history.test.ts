/** sync/engine/edit-history.ts wordDiff (jsdiff over words): the parts rebuild both texts and keep as many words as a longest common subsequence. */
import { describe, expect, it } from 'vitest';
import { editHistory, historyFromCache, historyFromSnapshots, MAX_DIFF_WORDS, wordDiff, type DiffPart } from '../../../sync/engine/edit-history.js';
import { streamMessage } from '../../support/eg.js';

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

describe('the original version', () => {
  it('from the cache: the content before the oldest content edit, else the content now', () => {
    const edited = streamMessage({
      content: '<p>third <b>take</b></p>',
      // Zulip's order: newest first, each with the state before it.
      edit_history: [
        { user_id: 5, timestamp: 30, prev_rendered_content: '<p>second take</p>', prev_content: 'second take' },
        { user_id: 5, timestamp: 20, prev_topic: 'a', topic: 'b' },
        { user_id: 5, timestamp: 10, prev_rendered_content: '<p>first take</p>', prev_content: 'first take' },
      ],
    });
    expect(historyFromCache(edited)?.original).toBe('first take');
    const moved = streamMessage({ content: '<p>only <em>moved</em></p>', edit_history: [{ user_id: 5, timestamp: 20, prev_topic: 'a', topic: 'b' }] });
    expect(historyFromCache(moved)?.original).toBe('only moved');
  });

  it('from the server: the first snapshot; never edited: the content now', async () => {
    const snap = (rendered: string, prev?: string) => ({ user_id: 5, timestamp: 1, topic: 't', content: '', rendered_content: rendered, ...(prev === undefined ? {} : { prev_rendered_content: prev }) });
    expect(historyFromSnapshots(9, [snap('<p>as posted</p>'), snap('<p>as edited</p>', '<p>as posted</p>')]).original).toBe('as posted');
    const never = streamMessage({ content: '<p>never edited</p>' });
    expect(await editHistory(undefined, never, never.id)).toEqual({ message_id: never.id, source: 'cache', original: 'never edited', steps: [] });
  });
});
