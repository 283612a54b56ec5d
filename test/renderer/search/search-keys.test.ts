/** What a key does in the search box's combobox. */
import { describe, expect, it } from 'vitest';
import { searchKey } from '../../../renderer/src/search/search-keys.js';
import type { Suggestion } from '../../../renderer/src/search/suggestions.js';

const op: Suggestion = { kind: 'operator', query: 'channel:', label: 'channel', term: 'channel:' };
const literal: Suggestion = { kind: 'search', query: 'lunch', label: 'Search for lunch', term: '' };

describe('searchKey', () => {
  it('arrows move (and open the list)', () => {
    expect(searchKey('ArrowDown', false, { open: false, active: -1, items: [] })).toEqual({ kind: 'move' });
    expect(searchKey('ArrowUp', false, { open: true, active: 0, items: [op] })).toEqual({ kind: 'move' });
  });
  it('Enter picks the highlighted suggestion only; otherwise the form searches', () => {
    expect(searchKey('Enter', false, { open: true, active: 0, items: [op] })).toEqual({ kind: 'pick', suggestion: op });
    expect(searchKey('Enter', false, { open: true, active: -1, items: [op] })).toBeNull();
    expect(searchKey('Enter', false, { open: false, active: 0, items: [op] })).toBeNull();
  });
  it('Tab completes the highlighted or first completion, never the literal search', () => {
    expect(searchKey('Tab', false, { open: true, active: -1, items: [literal, op] })).toEqual({ kind: 'pick', suggestion: op });
    expect(searchKey('Tab', false, { open: true, active: 0, items: [literal] })).toBeNull();
    expect(searchKey('Tab', true, { open: true, active: 1, items: [literal, op] })).toBeNull();
  });
  it('Escape closes an expanded list and is left alone otherwise', () => {
    expect(searchKey('Escape', false, { open: true, active: -1, items: [op] })).toEqual({ kind: 'close' });
    expect(searchKey('Escape', false, { open: false, active: -1, items: [] })).toBeNull();
    expect(searchKey('a', false, { open: true, active: -1, items: [op] })).toBeNull();
  });
});
