/** Keyboard movement in menus and the emoji grid, and where floating panels go. */
import { describe, expect, it } from 'vitest';
import { gridIndex, listIndex, menuIndex } from '../../../renderer/src/kit/menu-keys.js';
import { placePanel } from '../../../renderer/src/kit/place.js';

describe('menuIndex', () => {
  it('Down and Up wrap, Home and End jump, other keys are not movement', () => {
    expect(menuIndex('ArrowDown', 2, 3)).toBe(0);
    expect(menuIndex('ArrowDown', -1, 3)).toBe(0);
    expect(menuIndex('ArrowUp', 0, 3)).toBe(2);
    expect(menuIndex('ArrowUp', -1, 3)).toBe(2);
    expect(menuIndex('Home', 2, 3)).toBe(0);
    expect(menuIndex('End', 0, 3)).toBe(2);
    expect(menuIndex('a', 0, 3)).toBeNull();
    expect(menuIndex('ArrowDown', 0, 0)).toBeNull();
  });
});

describe('listIndex', () => {
  it('moves down, up, to the ends, and stays within the list', () => {
    expect(listIndex('ArrowDown', -1, 3)).toBe(0);
    expect(listIndex('ArrowDown', 2, 3)).toBe(2);
    expect(listIndex('ArrowUp', 0, 3)).toBe(0);
    expect(listIndex('ArrowUp', -1, 3)).toBe(0);
    expect(listIndex('ArrowUp', 2, 3)).toBe(1);
    expect(listIndex('End', 0, 3)).toBe(2);
    expect(listIndex('Home', 2, 3)).toBe(0);
    expect(listIndex('a', 0, 3)).toBeNull();
    expect(listIndex('ArrowDown', 0, 0)).toBeNull();
  });
});

describe('gridIndex', () => {
  it('moves by one or by a row, staying inside', () => {
    expect(gridIndex('ArrowRight', 0, 10, 8)).toBe(1);
    expect(gridIndex('ArrowRight', 9, 10, 8)).toBe(9);
    expect(gridIndex('ArrowLeft', 0, 10, 8)).toBe(0);
    expect(gridIndex('ArrowDown', 1, 10, 8)).toBe(9);
    expect(gridIndex('ArrowDown', 3, 10, 8)).toBe(3);
    expect(gridIndex('ArrowUp', 9, 10, 8)).toBe(1);
    expect(gridIndex('ArrowUp', 1, 10, 8)).toBe(1);
    expect(gridIndex('End', 1, 10, 8)).toBe(9);
    expect(gridIndex('Enter', 1, 10, 8)).toBeNull();
  });
});

describe('placePanel', () => {
  const anchor = { top: 100, bottom: 120, left: 500, right: 520 };
  it('below the anchor, right edges aligned', () => {
    expect(placePanel(anchor, 200, 150, 1280, 800)).toEqual({ left: 320, top: 124 });
  });

  it('above when there is no room below; left-aligned near the left edge; always inside', () => {
    expect(placePanel({ top: 700, bottom: 720, left: 500, right: 520 }, 200, 150, 1280, 800)).toEqual({ left: 320, top: 546 });
    expect(placePanel({ top: 100, bottom: 120, left: 30, right: 50 }, 200, 150, 1280, 800)).toEqual({ left: 30, top: 124 });
    expect(placePanel({ top: 100, bottom: 120, left: 1250, right: 1300 }, 200, 150, 1280, 800).left).toBe(1072);
    expect(placePanel({ top: 10, bottom: 30, left: 500, right: 520 }, 200, 900, 1280, 800).top).toBe(8);
  });
});
