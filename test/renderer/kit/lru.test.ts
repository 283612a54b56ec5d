import { describe, expect, it } from 'vitest';
import { lruMemo, recentKeys } from '../../../renderer/src/kit/lru.js';

describe('lruMemo', () => {
  it('computes once per distinct input and answers repeats from memory', () => {
    const calls: string[] = [];
    const m = lruMemo((k) => {
      calls.push(k);
      return k.toUpperCase();
    }, 3);
    expect(m('a')).toBe('A');
    expect(m('b')).toBe('B');
    expect(m('a')).toBe('A');
    expect(calls).toEqual(['a', 'b']);
    expect(m.size).toBe(2);
  });

  it('evicts the least recently used entry beyond its capacity', () => {
    const calls: string[] = [];
    const m = lruMemo((k) => {
      calls.push(k);
      return k.length;
    }, 2);
    m('a');
    m('bb');
    m('a'); // a is now the most recent
    m('ccc'); // evicts bb
    expect(m.size).toBe(2);
    m('a');
    expect(calls).toEqual(['a', 'bb', 'ccc']);
    m('bb'); // computed again; evicts ccc (a was used after it)
    expect(calls).toEqual(['a', 'bb', 'ccc', 'bb']);
    m('a');
    expect(calls).toEqual(['a', 'bb', 'ccc', 'bb']);
  });

  it('refuses a capacity below one', () => {
    expect(() => lruMemo((k) => k, 0)).toThrow(/capacity/);
  });
});

describe('recentKeys', () => {
  it('keeps the last keys used and answers the one each new key pushes out, the least recently used', () => {
    const r = recentKeys<number>(3);
    expect([1, 2, 3].map((k) => r.use(k))).toEqual([[], [], []]);
    expect(r.use(1)).toEqual([]); // used again: now the most recent, nothing pushed out
    expect(r.use(4)).toEqual([2]);
    expect(r.use(5)).toEqual([3]);
    expect(r.use(2)).toEqual([1]); // a key pushed out comes back as new
    expect(r.use(5)).toEqual([]); // 5 is still kept; 4 and 2 too
    expect(r.use(3)).toEqual([4]);
  });

  it('refuses a capacity below one', () => {
    expect(() => recentKeys(0)).toThrow(/capacity/);
  });
});
