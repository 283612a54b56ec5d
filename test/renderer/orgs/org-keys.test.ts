/** The organisations bar's pure parts: which organisation a shortcut shows, moving one, initials. */
import { describe, expect, it } from 'vitest';
import { initials, moved, orgForKey, tileLetters } from '../../../renderer/src/orgs/org-keys.js';

const key = (k: string, mods: { shift?: boolean; ctrl?: boolean; alt?: boolean } = {}) => ({ key: k, ctrlKey: mods.ctrl ?? true, shiftKey: mods.shift ?? false, altKey: mods.alt ?? false, metaKey: false });
const ids = ['a', 'b', 'c'];

describe('organisation shortcuts', () => {
  it('Ctrl+Tab goes to the next, wrapping; Ctrl+Shift+Tab to the previous, wrapping', () => {
    expect(orgForKey(key('Tab'), ids, 'a')).toBe('b');
    expect(orgForKey(key('Tab'), ids, 'c')).toBe('a');
    expect(orgForKey(key('Tab', { shift: true }), ids, 'a')).toBe('c');
    expect(orgForKey(key('Tab', { shift: true }), ids, 'b')).toBe('a');
    expect(orgForKey(key('Tab'), ids, null)).toBe('a');
  });

  it('Ctrl+1..9 picks by place; nothing for a place without one, other keys or other modifiers', () => {
    expect(orgForKey(key('1'), ids, 'c')).toBe('a');
    expect(orgForKey(key('3'), ids, 'a')).toBe('c');
    expect(orgForKey(key('4'), ids, 'a')).toBeNull();
    expect(orgForKey(key('1', { ctrl: false }), ids, 'a')).toBeNull();
    expect(orgForKey(key('1', { alt: true }), ids, 'a')).toBeNull();
    expect(orgForKey(key('k'), ids, 'a')).toBeNull();
    expect(orgForKey(key('Tab'), [], null)).toBeNull();
  });

  it('moves one place up or down, never past either end', () => {
    expect(moved(ids, 'b', -1)).toEqual(['b', 'a', 'c']);
    expect(moved(ids, 'b', 1)).toEqual(['a', 'c', 'b']);
    expect(moved(ids, 'a', -1)).toEqual(ids);
    expect(moved(ids, 'c', 1)).toEqual(ids);
  });

  it('initials: the first letters of two words, or the first two letters', () => {
    expect(initials('Zulip Community')).toBe('ZC');
    expect(initials('Alpha')).toBe('AL');
    expect(initials('école')).toBe('ÉC');
    // The engine's "(host)" for equal names is not part of the name.
    expect(initials('Sandbox (127.0.0.1:39017)')).toBe('SA');
    // Equal initials are numbered in the bar's order.
    expect(tileLetters(['Sandbox (127.0.0.1:1)', 'Zulip Community', 'Sandbox (127.0.0.1:2)'])).toEqual(['S1', 'ZC', 'S2']);
  });
});
