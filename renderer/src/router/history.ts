/**
 * The router: the app's place is the URL fragment, as in Zulip web. `route()` is the parsed
 * `location.hash`. `navigate(hash)` sets the route at once, in the same task, and pushes a history
 * entry (or replaces the current one) once the new view is painted. A plain click on an in-app
 * link (`href="#…"`, no modifier key, not already handled) navigates the same way: the new view is built in the click's own task
 * and painted in the next frame, where the browser's own fragment navigation would queue a
 * `hashchange` task (and try to scroll to an element named like the fragment) first. Back,
 * Forward and a typed URL are followed on `popstate` / `hashchange`; a reload keeps the fragment,
 * so it keeps the place.
 */
import { createMemo, createSignal } from 'solid-js';
import { parseHash, type Route } from '../core/hash.js';
import { afterPaint } from '../kit/after-paint.js';

/** The latest a navigation's history entry is written when frames do not come (a hidden window). */
const WRITE_LATEST_MS = 100;

export interface Router {
  hash(): string;
  route(): Route;
  navigate(hash: string, opts?: { replace?: boolean }): void;
}

/** The window the router follows (a test passes its own). */
export type RouterWindow = Window & Pick<typeof globalThis, 'Element'>;

const normal = (h: string) => (h === '' || h === '#' ? '' : h.startsWith('#') ? h : `#${h}`);

/** The in-app fragment a click follows, or null when the click is the browser's (or already handled). */
export function clickedFragment(e: MouseEvent, win: RouterWindow): string | null {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return null;
  const a = e.target instanceof win.Element ? e.target.closest('a[href]') : null;
  const target = a?.getAttribute('target');
  if (a === null || a.hasAttribute('download') || (target && target !== '_self')) return null;
  const href = a.getAttribute('href') ?? '';
  return href.startsWith('#') ? href : null;
}

export function createRouter(win: RouterWindow = window): Router & { dispose(): void } {
  const [hash, setHash] = createSignal(normal(win.location.hash));
  const route = createMemo(() => parseHash(hash()));
  const url = (h: string) => (h === '' ? win.location.pathname + win.location.search : h);
  /**
   * The last navigation's history entry, written once its view is painted: a history write costs
   * the click's task a few ms here (the browser hears of the new URL), and nothing on screen waits
   * for it. A Back meanwhile goes from the entry before it, which is dropped.
   */
  let unwritten: { h: string; replace: boolean } | null = null;
  const write = () => {
    const w = unwritten;
    unwritten = null;
    if (w === null) return;
    if (w.replace) win.history.replaceState(win.history.state, '', url(w.h));
    else win.history.pushState(null, '', url(w.h));
  };
  const navigate = (next: string, opts?: { replace?: boolean }) => {
    const h = normal(next);
    if (opts?.replace !== true && h === hash()) return;
    write();
    unwritten = { h, replace: opts?.replace === true };
    afterPaint(write, WRITE_LATEST_MS, 'user-visible');
    setHash(h);
  };
  /** Back, Forward, a typed URL: the browser's place wins over an entry not written yet. */
  const onHashChange = () => {
    unwritten = null;
    setHash(normal(win.location.hash));
  };
  const onClick = (e: MouseEvent) => {
    const h = clickedFragment(e, win);
    if (h === null) return;
    e.preventDefault();
    navigate(h);
  };
  // On the window, so the app's own click handlers (delegated to the document) act first.
  win.addEventListener('click', onClick);
  win.addEventListener('hashchange', onHashChange);
  win.addEventListener('popstate', onHashChange);
  return {
    hash,
    route,
    navigate,
    dispose: () => {
      win.removeEventListener('click', onClick);
      win.removeEventListener('hashchange', onHashChange);
      win.removeEventListener('popstate', onHashChange);
    },
  };
}
