/**
 * The composer's draft saving, debounced: every edit (text, topic, people) is handed to `change`,
 * and the engine hears the latest text once typing pauses (`delayMs`, 100 ms) or at the latest
 * `maxWaitMs` (150 ms) after the first unsaved edit, so what was typed more than a quarter second
 * ago is in the engine's database even if the host is killed now; `flush` saves at once (blur,
 * switching conversation, the page hidden or closing). Never one call per keystroke, and never the
 * same text twice. A save the engine did not confirm (the host away or restarting) stays pending
 * and is tried again every `retryMs` until one is, or a newer edit takes its place.
 *
 * A draft follows its conversation: when the target moves (a new topic renamed while typing, people
 * added to a new DM) the copy this composer wrote under the old key is deleted once the new one is
 * saved. After a send, `sent` forgets everything pending: the engine deleted the conversation's
 * draft when it queued the message, and a late save must not bring it back.
 *
 * Plain TypeScript with injectable timers (unit-tested without a DOM).
 */
import type { Timers } from '../core/area-query.js';
import { globalTimers } from '../core/area-query.js';
import type { DraftTo } from './drafts.js';

export const DRAFT_DELAY_MS = 100;
export const DRAFT_MAX_WAIT_MS = 150;
export const DRAFT_RETRY_MS = 1000;

export interface DraftSaverDeps {
  save(to: DraftTo, content: string): Promise<unknown>;
  remove(key: string): Promise<unknown>;
  keyOf(to: DraftTo): string;
  delayMs?: number;
  maxWaitMs?: number;
  retryMs?: number;
  timers?: Timers;
  now?: () => number;
}

export interface DraftSaver {
  /** The composer's state changed; `to` null when it has nowhere to go yet (a DM without people). */
  change(to: DraftTo | null, content: string): void;
  /** Save what is pending now. */
  flush(): void;
  /** The composer started from this saved draft (restored): it is this composer's to move or clear. */
  adopt(to: DraftTo, content: string): void;
  /** A message to `to` was queued: drop what is pending; a copy left under another key goes too. */
  sent(to: DraftTo): void;
  /** Whether an edit waits to be saved. */
  pending(): boolean;
  /** Flush and stop. */
  dispose(): void;
}

export function createDraftSaver(deps: DraftSaverDeps): DraftSaver {
  const timers = deps.timers ?? globalTimers;
  const now = deps.now ?? (() => Date.now());
  const delay = deps.delayMs ?? DRAFT_DELAY_MS;
  const maxWait = deps.maxWaitMs ?? DRAFT_MAX_WAIT_MS;
  const retry = deps.retryMs ?? DRAFT_RETRY_MS;
  let pending: { to: DraftTo; content: string } | null = null;
  /** What the engine holds from this composer. */
  let saved: { key: string; content: string } | null = null;
  let timer: unknown;
  let firstAt = 0;
  let disposed = false;

  const stop = () => {
    if (timer !== undefined) timers.clear(timer);
    timer = undefined;
  };

  const flush = () => {
    stop();
    if (pending === null) return;
    const { to, content } = pending;
    pending = null;
    const key = deps.keyOf(to);
    const moved = saved !== null && saved.key !== key && saved.content.trim() !== '' ? saved.key : null;
    const wrote = { key, content };
    saved = wrote;
    deps.save(to, content).then(
      () => {
        if (moved !== null) void deps.remove(moved).catch(() => undefined);
      },
      () => {
        // Not kept (no account, host away): pending again, unless something newer replaced it.
        if (saved !== wrote) return;
        saved = null;
        if (pending !== null || disposed) return;
        pending = { to, content };
        firstAt = now();
        timer = timers.set(flush, retry);
      },
    );
  };

  return {
    change(to, content) {
      if (disposed) return;
      if (to === null) {
        pending = null;
        stop();
        return;
      }
      const key = deps.keyOf(to);
      if (saved !== null && saved.key === key && saved.content === content) {
        // Back to what the engine has: nothing to write.
        pending = null;
        stop();
        return;
      }
      // A first edit of nothing, with nothing saved: no draft to write either.
      if (saved === null && content.trim() === '') {
        pending = null;
        stop();
        return;
      }
      if (pending === null) firstAt = now();
      pending = { to, content };
      stop();
      const wait = Math.max(0, Math.min(delay, firstAt + maxWait - now()));
      timer = timers.set(flush, wait);
    },
    flush,
    adopt(to, content) {
      saved = { key: deps.keyOf(to), content };
    },
    sent(to) {
      stop();
      pending = null;
      if (saved !== null && saved.key !== deps.keyOf(to) && saved.content.trim() !== '') void deps.remove(saved.key).catch(() => undefined);
      saved = null;
    },
    pending: () => pending !== null,
    dispose() {
      flush();
      disposed = true;
    },
  };
}
