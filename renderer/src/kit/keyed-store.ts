/**
 * A derived list that keeps its rows: `source` is recomputed whole (a pure reducer's fresh objects
 * on every change), and the store it returns follows it reconciled by each array item's `key`, so
 * an item whose key stays keeps its object. A `<For>` over it keeps that row's DOM and updates only
 * the fields that changed, where fresh objects made it build every row again: the Inbox of a large
 * organisation (thousands of unread topics) rebuilt all its rows on every unread change.
 *
 * The store takes over the objects `source` gives (reconcile copies changes into the first ones
 * and keeps new items as given): `source` must hand out objects no one else keeps.
 */
import { createComputed, untrack, type Accessor } from 'solid-js';
import { createStore, reconcile } from 'solid-js/store';

export function createKeyedStore<T extends object>(source: Accessor<T>): T {
  const [state, setState] = createStore<T>(untrack(source));
  createComputed(() => {
    const next = source();
    setState(reconcile(next, { key: 'key', merge: false }));
  });
  return state;
}
