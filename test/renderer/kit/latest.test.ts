/** A value announced from one feature to another: listeners hear it, the latest stays until cleared. */
import { describe, expect, it } from 'vitest';
import { createLatest } from '../../../renderer/src/kit/latest.js';

describe('createLatest', () => {
  it('tells each listener, keeps the latest, and stops telling one that unsubscribed', () => {
    const c = createLatest<number>();
    expect(c.latest()).toBeNull();
    const heard: number[] = [];
    const off = c.subscribe((v) => heard.push(v));
    c.announce(1);
    off();
    c.announce(2);
    expect(heard).toEqual([1]);
    expect(c.latest()).toBe(2);
    c.clear();
    expect(c.latest()).toBeNull();
  });
});
