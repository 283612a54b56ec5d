/** Pure: the composer's keys (the inline editor's transitions are in edit-reducer.ts). */

/** What a key press in a composer or editor textarea does. */
export type KeyAction = 'submit' | 'newline' | 'none';

export interface EnterKey {
  key: string;
  shiftKey: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  isComposing?: boolean;
}

/**
 * Enter in a composer, as Zulip web does with the user's `enter_sends`: when true, Enter sends and
 * Shift+Enter is a new line; when false, Enter is a new line and Ctrl+Enter (Cmd+Enter on macOS)
 * sends. Ctrl/Cmd+Enter sends either way. The inline editor calls it with `enterSends` true.
 */
export function keyAction(e: EnterKey, enterSends = true): KeyAction {
  if (e.key !== 'Enter') return 'none';
  // An IME composing a character uses Enter to commit it; never send then.
  if (e.isComposing === true) return 'none';
  if (e.shiftKey || e.altKey === true) return 'newline';
  if (e.ctrlKey === true || e.metaKey === true) return 'submit';
  return enterSends ? 'submit' : 'newline';
}

/** The hint under a composer: which key sends. */
export function sendHint(enterSends: boolean, mac = false): string {
  return enterSends ? 'Enter sends, Shift+Enter adds a line' : `${mac ? 'Cmd' : 'Ctrl'}+Enter sends, Enter adds a line`;
}

/** Send is possible only with something to send (whitespace alone is not a message). */
export function canSubmit(text: string): boolean {
  return text.trim() !== '';
}
