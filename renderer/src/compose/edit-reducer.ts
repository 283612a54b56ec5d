/**
 * Pure: the inline editor of a message. One's own message edits its content (the raw Markdown,
 * from `messageRawContent`); a user who may move messages also gets the topic and channel of a
 * channel message, with the move's options (which messages, the two notices).
 *
 *   loading --rawLoaded--> ready --saving--> saving --(answers)--> closed
 *      \--rawFailed--> ready without content (a move is still possible), or error (nothing to do)
 *                                       saving --saveFailed--> ready (+ the reason)
 *
 * The raw text the edit started from is kept as `base` and sent with the new text, so the engine
 * can merge with an edit made elsewhere meanwhile.
 */
import { moveChanged, moveRequest, type MoveFields, type MoveRequest } from '../shared/move-form.js';
import { canSubmit } from './compose-reducer.js';

export type EditPhase = 'loading' | 'ready' | 'saving' | 'error';

export interface EditState {
  messageId: number;
  phase: EditPhase;
  /** The content is editable (one's own message). */
  content: boolean;
  /** The raw Markdown the edit started from (null until loaded, or when it could not be). */
  base: string | null;
  text: string;
  /** Why the raw text could not be loaded (the content stays as it is; a move still can be made). */
  rawError: string | null;
  /** Topic and channel, when the user may move this message. */
  move: MoveFields | null;
  error: string | null;
  /** Files attached in the editor (their uploads' local ids), linked after the text when saved. */
  uploads: readonly number[];
}

export function startEdit(messageId: number, opts: { content: boolean; move: MoveFields | null }): EditState {
  return { messageId, phase: opts.content ? 'loading' : 'ready', content: opts.content, base: null, text: '', rawError: null, move: opts.move, error: null, uploads: [] };
}

export function rawLoaded(s: EditState, raw: string): EditState {
  if (s.phase !== 'loading') return s;
  return { ...s, phase: 'ready', base: raw, text: raw, rawError: null, error: null };
}

/** The raw text is not available: edit the topic alone when possible, else say why and stop. */
export function rawFailed(s: EditState, reason: string): EditState {
  if (s.phase !== 'loading') return s;
  return s.move !== null ? { ...s, phase: 'ready', rawError: reason } : { ...s, phase: 'error', rawError: reason, error: reason };
}

export function editText(s: EditState, text: string): EditState {
  return s.phase === 'ready' && s.base !== null ? { ...s, text } : s;
}

export function editMove(s: EditState, patch: Partial<MoveFields>): EditState {
  return s.phase === 'ready' && s.move !== null ? { ...s, move: { ...s.move, ...patch } } : s;
}

/** Files attached to the text: while it is being read too (kept for when it arrives), never to a topic-only edit. */
export function editUploads(s: EditState, uploads: readonly number[]): EditState {
  return s.content && ((s.phase === 'ready' && s.base !== null) || s.phase === 'loading') ? { ...s, uploads } : s;
}

/** The text changed, or files were attached. */
export function contentChanged(s: EditState): boolean {
  return s.content && s.base !== null && (s.text !== s.base || s.uploads.length > 0);
}

export function topicOrChannelChanged(s: EditState): boolean {
  return s.move !== null && moveChanged(s.move);
}

/** Saving is possible once ready, with something changed, and never to an empty message. */
export function canSave(s: EditState): boolean {
  if (s.phase !== 'ready') return false;
  const content = contentChanged(s);
  if (content && !canSubmit(s.text) && s.uploads.length === 0) return false;
  return content || topicOrChannelChanged(s);
}

export interface SaveRequests {
  edit: { message_id: number; content: string; base_raw_content: string; uploads?: number[] } | null;
  move: MoveRequest | null;
}

/** What Save sends: the content edit first (when changed), then the move (when changed). */
export function saveRequests(s: EditState): SaveRequests {
  return {
    edit: contentChanged(s) && s.base !== null ? { message_id: s.messageId, content: s.text, base_raw_content: s.base, ...(s.uploads.length > 0 ? { uploads: [...s.uploads] } : {}) } : null,
    move: s.move === null ? null : moveRequest(s.messageId, s.move),
  };
}

export function saving(s: EditState): EditState {
  return canSave(s) ? { ...s, phase: 'saving', error: null } : s;
}

/** The content edit is queued while the move was refused: the text now counts as the start. */
export function contentSaved(s: EditState): EditState {
  return { ...s, base: s.text, uploads: [] };
}

/** The engine refused: back to the form, with the reason. */
export function saveFailed(s: EditState, error: string): EditState {
  return s.phase === 'saving' ? { ...s, phase: 'ready', error } : s;
}
