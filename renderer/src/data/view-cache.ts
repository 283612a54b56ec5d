/**
 * Pure: the renderer's cache of the first screen of recent and likely-next message views, so a
 * switch paints the view in the next frame instead of after the engine's answer (narrow.tsx shows
 * an entry at once, then the engine's snapshot replaces it: the snapshot always wins).
 *
 * - Keyed by the exact narrow the engine is asked for (`narrowRequest`: operators, operands,
 *   anchor), so an entry only ever holds messages of that one view; search views are not cached
 *   (their answer depends on the server being reachable).
 * - Bounded: at most `limit` views (the least recently used goes), each its newest page (or the
 *   page around its anchor), never a long history loaded by scrolling.
 * - `stale()`: messages changed somewhere (the engine's `messages` area): entries are kept, since a
 *   stale first screen is still the right view and is replaced by the snapshot within the same
 *   second, but a prefetch asks again for them. `clear()`: another account (the `accounts` area),
 *   and answers asked before it are refused (`version` taken when asking).
 */
import type { LocalMessage } from '../../../sync/protocol/messages.js';
import type { SideState } from '../../../sync/protocol/views.js';
import type { ViewState } from './narrow-reducer.js';
import { narrowRequest, PAGE_SIZE, type NarrowTarget } from './target.js';

export interface CachedView {
  readonly key: string | null;
  readonly messages: readonly LocalMessage[];
  readonly before: SideState;
  readonly after: SideState;
  readonly anchorId: number | null;
  /** Asked for before the last `stale()`: shown, but a prefetch asks the engine again. */
  readonly stale: boolean;
}

export interface ViewCache {
  /** The entry for exactly this view (and marks it the most recently used), or undefined. */
  get(target: NarrowTarget): CachedView | undefined;
  /** Whether this view has an entry that is not stale (nothing to prefetch). */
  has(target: NarrowTarget): boolean;
  /** Store an open view's first screen; `askedAt` (a `version()`): when its messages were asked for. */
  put(state: ViewState, askedAt: number): void;
  /** Messages changed somewhere: every entry is stale. */
  stale(): void;
  /** Another account: drop everything, and any answer asked for before now. */
  clear(): void;
  /** A counter to take when asking the engine, passed back to `put`. */
  version(): number;
  readonly size: number;
}

/** The views kept: more than a rotation through a sidebar's worth of channels, topics and DMs. */
export const VIEW_CACHE_LIMIT = 40;

/** The exact narrow and anchor the engine is asked for, as a string; null: not cached. */
export function cacheKey(target: NarrowTarget): string | null {
  if (target.kind === 'search' || target.kind === 'filter') return null;
  return JSON.stringify(narrowRequest(target));
}

/**
 * What an open view keeps: a view at its newest messages keeps the newest page (older ones loaded
 * by scrolling are left out, the side then said not complete); a view opened at a message keeps
 * what it holds while that is about its first answer's size, else nothing.
 */
export function firstScreen(s: ViewState): Omit<CachedView, 'stale'> | null {
  if (s.phase !== 'open') return null;
  const atNewest = s.target.near === undefined;
  if (!atNewest && s.messages.length > 2 * PAGE_SIZE + 1) return null;
  const cut = atNewest && s.messages.length > PAGE_SIZE;
  return {
    key: s.key,
    messages: cut ? s.messages.slice(-PAGE_SIZE) : s.messages,
    before: cut ? { complete: false, found_end: false } : s.before,
    after: s.after,
    anchorId: s.anchorId,
  };
}

export function createViewCache(limit = VIEW_CACHE_LIMIT): ViewCache {
  const entries = new Map<string, CachedView>();
  let counter = 0;
  let staleAt = 0;
  let clearedAt = 0;
  return {
    get(target) {
      const k = cacheKey(target);
      const e = k === null ? undefined : entries.get(k);
      if (k !== null && e !== undefined) {
        // Map order is insertion order: re-inserted, it is the most recently used.
        entries.delete(k);
        entries.set(k, e);
      }
      return e;
    },
    has(target) {
      const k = cacheKey(target);
      return k !== null && entries.get(k)?.stale === false;
    },
    put(state, askedAt) {
      const k = cacheKey(state.target);
      const screen = firstScreen(state);
      if (k === null || screen === null || askedAt < clearedAt) return;
      entries.delete(k);
      entries.set(k, { ...screen, stale: askedAt < staleAt });
      for (const old of entries.keys()) {
        if (entries.size <= limit) break;
        entries.delete(old);
      }
    },
    stale() {
      staleAt = ++counter;
      for (const [k, e] of entries) if (!e.stale) entries.set(k, { ...e, stale: true });
    },
    clear() {
      clearedAt = ++counter;
      entries.clear();
    },
    version: () => ++counter,
    get size() {
      return entries.size;
    },
  };
}
