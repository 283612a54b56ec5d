/**
 * A windowed list as a Solid primitive: only the rows near the viewport are in the DOM (the rest
 * stand in as two padding heights), rows are measured as they render (ResizeObserver), and the
 * scroll position follows the reader: at the bottom it stays at the bottom as rows arrive; anywhere
 * else the row they were looking at stays where it was when rows above it arrive or change height
 * (older pages, images, edits). `jumpTo(key)` brings a row to the middle of the viewport.
 *
 * The arithmetic is kit/windowing.ts (unit-tested); this file wires it to the DOM.
 */
import { batch, createEffect, createMemo, createSignal, on, onCleanup, type Accessor } from 'solid-js';
import { afterPaint } from './after-paint.js';
import { anchorAt, keepAnchor, rowOffsets, rowWindow, windowTop, type RowWindow, type ScrollAnchor } from './windowing.js';

/** The last viewport height measured. */
let lastViewport = 800;
/** The latest a new view's window gets its full overscan, when no frame comes first. */
const WIDEN_LATEST_MS = 250;

export interface WindowedListOptions<T> {
  items: Accessor<readonly T[]>;
  key(item: T): number;
  /** Height assumed for a row not measured yet (until some are: then their average). */
  estimate: number;
  /** Pixels rendered beyond each edge of the viewport. */
  overscan: number;
  /**
   * Pixels beyond each edge for the list's first frame: what is on screen
   * renders and paints first, the overscan right after that frame. Default: `overscan`.
   */
  firstOverscan?: number;
  /** How close to the bottom counts as "at the bottom", in pixels. */
  edge: number;
  /**
   * The items' keys, when the caller has them without reading every item (`items` from a Solid
   * store would give each item a signal for its key); default: `items().map(key)`.
   */
  keys?: Accessor<readonly number[]>;
}

export interface WindowedList<T> {
  /** Call once both elements exist: the scroll container and the list inside it. */
  attach(scroller: HTMLElement, list: HTMLElement): void;
  window: Accessor<RowWindow>;
  visible: Accessor<readonly T[]>;
  /**
   * False during a new view's first frame (see `firstOverscan`): what rows show beyond the
   * essentials (hover bars, say) can wait for it to turn true, right after that frame.
   */
  complete: Accessor<boolean>;
  /** Register an element of a row (a row may have several); returns its cleanup. */
  measure(key: number, el: HTMLElement): () => void;
  /** Call from the scroll container's scroll handler. */
  onScroll(): void;
  /**
   * The list is taken out of the document (false: its rows are not measured meanwhile, as they
   * measure nothing there, and its overscan goes once that frame is painted) or put back (true:
   * the reader's place is put back, as the scroll position went with the layout; the overscan
   * comes back after the first frame, as for a new list).
   */
  shown(on: boolean): void;
  atBottom(): boolean;
  /** Show the end of the list and follow it. */
  toBottom(): void;
  /** Centre the row of `key` (once rendered and measured, it stays there). */
  jumpTo(key: number): void;
}

