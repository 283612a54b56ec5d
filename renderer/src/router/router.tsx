/**
 * The router: the app's place is the URL fragment, as in Zulip web. `route()` is the parsed
 * `location.hash`, followed on `hashchange` (links, Back, Forward, a typed URL); a reload keeps the
 * fragment, so it keeps the place. `navigate(hash)` pushes a history entry (or replaces the current
 * one) and the route follows.
 */
import { createMemo, createSignal } from 'solid-js';
import { parseHash, type Route } from '../core/hash.js';
import { storeContext } from '../data/store-context.js';

export interface Router {
  hash(): string;
  route(): Route;
  navigate(hash: string, opts?: { replace?: boolean }): void;
}

const normal = (h: string) => (h === '' || h === '#' ? '' : h.startsWith('#') ? h : `#${h}`);

export function createRouter(win: Window = window): Router & { dispose(): void } {
  const [hash, setHash] = createSignal(normal(win.location.hash));
  const onHashChange = () => setHash(normal(win.location.hash));
  win.addEventListener('hashchange', onHashChange);
  const route = createMemo(() => parseHash(hash()));
  return {
    hash,
    route,
    navigate(next, opts) {
      const h = normal(next);
      if (opts?.replace) {
        win.history.replaceState(win.history.state, '', h === '' ? win.location.pathname + win.location.search : h);
        setHash(h);
        return;
      }
      if (h === hash()) return;
      // Fires hashchange, which sets the signal (and records a history entry for Back).
      win.location.hash = h;
    },
    dispose: () => win.removeEventListener('hashchange', onHashChange),
  };
}

const ctx = storeContext<Router & { dispose(): void }>('Router', () => createRouter());
export const RouterProvider = ctx.Provider;
export const useRouter: () => Router = ctx.use;
