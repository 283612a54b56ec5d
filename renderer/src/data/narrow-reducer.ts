/**
 * Pure: the open narrow view's state and its transitions. The store (narrow.tsx) calls these
 * and mirrors each change set into its Solid store incrementally (`mergeChanges`): unchanged
 * messages keep their objects, so a change set touches only the messages it names.
 *
 *   opening --opened--> open --changed / older|newerRequested / older|newerSettled--> open
 *      |  \--failed(waiting)--> waiting --(status live / host back) reopening--> opening
 *      \----failed------------> error
 *   open --(host back after a drop) reopening--> opening
 */
import type { NarrowChangeSet, NarrowSnapshot, SideState } from '../../../sync/protocol/views.js';
import type { LocalMessage } from '../../../sync/protocol/messages.js';
import { EMPTY_TOPIC_LABEL } from '../kit/format.js';
import type { NarrowTarget } from './target.js';

export type { NarrowTarget } from './target.js';

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
  loadingNewer: boolean;
  /**
   * A page asked for while not connected found nothing more on the device: that side waits for
   * the connection (said so instead of a button) and loads when it is back.
   */
  olderWaits: boolean;
  newerWaits: boolean;
  /** The message the view opened at (`near`), once the snapshot resolved it. */
  anchorId: number | null;
  error: string | null;
}

const unknownSide = (): SideState => ({ complete: false, found_end: false });

export function opening(target: NarrowTarget): ViewState {
  // A fresh object per side: a store may merge into them later, so none may be shared.
  return { target, phase: 'opening', viewId: null, key: null, messages: [], before: unknownSide(), after: unknownSide(), loadingOlder: false, loadingNewer: false, olderWaits: false, newerWaits: false, anchorId: null, error: null };
}

export function opened(s: ViewState, viewId: string, snapshot: NarrowSnapshot): ViewState {
  return {
    ...s,
    phase: 'open',
    viewId,
    key: snapshot.key,
    messages: snapshot.messages,
    before: snapshot.before,
    after: snapshot.after,
    loadingOlder: false,
    loadingNewer: false,
    anchorId: s.target.near === undefined ? null : snapshot.anchor_id,
    error: null,
  };
}

/** The host lost the view (reconnect): reopen, keeping what is shown until the new snapshot lands. */
/** A search view (the search box's: `search` or `filter`). */
export const isSearchView = (s: Pick<ViewState, 'target'>): boolean => s.target.kind === 'search' || s.target.kind === 'filter';

/**
 * The open search shows only what the device holds and the server may have more: a side of the
 * view is not known complete (the engine's side states: no server answer covers it) and the sync
 * is not live (while live the engine is asking the server, which completes the sides).
 */
export function searchIsPartial(s: Pick<ViewState, 'target' | 'phase' | 'before' | 'after'>, live: boolean): boolean {
  return isSearchView(s) && s.phase === 'open' && !live && (!s.before.complete || !s.after.complete);
}

/** A search answered from the device alone, to ask again once the sync is live (the engine fetches when a view opens). */
export function searchToRetry(s: Pick<ViewState, 'target' | 'phase' | 'before' | 'after'>): boolean {
  return isSearchView(s) && s.phase === 'open' && (!s.before.complete || !s.after.complete);
}

export function reopening(s: ViewState): ViewState {
  return { ...s, phase: 'opening', viewId: null, loadingOlder: false, loadingNewer: false, error: null };
}

/**
 * `messages` after a change set, as the contract's `applyChangeSet` has it (removed, then updated
 * replaced, added inserted; ascending ids) but in one pass over the list: messages the change set
 * does not name stay the same objects, and the result is the same array when nothing moved.
 * `make` turns an incoming message into the list's item (a copy, for a store); `replaceExisting`
 * false keeps the existing item of an updated message (a store reconciles it in place instead).
 */
export function mergeChanges<T extends { id: number }>(
  messages: readonly T[],
  cs: Pick<NarrowChangeSet, 'added' | 'updated' | 'removed'>,
  make: (m: LocalMessage) => T,
  replaceExisting = true,
): T[] {
  if (cs.added.length + cs.updated.length + cs.removed.length === 0) return messages as T[];
  const removed = new Set(cs.removed);
  const incoming = new Map<number, LocalMessage>();
  for (const m of cs.updated) incoming.set(m.id, m);
  for (const m of cs.added) incoming.set(m.id, m);
  const kept: T[] = [];
  for (const m of messages) {
    const next = incoming.get(m.id);
    if (next !== undefined) {
      incoming.delete(m.id);
      kept.push(replaceExisting ? make(next) : m);
    } else if (!removed.has(m.id)) {
      kept.push(m);
    }
  }
  if (incoming.size === 0) return kept;
  const fresh = [...incoming.values()].sort((a, b) => a.id - b.id).map(make);
  // Merge two ascending lists (new messages mostly land at one end).
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < kept.length || j < fresh.length) {
    const a = kept[i];
    const b = fresh[j];
    if (b === undefined || (a !== undefined && a.id < b.id)) {
      out.push(a as T);
      i++;
    } else {
      out.push(b);
      j++;
    }
  }
  return out;
}

