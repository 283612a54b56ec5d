import { describe, expect, it } from 'vitest';
import { lruMemo } from '../../../renderer/src/kit/lru.js';

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
