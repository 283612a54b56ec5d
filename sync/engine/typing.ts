/**
 * "X is editing this message" (docs/sync-design.md "Typing while editing"): who is editing which
 * message, from `typing_edit_message` events. Nothing is persisted: typing is ephemeral. A `start`
 * is repeated by the editor every `server_typing_started_wait_period_milliseconds`; without a
 * refresh within `server_typing_started_expiry_period_milliseconds` it expires (the editor's
 * client crashed or went offline without sending `stop`).
 */
import type { EventOf } from '../api/index.js';
import type { TypingEditor } from '../protocol/commands.js';
import type { Clock } from '../base/seams.js';
import { topicKey } from '../../common/topic-key.js';

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

/** A conversation as the UI names it: a channel's topic, or the DM group's participants. */
export type TypingConversation = { type: 'channel'; channel_id: number; topic: string } | { type: 'direct'; user_ids: readonly number[] };

/**
 * The key of a conversation: `channel:ID:topic` with the topic folded as the server folds it, or
 * `direct:` and the sorted participant ids with `self` included (a DM event lists every participant,
 * the sender included; the UI may leave itself out).
 */
export function typingConversationKey(to: TypingConversation, self: number | undefined): string {
  if (to.type === 'channel') return `channel:${to.channel_id}:${topicKey(to.topic)}`;
  const ids = new Set(to.user_ids);
  if (self !== undefined) ids.add(self);
  return `direct:${[...ids].sort((a, b) => a - b).join(',')}`;
}

/**
 * "X is typing…" in a conversation, from ordinary `typing` events: the same protocol as editing
 * (a `start` refreshed every started-wait period, expiring after the started-expiry period without
 * one, a `stop` ending it at once). Oneself is never listed (the server echoes our own DM typing).
 */
export class TypingInConversations {
  /** Conversation key → typist user id → expiry (UNIX ms), in the order they started. */
  private readonly typing = new Map<string, Map<number, number>>();

  constructor(
    private readonly clock: Clock,
    private readonly selfUserId: () => number | undefined,
    private readonly expiryMs: () => number = () => DEFAULT_TYPING_EXPIRY_MS,
  ) {}

  /** Feed the typing events of a batch, in order. Returns true when the visible set changed. */
  handle(events: readonly TypingEvent[]): boolean {
    let changed = false;
    const self = this.selfUserId();
    for (const ev of events) {
      if (ev.type !== 'typing' || ev.sender.user_id === self) continue;
      const to = conversationOfEvent(ev);
      if (!to) continue;
      const key = typingConversationKey(to, self);
      const typists = this.typing.get(key) ?? new Map<number, number>();
      if (ev.op === 'start') {
        if (!typists.has(ev.sender.user_id)) changed = true;
        typists.set(ev.sender.user_id, this.clock.now() + this.expiryMs());
        this.typing.set(key, typists);
      } else if (typists.delete(ev.sender.user_id)) {
        changed = true;
        if (typists.size === 0) this.typing.delete(key);
      }
    }
    return changed;
  }

  /** Who is typing in `to` now (expired ones dropped), in the order they started. */
  in(to: TypingConversation): number[] {
    const key = typingConversationKey(to, this.selfUserId());
    const typists = this.typing.get(key);
    if (!typists) return [];
    const now = this.clock.now();
    for (const [userId, expiry] of typists) if (expiry <= now) typists.delete(userId);
    if (typists.size === 0) this.typing.delete(key);
    return [...typists.keys()];
  }

  clear(): void {
    this.typing.clear();
  }
}

function conversationOfEvent(ev: EventOf<'typing'>): TypingConversation | undefined {
  if (ev.message_type === 'stream') {
    return ev.stream_id === undefined || ev.topic === undefined ? undefined : { type: 'channel', channel_id: ev.stream_id, topic: ev.topic };
  }
  if (ev.message_type === 'direct') {
    const ids = (ev.recipients ?? []).map((r) => r.user_id);
    ids.push(ev.sender.user_id);
    return { type: 'direct', user_ids: ids };
  }
  return undefined;
}
