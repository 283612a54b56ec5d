/** The composer's keys (the inline editor's transitions: edit-reducer.test.ts). */
import { describe, expect, it } from 'vitest';
import { canSubmit, keyAction, sendHint } from '../../../renderer/src/compose/compose-reducer.js';

describe('composer keys', () => {
  it('Enter submits, Shift+Enter is a new line, other keys do nothing', () => {
    expect(keyAction({ key: 'Enter', shiftKey: false })).toBe('submit');
    expect(keyAction({ key: 'Enter', shiftKey: true })).toBe('newline');
    expect(keyAction({ key: 'a', shiftKey: false })).toBe('none');
  });

  it('enter_sends off (Zulip’s default): Enter is a new line, Ctrl/Cmd+Enter sends; on: Enter sends', () => {
    expect(keyAction({ key: 'Enter', shiftKey: false }, false)).toBe('newline');
    expect(keyAction({ key: 'Enter', shiftKey: false, ctrlKey: true }, false)).toBe('submit');
    expect(keyAction({ key: 'Enter', shiftKey: false, metaKey: true }, false)).toBe('submit');
    expect(keyAction({ key: 'Enter', shiftKey: true }, false)).toBe('newline');
    expect(keyAction({ key: 'Enter', shiftKey: false }, true)).toBe('submit');
    expect(keyAction({ key: 'Enter', shiftKey: false, ctrlKey: true }, true)).toBe('submit');
    expect(keyAction({ key: 'Enter', shiftKey: false, altKey: true }, true)).toBe('newline');
    expect(sendHint(true)).toBe('Enter sends, Shift+Enter adds a line');
    expect(sendHint(false)).toBe('Ctrl+Enter sends, Enter adds a line');
    expect(sendHint(false, true)).toBe('Cmd+Enter sends, Enter adds a line');
  });

  it('Enter committing an IME composition never sends', () => {
    expect(keyAction({ key: 'Enter', shiftKey: false, isComposing: true }, false)).toBe('none');
    expect(keyAction({ key: 'Enter', shiftKey: false, ctrlKey: true, isComposing: true }, false)).toBe('none');
    expect(keyAction({ key: 'Enter', shiftKey: false, isComposing: true })).toBe('none');
  });

  it('there is something to send only with more than whitespace', () => {
    expect(canSubmit('')).toBe(false);
    expect(canSubmit(' \n\t')).toBe(false);
    expect(canSubmit(' hi ')).toBe(true);
  });
});
