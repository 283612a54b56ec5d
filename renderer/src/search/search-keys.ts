/**
 * Pure: what a key does in the search box's combobox. Up / Down move through the suggestions
 * (opening the list), Enter picks the highlighted one, Tab picks it or the first completion (not
 * the literal "Search for …"), Escape closes an expanded list. Null: the key is the box's own.
 */
import type { Suggestion } from './suggestions.js';

/** `move`: open the list and move the highlight (kit/menu-keys.ts `menuIndex`, over the list as opened). */
export type SearchKeyAction = { kind: 'move' } | { kind: 'pick'; suggestion: Suggestion } | { kind: 'close' };

export function searchKey(key: string, shift: boolean, box: { open: boolean; active: number; items: readonly Suggestion[] }): SearchKeyAction | null {
  switch (key) {
    case 'ArrowDown':
    case 'ArrowUp':
      return { kind: 'move' };
    case 'Enter': {
      const s = box.items[box.active];
      return box.open && s ? { kind: 'pick', suggestion: s } : null;
    }
    case 'Tab': {
      if (shift || !box.open) return null;
      const s = box.items[box.active] ?? box.items.find((x) => x.kind !== 'search');
      return s && s.kind !== 'search' ? { kind: 'pick', suggestion: s } : null;
    }
    case 'Escape':
      return box.items.length > 0 ? { kind: 'close' } : null;
    default:
      return null;
  }
}