/** Apply one change set (the same result as the contract's `applyChangeSet`, see `mergeChanges`). */
export function changed(s: ViewState, cs: NarrowChangeSet): ViewState {
  const messages = mergeChanges(s.messages, cs, (m) => m);
  const first = s.messages[0]?.id;
  const last = s.messages[s.messages.length - 1]?.id;
  const gotOlder = first === undefined ? cs.added.length > 0 : cs.added.some((m) => m.id < first);
  const gotNewer = last === undefined ? cs.added.length > 0 : cs.added.some((m) => m.id > last);
  return {
    ...s,
    messages,
    before: cs.before ?? s.before,
    after: cs.after ?? s.after,
    loadingOlder: s.loadingOlder && !gotOlder && cs.before === undefined,
    loadingNewer: s.loadingNewer && !gotNewer && cs.after === undefined,
    // A wait for the connection ends with messages on that side or its end reached, not with any
    // side state told meanwhile (the view keeps saying it waits until the page can come).
    olderWaits: s.olderWaits && !gotOlder && cs.before?.found_end !== true,
    newerWaits: s.newerWaits && !gotNewer && cs.after?.found_end !== true,
  };
}

/** `waiting`: the account is not ready yet (first sync); the store retries once it is live. */
export function failed(s: ViewState, error: string, waiting: boolean): ViewState {
  return { ...s, phase: waiting ? 'waiting' : 'error', viewId: null, error };
}

/** A side of an open view to load more of: older messages (`before` it), or newer ones (`after`). */
export type Side = 'older' | 'newer';
const SIDES = { older: { loading: 'loadingOlder', edge: 'before', waits: 'olderWaits' }, newer: { loading: 'loadingNewer', edge: 'after', waits: 'newerWaits' } } as const;

/**
 * More to load on that side: the view is open, not loading it already, and has not reached its end
 * there (newer ones only in a view opened at an anchor whose newest side is not reached yet).
 */
export function canLoad(s: ViewState | null, side: Side): boolean {
  return s !== null && s.phase === 'open' && !s[SIDES[side].loading] && !s[SIDES[side].waits] && !s[SIDES[side].edge].found_end;
}

export function isLoading(s: ViewState, side: Side): boolean {
  return s[SIDES[side].loading];
}

/** A page was asked for (true); or the engine answered (or gave up) without adding anything, so allow another try (false). */
export function sideLoading(s: ViewState, side: Side, loading: boolean): ViewState {
  return { ...s, [SIDES[side].loading]: loading };
}

/** The message at that side's end of the view (the oldest or the newest shown). */
export const edgeId = (s: ViewState, side: Side): number | undefined => (side === 'older' ? s.messages[0] : s.messages[s.messages.length - 1])?.id;

/**
 * The engine answered a page asked for when `edgeBefore` was that side's end. Nothing came while
 * not connected (the device has no more; the side state may have been told meanwhile, which
 * ends the loading flag without anything shown): the side waits for the connection instead of
 * offering a button that cannot work. Otherwise another try is allowed.
 */
export function sideSettled(s: ViewState, side: Side, live: boolean, edgeBefore: number | undefined): ViewState {
  const waits = !live && edgeId(s, side) === edgeBefore && !s[SIDES[side].edge].found_end;
  if (!waits && !s[SIDES[side].loading]) return s;
  return { ...s, [SIDES[side].loading]: false, [SIDES[side].waits]: waits };
}

/** The sides waiting for the connection. */
export const waitingSides = (s: ViewState): Side[] => (['older', 'newer'] as const).filter((side) => s[SIDES[side].waits]);

/** The connection is back: no side waits any more (the store then loads them). */
export const connectionBack = (s: ViewState): ViewState => ({ ...s, olderWaits: false, newerWaits: false });

/**
 * The conversation a message belongs to, as a heading over a run of its messages: the topic in a
 * channel view, "channel › topic" or the direct conversation in views across conversations, none
 * inside a topic or a DM conversation.
 */
export function recipientLabel(m: LocalMessage, target: NarrowTarget, ownUserId: number | null, nameOf: (id: number, fallback: string) => string): string | null {
  switch (target.kind) {
    case 'topic':
    case 'dm':
      return null;
    case 'channel':
      return m.topic === '' ? EMPTY_TOPIC_LABEL : m.topic;
    default: {
      if (m.type === 'channel') return `${m.channel_name ?? 'unknown channel'} › ${m.topic === '' ? EMPTY_TOPIC_LABEL : m.topic}`;
      const others = m.dm_participants.filter((p) => p.id !== ownUserId);
      if (others.length === 0) return 'Direct messages with yourself';
      return `Direct messages with ${others.map((p) => nameOf(p.id, p.full_name)).join(', ')}`;
    }
  }
}

/** The conversation of a message, compared between neighbours (topics without case, as Zulip does). */
function conversationKey(m: LocalMessage): string {
  if (m.type === 'channel') return `c:${m.channel_id ?? ''}:${m.topic.toLowerCase()}`;
  return `d:${m.dm_participants
    .map((p) => p.id)
    .sort((a, b) => a - b)
    .join(',')}`;
}

/** Whether a new conversation run starts at `index` (first message, or the conversation changed). */
export function startsRecipientRun(messages: readonly LocalMessage[], index: number): boolean {
  if (index === 0) return true;
  const prev = messages[index - 1];
  const cur = messages[index];
  return !prev || !cur || conversationKey(prev) !== conversationKey(cur);
}

/** The other participants of a direct message (the user alone for notes to self), sorted: its DM view. */
export function dmPeers(m: Pick<LocalMessage, 'dm_participants'>, ownUserId: number | null): number[] {
  const ids = m.dm_participants.map((p) => p.id);
  const others = ids.filter((id) => id !== ownUserId);
  return [...new Set(others.length > 0 ? others : ids)].sort((a, b) => a - b);
}
