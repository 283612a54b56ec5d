/**
 * How much of a long list to render: `page` items at first, `page` more each time the list's end
 * (a sentinel element after the last item) comes within `margin` px of the view, as Zulip web's
 * buddy list renders more as it is scrolled. A large organisation's user list is 10,000 people:
 * rendered whole it was 60,000 elements, and every layout of the page (each view switch) walked
 * them. `reset` (the list's filter) starting over sends the count back to `page`. Without
 * IntersectionObserver (server rendering) everything renders.
 */
import { createComputed, createSignal, on, onCleanup, type Accessor } from 'solid-js';

export interface RenderMore {
  /** How many items to render. */
  count: Accessor<number>;
  /** Ref for the element after the last rendered item. */
  sentinel(el: Element): void;
}

export function createRenderMore(page: number, reset?: Accessor<unknown>, margin = 400): RenderMore {
  const [count, setCount] = createSignal(typeof IntersectionObserver === 'function' ? page : Number.MAX_SAFE_INTEGER);
  if (reset) createComputed(on(reset, () => setCount((n) => Math.min(n, page)), { defer: true }));
  const observer =
    typeof IntersectionObserver === 'function'
      ? new IntersectionObserver((seen) => {
          for (const x of seen) {
            if (!x.isIntersecting) continue;
            setCount((n) => n + page);
            // Observed afresh once the next items are in: still near the view (a tall window),
            // it reports at once and another page comes; an observer reports only changes.
            requestAnimationFrame(() => {
              if (!x.target.isConnected) return;
              observer?.unobserve(x.target);
              observer?.observe(x.target);
            });
          }
        }, { rootMargin: `${margin}px` })
      : undefined;
  onCleanup(() => observer?.disconnect());
  return {
    count,
    sentinel(el) {
      observer?.observe(el);
      onCleanup(() => observer?.unobserve(el));
    },
  };
}
