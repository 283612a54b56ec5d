/**
 * Views kept alive while others show: the content made for a view (its DOM and its reactive
 * scope) stays when another view takes its place, out of the document, and showing that view
 * again puts the same DOM back: nothing is built again, so the switch costs the frame's style,
 * layout and paint only. What a kept view reads does not change while it is out (the narrow
 * store gives each view an object of its own), and it learns it is back through `shown`.
 *
 * - Bounded: at most `limit` views, the least recently shown going first.
 * - A view may refuse to be shown again (`reusable()` false: what it shows is no longer kept for
 *   it); it is then dropped and made afresh.
 * - A view that may not be kept (`keep` false: a search, whose answer depends on the server) is
 *   dropped as soon as another shows.
 */
import { createContext, createMemo, createRoot, createSelector, getOwner, onCleanup, untrack, useContext, type Accessor, type JSX } from 'solid-js';

export interface KeptView {
  readonly node: JSX.Element;
  /** Whether this content may be shown again for its view. */
  reusable(): boolean;
}

export interface KeptViewsOptions {
  /** The view to show (its id, and whether it may be kept once left), or none. */
  current: Accessor<{ readonly id: string; readonly keep: boolean } | null>;
  limit: number;
  /** Make a view's content, in a scope of its own; `shown` is true while it is the view in the document. */
  make(id: string, shown: Accessor<boolean>): KeptView;
}

/** The current view's content (undefined for none); call in a component: its views go with it. */
export function createKeptViews(opts: KeptViewsOptions): Accessor<JSX.Element | undefined> {
  const owner = getOwner();
  const entries = new Map<string, { view: KeptView; keep: boolean; dispose(): void }>();
  const current = createMemo(opts.current, null, { equals: (a, b) => a?.id === b?.id && a?.keep === b?.keep });
  const isShown = createSelector(() => current()?.id ?? null);
  const drop = (id: string) => {
    const e = entries.get(id);
    if (e === undefined) return;
    entries.delete(id);
    e.dispose();
  };
  onCleanup(() => [...entries.keys()].forEach(drop));
  return createMemo(() => {
    const c = current();
    return untrack(() => {
      for (const [id, e] of entries) if (id !== c?.id && (!e.keep || !e.view.reusable())) drop(id);
      if (c === null) return undefined;
      let e = entries.get(c.id);
      if (e !== undefined && !e.view.reusable()) {
        drop(c.id);
        e = undefined;
      }
      if (e === undefined) {
        const made = createRoot((dispose) => ({ view: opts.make(c.id, () => isShown(c.id)), dispose }), owner);
        e = { ...made, keep: c.keep };
      } else {
        entries.delete(c.id);
        e.keep = c.keep;
      }
      // Map order is insertion order: re-inserted, it is the most recently shown.
      entries.set(c.id, e);
      for (const id of entries.keys()) {
        if (entries.size <= opts.limit) break;
        drop(id);
      }
      return e.view.node;
    });
  });
}

/**
 * Whether the screen a component is in is the one in the document: false while a screen kept out
 * of it (RouteView) waits to show again. What must not act from a hidden screen (a composer,
 * which answers the app-wide compose store) renders only while it is true. True outside kept screens.
 */
export const ShownContext = createContext<Accessor<boolean>>(() => true);
export const useShown = (): Accessor<boolean> => useContext(ShownContext);
