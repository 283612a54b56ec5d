/**
 * The inline editor of a message (one at a time): loads the raw Markdown to start from
 * (`messageRawContent`), then queues the edit (`updateMessageContent`, with that text as its base) and the
 * move of its topic or channel (`updateMessageMove`), in that order. The transitions are the pure ones
 * in edit-reducer.ts; an answer for an editor the user already closed or moved on from is dropped.
 * Refusals come back in words: the engine's own reason when the raw text is not on this device
 * and the server cannot be reached; later failures of a queued change show on the message (its
 * outbox marker carries the server's words).
 *
 * While the text is open others are told we are editing it (typing-sender.ts, no idle stop): a
 * `start` on open, repeated while the user types, a `stop` on save or cancel.
 */
import { createSignal } from 'solid-js';
import { bridge as defaultBridge, isBridgeError, type Bridge } from '../core/bridge.js';
import { errorText, sentence } from '../core/errors.js';
import type { MoveFields, MoveRequest } from '../shared/move-form.js';
import { createTypingSender } from './typing-sender.js';
import { canSave, contentSaved, editMove, editText, editUploads, rawFailed, rawLoaded, saveFailed, saveRequests, saving, startEdit, type EditState } from './edit-reducer.js';

export interface EditStore {
  current(): EditState | null;
  start(messageId: number, opts: { content: boolean; move: MoveFields | null }): void;
  setText(text: string): void;
  /** The files attached in the editor (their uploads' local ids). */
  setUploads(uploads: readonly number[]): void;
  setMove(patch: Partial<MoveFields>): void;
  save(): void;
  cancel(): void;
  /** The view holding the editor is gone: stop telling others we edit. */
  dispose(): void;
}

export interface EditStoreOptions {
  /** A move was queued (the view may follow a topic that moved as a whole). */
  onMoved?(req: MoveRequest, from: { channelId: number; topic: string }): void;
}

/** Why the raw text cannot be had, in words: offline, the engine's own sentence says why. */
export function rawRefusal(e: unknown): string {
  return isBridgeError(e) && e.code === 'OFFLINE' ? sentence(e.message) : errorText(e);
}

export function createEditStore(bridge: Bridge = defaultBridge, opts: EditStoreOptions = {}): EditStore {
  const [current, setCurrent] = createSignal<EditState | null>(null);
  /** Whether `s` is still the open editor (not cancelled, not replaced by another message's). */
  const stillOpen = (s: EditState) => current()?.messageId === s.messageId;
  const typing = createTypingSender<number>({
    send: (id, op) => bridge.invoke('setEditTyping', { message_id: id, op }),
    keyOf: String,
    idleStop: false,
  });

  const start: EditStore['start'] = (messageId, o) => {
    const s = startEdit(messageId, o);
    setCurrent(s);
    // Only a change of the text is "editing" to the others (a move alone is not).
    if (!o.content) return typing.stop();
    typing.typed(messageId);
    bridge.invoke('messageRawContent', { message_id: messageId }).then(
      (r) => {
        const cur = current();
        if (cur && stillOpen(s)) setCurrent(rawLoaded(cur, r.raw_content));
      },
      (e: unknown) => {
        const cur = current();
        // Offline the server's raw text cannot be read: say so rather than guess it from the HTML.
        if (cur && stillOpen(s)) setCurrent(rawFailed(cur, rawRefusal(e)));
      },
    );
  };

  const save = async () => {
    const cur = current();
    if (!cur || !canSave(cur)) return;
    const s = saving(cur);
    setCurrent(s);
    typing.stop();
    const { edit, move } = saveRequests(s);
    let now = s;
    try {
      if (edit) {
        await bridge.invoke('updateMessageContent', edit);
        now = contentSaved(now);
      }
      if (move && now.move) {
        await bridge.invoke('updateMessageMove', move);
        opts.onMoved?.(move, { channelId: now.move.fromChannelId, topic: now.move.fromTopic });
      }
      // Queued: the message shows the change with a "saving" marker until the server has it.
      if (current() === s) setCurrent(null);
    } catch (e) {
      if (current() === s) setCurrent(saveFailed(now, errorText(e)));
    }
  };

  return {
    current,
    start,
    setText: (text) => {
      const cur = current();
      if (!cur) return;
      setCurrent(editText(cur, text));
      if (cur.content) typing.typed(cur.messageId);
    },
    setUploads: (uploads) => {
      const cur = current();
      if (cur) setCurrent(editUploads(cur, uploads));
    },
    setMove: (patch) => {
      const cur = current();
      if (cur) setCurrent(editMove(cur, patch));
    },
    save: () => void save(),
    cancel: () => {
      typing.stop();
      setCurrent(null);
    },
    dispose: () => typing.dispose(),
  };
}
