/** Which message the keyboard selects next (j / k / Home / End). */
import { describe, expect, it } from 'vitest';
import { stepSelection } from '../../../renderer/src/keys/step-selection.js';

const ids = [10, 20, 30, 40];
const screen = (...shown: number[]) => () => shown;

describe('stepSelection', () => {
  it('goes to the ends', () => {
    expect(stepSelection(ids, 20, screen(), 'first')).toBe(10);
    expect(stepSelection(ids, 20, screen(), 'last')).toBe(40);
  });
  it('steps from the selected message and stops at the ends', () => {
    expect(stepSelection(ids, 20, screen(), 'next')).toBe(30);
    expect(stepSelection(ids, 20, screen(), 'prev')).toBe(10);
    expect(stepSelection(ids, 40, screen(), 'next')).toBe(40);
    expect(stepSelection(ids, 10, screen(), 'prev')).toBe(10);
  });
  it('with nothing selected starts from what is on screen, else from an end', () => {
    expect(stepSelection(ids, null, screen(20, 30), 'next')).toBe(20);
    expect(stepSelection(ids, null, screen(20, 30), 'prev')).toBe(30);
    expect(stepSelection(ids, 99, screen(), 'next')).toBe(10);
    expect(stepSelection(ids, null, screen(), 'prev')).toBe(40);
  });
  it('has nothing to select in an empty list', () => {
    expect(stepSelection([], null, screen(), 'first')).toBeUndefined();
  });
});
