/**
 * The inline editor of one's own message (one at a time): loads the raw Markdown to start from
 * (`messageRawContent`), then queues the edit (`editMessage`) with that text as its base. The
 * transitions are the pure ones in compose-reducer.ts; an answer for an editor the user already
 * closed or moved on from is dropped.
 */
import { createSignal } from 'solid-js';
import { bridge as defaultBridge, type Bridge } from '../core/bridge.js';
import { canSave, editText, rawFailed, rawLoaded, saveFailed, saving, startEdit, type EditState } from './compose-reducer.js';
import { errorText } from '../core/errors.js';

export interface EditStore {
  current(): EditState | null;
  start(messageId: number): void;
  setText(text: string): void;
  save(): void;
  cancel(): void;
}

export function createEditStore(bridge: Bridge = defaultBridge): EditStore {
  const [current, setCurrent] = createSignal<EditState | null>(null);
  /** Whether `s` is still the open editor (not cancelled, not replaced by another message's). */
  const stillOpen = (s: EditState) => current()?.messageId === s.messageId;

  const start = (messageId: number) => {
    const s = startEdit(messageId);
    setCurrent(s);
    bridge.invoke('messageRawContent', { message_id: messageId }).then(
      (r) => {
        const cur = current();
        if (cur && stillOpen(s)) setCurrent(rawLoaded(cur, r.raw_content));
      },
      (e: unknown) => {
        const cur = current();
        // Offline the server's raw text cannot be read: say so rather than guess it from the HTML.
        if (cur && stillOpen(s)) setCurrent(rawFailed(cur, errorText(e)));
      },
    );
  };

  return {
    current,
    start,
    setText: (text) => {
      const cur = current();
      if (cur) setCurrent(editText(cur, text));
    },
    save: () => {
      const cur = current();
      if (!cur || !canSave(cur) || cur.base === null) return;
      const s = saving(cur);
      setCurrent(s);
      bridge.invoke('editMessage', { message_id: s.messageId, content: s.text, base_raw_content: cur.base }).then(
        // Queued: the message shows the new text with a "saving" marker until the server has it.
        () => {
          if (current() === s) setCurrent(null);
        },
        (e: unknown) => {
          if (current() === s) setCurrent(saveFailed(s, errorText(e)));
        },
      );
    },
    cancel: () => setCurrent(null),
  };
}
