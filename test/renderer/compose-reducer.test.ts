/** The composer's keys and the inline editor's transitions (raw text loaded, typed, saved or refused). */
import { describe, expect, it } from 'vitest';
import { canSave, canSubmit, editText, keyAction, rawFailed, rawLoaded, saveFailed, saving, sendHint, startEdit } from '../../renderer/src/compose/compose-reducer.js';

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

describe('inline editor', () => {
  it('loads the raw text, then saves only a changed, non-empty text', () => {
    const s0 = startEdit(42);
    expect(s0).toMatchObject({ messageId: 42, phase: 'loading', base: null });
    expect(canSave(s0)).toBe(false);
    expect(editText(s0, 'typed too early')).toBe(s0);
    const s1 = rawLoaded(s0, 'hello **world**');
    expect(s1).toMatchObject({ phase: 'ready', base: 'hello **world**', text: 'hello **world**' });
    expect(canSave(s1)).toBe(false); // unchanged
    expect(canSave(editText(s1, '   '))).toBe(false);
    const s2 = editText(s1, 'hello there');
    expect(canSave(s2)).toBe(true);
    const s3 = saving(s2);
    expect(s3).toMatchObject({ phase: 'saving', base: 'hello **world**', text: 'hello there' });
    expect(editText(s3, 'changed while saving')).toBe(s3);
  });

  it('a refused save goes back to the text with the reason; a failed load says why', () => {
    const s = saving(editText(rawLoaded(startEdit(1), 'a'), 'b'));
    expect(saveFailed(s, 'Check what you entered: deadline passed')).toMatchObject({ phase: 'ready', text: 'b', error: 'Check what you entered: deadline passed' });
    expect(rawFailed(startEdit(1), 'Could not reach the server')).toMatchObject({ phase: 'error', error: 'Could not reach the server' });
  });

  it('late answers do not move an editor that is past them', () => {
    const ready = rawLoaded(startEdit(1), 'a');
    expect(rawLoaded(ready, 'other')).toBe(ready);
    expect(rawFailed(ready, 'late')).toBe(ready);
    expect(saveFailed(ready, 'late')).toBe(ready);
    expect(saving(ready)).toBe(ready); // nothing to save
  });
});
