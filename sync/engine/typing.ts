/**
 * "X is editing this message" (docs/sync-design.md "Typing while editing"): who is editing which
 * message, from `typing_edit_message` events. Nothing is persisted: typing is ephemeral. A `start`
 * is repeated by the editor every `server_typing_started_wait_period_milliseconds`; without a
 * refresh within `server_typing_started_expiry_period_milliseconds` it expires (the editor's
 * client crashed or went offline without sending `stop`).
 */
import type { EventOf } from '../api/index.js';
import type { TypingEditor } from '../protocol/commands.js';
import type { Clock } from './seams.js';

/** Zulip's default `server_typing_started_expiry_period_milliseconds`. */
export const DEFAULT_TYPING_EXPIRY_MS = 15_000;

type TypingEvent = EventOf<'typing'> | EventOf<'typing_edit_message'>;

export class TypingEditors {
  /** message id → editor user id → expiry (UNIX ms). */
  private readonly editing = new Map<number, Map<number, number>>();

  constructor(
    private readonly clock: Clock,
    /** Read on every event so a changed realm setting applies at once. */
    private readonly expiryMs: () => number = () => DEFAULT_TYPING_EXPIRY_MS,
  ) {}

  /** Feed the typing events of a batch, in order. Returns true when the visible set changed. */
  handle(events: readonly TypingEvent[]): boolean {
    let changed = false;
    for (const ev of events) {
      if (ev.type !== 'typing_edit_message') continue;
      const editors = this.editing.get(ev.message_id) ?? new Map<number, number>();
      if (ev.op === 'start') {
        if (!editors.has(ev.sender_id)) changed = true;
        editors.set(ev.sender_id, this.clock.now() + this.expiryMs());
        this.editing.set(ev.message_id, editors);
      } else if (editors.delete(ev.sender_id)) {
        changed = true;
        if (editors.size === 0) this.editing.delete(ev.message_id);
      }
    }
    return changed;
  }

  /** Current editors (expired ones dropped), by message id ascending, user ids ascending. */
  list(): TypingEditor[] {
    const now = this.clock.now();
    const out: TypingEditor[] = [];
    for (const [messageId, editors] of [...this.editing].sort((a, b) => a[0] - b[0])) {
      for (const [userId, expiry] of editors) if (expiry <= now) editors.delete(userId);
      if (editors.size === 0) {
        this.editing.delete(messageId);
        continue;
      }
      out.push({ message_id: messageId, user_ids: [...editors.keys()].sort((a, b) => a - b) });
    }
    return out;
  }

  /** The earliest expiry, so a UI timer can re-query exactly then (undefined when nobody edits). */
  nextExpiry(): number | undefined {
    let next: number | undefined;
    for (const editors of this.editing.values()) for (const e of editors.values()) next = next === undefined ? e : Math.min(next, e);
    return next;
  }

  clear(): void {
    this.editing.clear();
  }
}
