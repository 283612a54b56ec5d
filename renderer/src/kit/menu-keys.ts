/**
 * Pure: keyboard movement in menus, lists and grids (WAI-ARIA menu pattern). In a menu Down / Up
 * wrap around; in a list they stop at the ends; in a grid Left / Right step and Up / Down move a
 * row, staying inside. Home / End jump to the ends in all three. Returns the index to focus, or
 * null when the key is not a movement key.
 */

/** Home and End jump to the ends; another key moves as `moves` says, or is no movement key. */
function step(key: string, count: number, moves: Partial<Record<string, () => number>>): number | null {
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  const move = Object.hasOwn(moves, key) ? moves[key] : undefined;
  return move ? move() : null;
}

export function menuIndex(key: string, current: number, count: number): number | null {
  if (count <= 0) return null;
  return step(key, count, {
    ArrowDown: () => (current < 0 ? 0 : (current + 1) % count),
    ArrowUp: () => (current < 0 ? count - 1 : (current - 1 + count) % count),
  });
}

/** Focus moving between a list's rows: nothing focused yet starts at the first row either way. */
export function listIndex(key: string, current: number, count: number): number | null {
  if (count <= 0) return null;
  return step(key, count, {
    ArrowDown: () => (current < 0 ? 0 : Math.min(current + 1, count - 1)),
    ArrowUp: () => (current < 0 ? 0 : Math.max(current - 1, 0)),
  });
}

export function gridIndex(key: string, current: number, count: number, columns: number): number | null {
  if (count <= 0 || columns <= 0) return null;
  const clamp = (i: number) => Math.max(0, Math.min(count - 1, i));
  return step(key, count, {
    ArrowRight: () => clamp(current + 1),
    ArrowLeft: () => clamp(current - 1),
    ArrowDown: () => (current + columns < count ? current + columns : current),
    ArrowUp: () => (current - columns >= 0 ? current - columns : current),
  });
}