export function createWindowedList<T>(opts: WindowedListOptions<T>): WindowedList<T> {
  let scroller: HTMLElement | undefined;
  let list: HTMLElement | undefined;
  const heights = new Map<number, number>();
  const elements = new Map<number, Set<HTMLElement>>();
  const keyOf = new WeakMap<Element, number>();
  const [version, setVersion] = createSignal(0);
  const [scrollTop, setScrollTop] = createSignal(0);
  // Until measured, the height the last list's viewport had (a new view's list takes its place).
  const [viewport, setViewport] = createSignal(lastViewport);
  // A list starts with the first frame's overscan and widens once that frame is painted (see
  // after-paint.ts). One list shows one view: another view is another list, rendered from scratch.
  const first = opts.firstOverscan ?? opts.overscan;
  const [reach, setReach] = createSignal(first);
  if (first !== opts.overscan) afterPaint(() => setReach(opts.overscan), WIDEN_LATEST_MS);
  /** Follow the bottom, or keep this row in place. */
  let mode: { kind: 'bottom' } | { kind: 'anchor'; anchor: ScrollAnchor<number> } = { kind: 'bottom' };
  /**
   * What the window is taken from (windowing.ts `windowTop`): following the bottom, the last rows
   * (not first where the previous view was scrolled to, then again after the scroll); after
   * `jumpTo`, around its row until the reader scrolls; otherwise (null) the scroll position.
   */
  const [pinned, setPinned] = createSignal<'bottom' | ScrollAnchor<number> | null>('bottom');
  let measuredSum = 0;
  let measuredCount = 0;

  const keys = createMemo(() => (opts.keys ? opts.keys() : opts.items().map(opts.key)));
  const offsets = createMemo(() => {
    version();
    const ks = keys();
    const guess = measuredCount > 0 ? measuredSum / measuredCount : opts.estimate;
    return rowOffsets(ks.length, (i) => heights.get(ks[i] ?? -1) ?? guess);
  });
  const win = createMemo(() => {
    const o = offsets();
    const pin = pinned();
    return rowWindow(o, windowTop(o, pin === null || pin === 'bottom' ? [] : keys(), pin, scrollTop(), viewport()), viewport(), reach());
  }, undefined, {
    equals: (a, b) => a.start === b.start && a.end === b.end && a.padTop === b.padTop && a.padBottom === b.padBottom,
  });
  const visible = createMemo(() => opts.items().slice(win().start, win().end));

  const listTop = () => list?.offsetTop ?? 0;
  const readScroll = () => {
    if (!scroller) return;
    setScrollTop(scroller.scrollTop - listTop());
  };

  /** Put the scroll position where the mode says (after the DOM reflects the current offsets). */
  const settle = () => {
    if (!scroller) return;
    if (mode.kind === 'bottom') {
      scroller.scrollTop = scroller.scrollHeight;
    } else {
      const top = keepAnchor(offsets(), keys(), mode.anchor);
      if (top !== null && Math.abs(scroller.scrollTop - (top + listTop())) > 0.5) scroller.scrollTop = top + listTop();
    }
    readScroll();
  };

  // Rows arrived, left or changed height: restore the reader's place.
  createEffect(on(offsets, () => queueMicrotask(settle)));

  let detached = false;
  const observer = typeof ResizeObserver === 'function'
    ? new ResizeObserver((entries) => {
        if (detached) return;
        const touched = new Set<number>();
        for (const e of entries) {
          if (e.target === scroller) {
            lastViewport = scroller.clientHeight;
            setViewport(lastViewport);
            continue;
          }
          const k = keyOf.get(e.target);
          if (k !== undefined) touched.add(k);
        }
        let changed = false;
        for (const k of touched) {
          const els = elements.get(k);
          if (!els || els.size === 0) continue;
          let h = 0;
          for (const el of els) h += el.getBoundingClientRect().height;
          const old = heights.get(k);
          if (old !== undefined && Math.abs(old - h) < 0.5) continue;
          if (old === undefined) {
            measuredSum += h;
            measuredCount++;
          } else {
            measuredSum += h - old;
          }
          heights.set(k, h);
          changed = true;
        }
        if (changed) setVersion((v) => v + 1);
      })
    : undefined;
  onCleanup(() => observer?.disconnect());

  return {
    attach(s, l) {
      scroller = s;
      list = l;
      // Nothing read here: reading layout would lay out the new rows once more before the frame
      // (the scroll position is put in place, reading it once, as the rows are in: settle).
      observer?.observe(s);
      if (!observer) setViewport(s.clientHeight);
    },
    window: win,
    visible,
    complete: () => reach() === opts.overscan,
    measure(key, el) {
      keyOf.set(el, key);
      let set = elements.get(key);
      if (!set) elements.set(key, (set = new Set()));
      set.add(el);
      observer?.observe(el);
      return () => {
        observer?.unobserve(el);
        set.delete(el);
        if (set.size === 0) elements.delete(key);
      };
    },
    onScroll() {
      if (!scroller) return;
      const gap = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight;
      if (gap < opts.edge) {
        mode = { kind: 'bottom' };
      } else {
        const a = anchorAt(offsets(), keys(), scroller.scrollTop - listTop());
        mode = a === null ? { kind: 'bottom' } : { kind: 'anchor', anchor: a };
      }
      batch(() => {
        setPinned(mode.kind === 'bottom' ? 'bottom' : null);
        readScroll();
      });
    },
    shown(on) {
      detached = !on;
      if (on) queueMicrotask(settle);
      // Back in the document it lays out what is on screen first, as a new list does: the
      // overscan is let go once it has left, and comes back once its first frame is painted.
      if (first === opts.overscan) return;
      afterPaint(() => {
        if (detached !== on) setReach(on ? opts.overscan : first);
      }, WIDEN_LATEST_MS);
    },
    atBottom: () => mode.kind === 'bottom',
    toBottom() {
      mode = { kind: 'bottom' };
      setPinned('bottom');
      queueMicrotask(settle);
    },
    jumpTo(key) {
      const rowHeight = heights.get(key) ?? opts.estimate;
      mode = { kind: 'anchor', anchor: { key, delta: Math.max(0, (viewport() - rowHeight) / 2) } };
      setPinned(mode.anchor);
      queueMicrotask(settle);
    },
  };
}
