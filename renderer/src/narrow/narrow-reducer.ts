/**
 * Pure: the open narrow view's state and its transitions. The store (stores/narrow.tsx) calls these
 * and hands the result to Solid's `reconcile` keyed by message id, so a change set touches only the
 * messages it names.
 *
 *   opening --opened--> open --changed / olderRequested / olderSettled--> open
 *      |  \--failed(waiting)--> waiting --(status live / host back) reopening--> opening
 *      \----failed------------> error
 *   open --(host back after a drop) reopening--> opening
 */
import type { NarrowRequest, NarrowChangeSet, NarrowSnapshot, SideState } from '../../../sync/protocol/views.js';
import { applyChangeSet } from '../../../sync/protocol/views.js';
import type { LocalMessage } from '../../../sync/protocol/messages.js';

export type NarrowTarget =
  | { kind: 'channel'; channelId: number; channelName: string }
  | { kind: 'topic'; channelId: number; channelName: string; topic: string };

export type ViewPhase = 'opening' | 'open' | 'waiting' | 'error';

export interface ViewState {
  target: NarrowTarget;
  phase: ViewPhase;
  viewId: string | null;
  /** Canonical key of the narrow (from the snapshot). */
  key: string | null;
  messages: LocalMessage[];
  before: SideState;
  after: SideState;
  loadingOlder: boolean;
  error: string | null;
}

/** Messages asked for when a view opens and per "load older". */
export const PAGE_SIZE = 50;

export function narrowRequest(target: NarrowTarget, before = PAGE_SIZE): NarrowRequest {
  const narrow: NarrowRequest['narrow'] = [{ operator: 'channel', operand: target.channelId }];
  if (target.kind === 'topic') narrow.push({ operator: 'topic', operand: target.topic });
  return { narrow, anchor: 'newest', before, after: 0 };
}

export function sameTarget(a: NarrowTarget | null | undefined, b: NarrowTarget | null | undefined): boolean {
  if (!a || !b) return a === b;
  if (a.kind !== b.kind || a.channelId !== b.channelId) return false;
  return a.kind === 'channel' || (b.kind === 'topic' && a.topic === b.topic);
}

/** The topic of a topic narrow; null for a channel narrow. */
export function topicOf(t: NarrowTarget): string | null {
  return t.kind === 'topic' ? t.topic : null;
}

const unknownSide = (): SideState => ({ complete: false, found_end: false });

export function opening(target: NarrowTarget): ViewState {
  // A fresh object per side: a store may merge into them later, so none may be shared.
  return { target, phase: 'opening', viewId: null, key: null, messages: [], before: unknownSide(), after: unknownSide(), loadingOlder: false, error: null };
}

export function opened(s: ViewState, viewId: string, snapshot: NarrowSnapshot): ViewState {
  return { ...s, phase: 'open', viewId, key: snapshot.key, messages: snapshot.messages, before: snapshot.before, after: snapshot.after, loadingOlder: false, error: null };
}

/** The host lost the view (reconnect): reopen, keeping what is shown until the new snapshot lands. */
export function reopening(s: ViewState): ViewState {
  return { ...s, phase: 'opening', viewId: null, loadingOlder: false, error: null };
}

/** Apply one change set (the contract's own `applyChangeSet`, so both sides agree on the result). */
export function changed(s: ViewState, cs: NarrowChangeSet): ViewState {
  const snap = applyChangeSet({ key: s.key ?? '', anchor_id: null, messages: s.messages, before: s.before, after: s.after }, cs);
  const firstBefore = s.messages[0]?.id;
  const gotOlder = firstBefore === undefined ? cs.added.length > 0 : cs.added.some((m) => m.id < firstBefore);
  return {
    ...s,
    messages: snap.messages,
    before: snap.before,
    after: snap.after,
    loadingOlder: s.loadingOlder && !gotOlder && cs.before === undefined,
  };
}

/** `waiting`: the account is not ready yet (first sync); the store retries once it is live. */
export function failed(s: ViewState, error: string, waiting: boolean): ViewState {
  return { ...s, phase: waiting ? 'waiting' : 'error', viewId: null, error };
}

export function canLoadOlder(s: ViewState | null): boolean {
  return s !== null && s.phase === 'open' && !s.loadingOlder && !s.before.found_end;
}

export function olderRequested(s: ViewState): ViewState {
  return { ...s, loadingOlder: true };
}

/** The engine answered (or gave up) without adding anything: allow another try. */
export function olderSettled(s: ViewState): ViewState {
  return { ...s, loadingOlder: false };
}

/** Whether to show the topic above a message in a channel view (first message, or the topic changed). */
export function startsTopicRun(messages: readonly LocalMessage[], index: number): boolean {
  if (index === 0) return true;
  const prev = messages[index - 1];
  const cur = messages[index];
  return !prev || !cur || prev.topic.toLowerCase() !== cur.topic.toLowerCase() || prev.channel_id !== cur.channel_id;
}
