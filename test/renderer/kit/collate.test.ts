/** Names compared as a person reads them, by one kept collator (kit/collate.ts). */
import { describe, expect, it } from 'vitest';
import { byName, compareText } from '../../../renderer/src/kit/collate.js';

describe('compareText and byName', () => {
  it('ignore case and accents, and order as localeCompare with base sensitivity does', () => {
    expect(compareText('design', 'Design')).toBe(0);
    expect(compareText('élan', 'elan')).toBe(0);
    const names = ['zeta', 'Alpha', 'beta', 'Éclair', 'delta', 'Beta two'];
    const sorted = names.map((name) => ({ name })).sort(byName).map((c) => c.name);
    expect(sorted).toEqual(['Alpha', 'beta', 'Beta two', 'delta', 'Éclair', 'zeta']);
    expect(sorted).toEqual([...names].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' })));
  });
});
