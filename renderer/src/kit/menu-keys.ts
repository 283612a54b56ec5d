/**
 * Pure: keyboard movement in menus and grids (WAI-ARIA menu pattern). Down / Up wrap around,
 * Home / End jump; in a grid Left / Right step and Up / Down move a row, staying inside. Returns
 * the index to focus, or null when the key is not a movement key.
 */

export function menuIndex(key: string, current: number, count: number): number | null {
  if (count <= 0) return null;
  switch (key) {
    case 'ArrowDown':
      return current < 0 ? 0 : (current + 1) % count;
    case 'ArrowUp':
      return current < 0 ? count - 1 : (current - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

export function gridIndex(key: string, current: number, count: number, columns: number): number | null {
  if (count <= 0 || columns <= 0) return null;
  const clamp = (i: number) => Math.max(0, Math.min(count - 1, i));
  switch (key) {
    case 'ArrowRight':
      return clamp(current + 1);
    case 'ArrowLeft':
      return clamp(current - 1);
    case 'ArrowDown':
      return current + columns < count ? current + columns : current;
    case 'ArrowUp':
      return current - columns >= 0 ? current - columns : current;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}
