/** The composer's keys (the inline editor's transitions: edit-reducer.test.ts). */
import { describe, expect, it } from 'vitest';
import { canSubmit, keyAction } from '../../renderer/src/compose/compose-reducer.js';

describe('composer keys', () => {
  it('Enter submits, Shift+Enter is a new line, other keys do nothing', () => {
    expect(keyAction({ key: 'Enter', shiftKey: false })).toBe('submit');
    expect(keyAction({ key: 'Enter', shiftKey: true })).toBe('newline');
    expect(keyAction({ key: 'a', shiftKey: false })).toBe('none');
  });

  it('Enter committing an IME composition never sends', () => {
    expect(keyAction({ key: 'Enter', shiftKey: false, isComposing: true })).toBe('none');
  });

  it('there is something to send only with more than whitespace', () => {
    expect(canSubmit('')).toBe(false);
    expect(canSubmit(' \n\t')).toBe(false);
    expect(canSubmit(' hi ')).toBe(true);
  });
});
