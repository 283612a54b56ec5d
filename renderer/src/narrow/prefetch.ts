/**
 * Prefetch on intent: a link to a message view that is hovered, or focused from the keyboard
 * (the sidebar's rows, the inbox's and recent conversations' rows, recipient headings), asks the
 * engine for that view's first screen (NarrowStore.prefetch), so the click that usually follows
 * paints it in the next frame.
 */
import { parseHash } from '../core/hash.js';
import type { NarrowStore } from '../data/narrow.js';
import type { Lookups } from '../data/target.js';
import { screenOf } from '../router/resolve.js';

/** Listen on `root` (the document); returns the function removing the listeners. */
export function prefetchOnIntent(root: Document, lookups: Lookups, narrow: Pick<NarrowStore, 'prefetch'>): () => void {
  // Every time: a view prefetched before may have gone stale since (the store asks only then).
  const onIntent = (e: Event) => {
    const a = e.target instanceof Element ? e.target.closest('a[href^="#narrow/"]') : null;
    const href = a?.getAttribute('href') ?? null;
    if (href === null) return;
    const screen = screenOf(parseHash(href), lookups);
    if (screen.kind === 'narrow') narrow.prefetch(screen.target);
  };
  root.addEventListener('pointerover', onIntent);
  root.addEventListener('focusin', onIntent);
  return () => {
    root.removeEventListener('pointerover', onIntent);
    root.removeEventListener('focusin', onIntent);
  };
}
