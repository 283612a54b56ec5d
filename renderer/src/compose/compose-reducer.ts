/** Pure: the composer's keys (the inline editor's transitions are in edit-reducer.ts). */

/** What a key press in a composer or editor textarea does. */
export type KeyAction = 'submit' | 'newline' | 'none';

export function keyAction(e: { key: string; shiftKey: boolean; isComposing?: boolean }): KeyAction {
  if (e.key !== 'Enter') return 'none';
  // An IME composing a character uses Enter to commit it; never send then.
  if (e.isComposing === true) return 'none';
  return e.shiftKey ? 'newline' : 'submit';
}

/** Send is possible only with something to send (whitespace alone is not a message). */
export function canSubmit(text: string): boolean {
  return text.trim() !== '';
}
