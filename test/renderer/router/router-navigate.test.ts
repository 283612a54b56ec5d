/**
 * The router's navigation: `navigate` and a plain click on an in-app link set the route in the
 * same task (a pushed history entry, no wait for the browser's `hashchange`); a click the browser
 * or the app should handle is left alone; Back / Forward / a typed URL are followed.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRoot } from 'solid-js';
import { clickedFragment, createRouter, type RouterWindow } from '../../../renderer/src/router/history.js';

class FakeElement {
  constructor(
    readonly tag: string,
    readonly attrs: Record<string, string> = {},
    readonly parent: FakeElement | null = null,
  ) {}
  getAttribute(n: string): string | null {
    return this.attrs[n] ?? null;
  }
  hasAttribute(n: string): boolean {
    return n in this.attrs;
  }
  closest(sel: string): FakeElement | null {
    if (sel !== 'a[href]') throw new Error(`unexpected selector ${sel}`);
    if (this.tag === 'a' && this.hasAttribute('href')) return this;
    return this.parent?.closest(sel) ?? null;
  }
}

function fakeWindow(hash = '') {
  const listeners = new Map<string, ((e: unknown) => void)[]>();
  const entries: string[] = [];
  const location = { hash, pathname: '/app/', search: '' };
  const history = {
    state: null,
    pushState: (_s: unknown, _u: string, url: string) => {
      entries.push(url);
      location.hash = url.startsWith('#') ? url : '';
    },
    replaceState: (_s: unknown, _u: string, url: string) => {
      entries[entries.length - 1] = url;
      location.hash = url.startsWith('#') ? url : '';
    },
  };
  const win = {
    location,
    history,
    Element: FakeElement,
    addEventListener: (type: string, fn: (e: unknown) => void) => listeners.set(type, [...(listeners.get(type) ?? []), fn]),
    removeEventListener: (type: string, fn: (e: unknown) => void) => listeners.set(type, (listeners.get(type) ?? []).filter((f) => f !== fn)),
  };
  const fire = (type: string, e: unknown = {}) => (listeners.get(type) ?? []).forEach((f) => f(e));
  // The fake carries only what the router reads of a window.
  return { win: win as unknown as RouterWindow, entries, location, fire, listeners };
}

function click(target: FakeElement, over: Partial<{ button: number; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean; defaultPrevented: boolean }> = {}) {
  const e = { target, button: 0, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, defaultPrevented: false, ...over, preventDefault: () => void (e.defaultPrevented = true) };
  return e;
}

describe('router navigation', () => {
  it('a click on an in-app link sets the route in the same task and pushes one history entry', () => {
    const f = fakeWindow('#inbox');
    createRoot((dispose) => {
      const r = createRouter(f.win);
      const link = new FakeElement('a', { href: '#narrow/channel/1-general' });
      const e = click(new FakeElement('span', {}, link));
      f.fire('click', e);
      expect(e.defaultPrevented).toBe(true);
      expect(r.hash()).toBe('#narrow/channel/1-general');
      expect(f.entries).toEqual(['#narrow/channel/1-general']);
      // The open view's own link: no second entry.
      f.fire('click', click(link));
      expect(f.entries).toHaveLength(1);
      r.navigate('recent');
      expect(r.hash()).toBe('#recent');
      r.navigate('#inbox', { replace: true });
      expect(f.entries).toEqual(['#narrow/channel/1-general', '#inbox']);
      r.navigate('');
      expect(f.entries.at(-1)).toBe('/app/');
      expect(r.hash()).toBe('');
      dispose();
      r.dispose();
      expect([...f.listeners.values()].flat()).toHaveLength(0);
    });
  });

  it('leaves to the browser what is not a plain click on an in-app link, and what the app handled', () => {
    const f = fakeWindow();
    const inApp = new FakeElement('a', { href: '#recent' });
    for (const over of [{ button: 1 }, { ctrlKey: true }, { metaKey: true }, { shiftKey: true }, { altKey: true }, { defaultPrevented: true }]) expect(clickedFragment(click(inApp, over) as unknown as MouseEvent, f.win)).toBeNull();
    for (const a of [new FakeElement('a', { href: 'https://example.com/#x' }), new FakeElement('a', { href: '#x', target: '_blank' }), new FakeElement('a', { href: '#x', download: '' }), new FakeElement('a'), new FakeElement('button')]) {
      expect(clickedFragment(click(a) as unknown as MouseEvent, f.win)).toBeNull();
    }
    expect(clickedFragment(click(inApp) as unknown as MouseEvent, f.win)).toBe('#recent');
    expect(clickedFragment(click(new FakeElement('a', { href: '#x', target: '_self' })) as unknown as MouseEvent, f.win)).toBe('#x');
  });

  it('follows Back, Forward and a typed URL', () => {
    const f = fakeWindow('#inbox');
    createRoot((dispose) => {
      const r = createRouter(f.win);
      f.location.hash = '#recent';
      f.fire('popstate');
      expect(r.hash()).toBe('#recent');
      f.location.hash = '#narrow/is/starred';
      f.fire('hashchange');
      expect(r.hash()).toBe('#narrow/is/starred');
      dispose();
      r.dispose();
    });
  });

  describe('with frames', () => {
    afterEach(() => vi.unstubAllGlobals());

    it('writes the history entry once the new view is painted; a Back before then drops it', async () => {
      const frames: (() => void)[] = [];
      vi.stubGlobal('requestAnimationFrame', (f: () => void) => frames.push(f));
      const paint = async () => {
        frames.splice(0).forEach((f) => f());
        await new Promise((r) => setTimeout(r, 0));
      };
      const f = fakeWindow('#inbox');
      await createRoot(async (dispose) => {
        const r = createRouter(f.win);
        f.fire('click', click(new FakeElement('a', { href: '#recent' })));
        expect(r.hash()).toBe('#recent');
        expect(f.entries).toEqual([]);
        await paint();
        expect(f.entries).toEqual(['#recent']);
        // Two navigations within a frame: both entries, in order.
        r.navigate('#narrow/is/starred');
        r.navigate('#narrow/is/mentioned');
        expect(f.entries).toEqual(['#recent', '#narrow/is/starred']);
        await paint();
        expect(f.entries).toEqual(['#recent', '#narrow/is/starred', '#narrow/is/mentioned']);
        // Back before the frame: the browser's place wins, the unwritten entry is not written after it.
        r.navigate('#inbox');
        f.location.hash = '#narrow/is/starred';
        f.fire('popstate');
        await paint();
        expect(r.hash()).toBe('#narrow/is/starred');
        expect(f.entries).toEqual(['#recent', '#narrow/is/starred', '#narrow/is/mentioned']);
        dispose();
        r.dispose();
      });
    });
  });
});
