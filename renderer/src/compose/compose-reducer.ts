/**
 * Pure: the composer's keys and the inline editor of one's own message.
 *
 * Editor: idle --start--> loading --rawLoaded--> ready --saving--> saving --(answer)--> idle
 *                            \--rawFailed--> error (retry with start, or cancel)      \--saveFailed--> ready (+ error)
 * The raw Markdown the edit starts from is kept as `base` and sent with the new text, so the
 * engine can merge with an edit made elsewhere meanwhile.
 */

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

export type EditPhase = 'loading' | 'ready' | 'saving' | 'error';

export interface EditState {
  messageId: number;
  phase: EditPhase;
  /** The raw Markdown the edit started from (null until loaded). */
  base: string | null;
  text: string;
  error: string | null;
}

export function startEdit(messageId: number): EditState {
  return { messageId, phase: 'loading', base: null, text: '', error: null };
}

export function rawLoaded(s: EditState, raw: string): EditState {
  if (s.phase !== 'loading') return s;
  return { ...s, phase: 'ready', base: raw, text: raw, error: null };
}

export function rawFailed(s: EditState, error: string): EditState {
  if (s.phase !== 'loading') return s;
  return { ...s, phase: 'error', error };
}

export function editText(s: EditState, text: string): EditState {
  return s.phase === 'ready' ? { ...s, text } : s;
}

/** Saving is possible once loaded, with text, and only when it differs from where it started. */
export function canSave(s: EditState): boolean {
  return s.phase === 'ready' && s.base !== null && canSubmit(s.text) && s.text !== s.base;
}

export function saving(s: EditState): EditState {
  return canSave(s) ? { ...s, phase: 'saving', error: null } : s;
}

/** The engine refused the edit: back to the text, with the reason. */
export function saveFailed(s: EditState, error: string): EditState {
  return s.phase === 'saving' ? { ...s, phase: 'ready', error } : s;
}
