/**
 * Pure: reading marks read. Messages seen in the viewport (their bottom edge inside it: read to
 * the end) that are still unread are collected and sent to the engine as one queued
 * `updateMessageFlags {flag: 'read', op: 'add'}` per interval (about a second), never twice for the
 * same message; the engine applies it at once (unread counts follow) and the outbox delivers it.
 *
 * The user's `web_mark_read_on_scroll_policy` decides where this happens, as in Zulip web:
 * 1 always (every view that can mark messages read: the combined feed, a channel, a topic, a DM
 * conversation), 2 only in conversation views (a topic, a DM conversation), 3 never. Starred
 * messages, mentions and searches never mark read (Zulip's views of messages gathered from many
 * conversations by a property). Unknown settings (not loaded yet) mark nothing.
 */
import type { Timers } from '../core/area-query.js';
import { globalTimers } from '../core/area-query.js';
import type { NarrowTarget } from '../data/target.js';

export const READ_POLICY = { always: 1, conversations: 2, never: 3 } as const;
export type ReadPolicy = 1 | 2 | 3;

/** The policy from the user's settings; null while they are not known. */
export function readPolicyOf(settings: Readonly<Record<string, unknown>> | null): ReadPolicy | null {
  if (settings === null) return null;
  const p = settings['web_mark_read_on_scroll_policy'];
  // Absent (an older server): Zulip behaved as "always".
  if (p === undefined) return READ_POLICY.always;
  return p === 1 || p === 2 || p === 3 ? p : null;
}

/** Whether reading in this view marks messages read under this policy. */
export function marksReadIn(target: Pick<NarrowTarget, 'kind'>, policy: ReadPolicy | null): boolean {
  if (policy === null || policy === READ_POLICY.never) return false;
  const conversation = target.kind === 'topic' || target.kind === 'dm';
  if (policy === READ_POLICY.conversations) return conversation;
  return conversation || target.kind === 'channel' || target.kind === 'feed';
}

export interface RowBox {
  id: number;
  top: number;
  bottom: number;
}

/**
 * Ids of the rows seen in a viewport from `top` to `bottom` (same coordinates): a row counts once
 * its bottom edge is inside (the reader got to its end), or when it is taller than the viewport
 * and covers it.
 */
export function seenRows(rows: readonly RowBox[], top: number, bottom: number): number[] {
  const tolerance = 2;
  return rows.filter((r) => (r.bottom <= bottom + tolerance && r.bottom > top) || (r.top <= top && r.bottom >= bottom)).map((r) => r.id);
}

export const READ_BATCH_MS = 1000;
/** The contract's limit of ids per `updateMessageFlags`. */
export const MAX_IDS = 5000;

export interface ReadBatcher {
  /** Unread messages seen: sent with the next batch unless already sent. */
  add(ids: readonly number[]): void;
  /** Send what is waiting now (up to the contract's limit; the rest with the next interval). */
  flush(): void;
  /**
   * Forget these if still waiting (the user marked them unread since they were seen: a batch sent
   * after that would read them again); ones already sent went before the user's unread, in order.
   */
  drop(ids: readonly number[]): void;
  /** Ids waiting for the next batch. */
  waiting(): number[];
  dispose(): void;
}

export function createReadBatcher(deps: { send(ids: number[]): Promise<unknown>; intervalMs?: number; timers?: Timers }): ReadBatcher {
  const timers = deps.timers ?? globalTimers;
  const interval = deps.intervalMs ?? READ_BATCH_MS;
  const waiting = new Set<number>();
  /** Sent (or being sent); a failed send forgets its ids, so a later sighting retries them. */
  const sent = new Set<number>();
  let timer: unknown;
  let disposed = false;

  const schedule = () => {
    if (timer === undefined && waiting.size > 0 && !disposed) timer = timers.set(flush, interval);
  };

  function flush(): void {
    if (timer !== undefined) timers.clear(timer);
    timer = undefined;
    if (waiting.size === 0 || disposed) return;
    const ids = [...waiting].sort((a, b) => a - b).slice(0, MAX_IDS);
    for (const id of ids) {
      waiting.delete(id);
      sent.add(id);
    }
    deps.send(ids).catch(() => {
      for (const id of ids) sent.delete(id);
    });
    // More than one request's worth: the rest go with the next interval.
    schedule();
  }

  return {
    add(ids) {
      if (disposed) return;
      for (const id of ids) if (!sent.has(id)) waiting.add(id);
      schedule();
    },
    flush,
    drop(ids) {
      for (const id of ids) waiting.delete(id);
    },
    waiting: () => [...waiting].sort((a, b) => a - b),
    /** Messages already seen still go (the view closing does not unread them); then nothing more. */
    dispose() {
      flush();
      disposed = true;
      if (timer !== undefined) timers.clear(timer);
      timer = undefined;
      waiting.clear();
    },
  };
}
