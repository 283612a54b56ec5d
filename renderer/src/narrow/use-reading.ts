/**
 * What the message list does as it is read: marks messages read as they are seen (read-marking.ts,
 * while the window is visible and focused, as the user's policy says), and shows and serves the
 * keyboard's selected message (keys/selection.tsx): the selected row is marked and focusable, a
 * keyboard move brings it into view and onto the focus, a click selects the row clicked.
 */
import { markedUnread } from '../actions/unread-intents.js';
import { createEffect, createMemo, on, onCleanup } from 'solid-js';
import type { LocalMessage } from '../../../sync/protocol/messages.js';
import { bridge as defaultBridge, type Bridge } from '../core/bridge.js';
import type { WindowedList } from '../kit/windowed-list.js';
import { useSelection, type MessageListApi } from '../keys/selection.js';
import { useSettings } from '../data/settings.js';
import type { ViewState } from '../data/narrow-reducer.js';
import { createReadBatcher, marksReadIn, readPolicyOf, seenRows, type RowBox } from './read-marking.js';

const ROW_SELECTOR = 'li.message[data-message-id]';

function rowsIn(list: HTMLElement): { el: HTMLElement; box: RowBox }[] {
  return [...list.querySelectorAll<HTMLElement>(ROW_SELECTOR)].map((el) => {
    const r = el.getBoundingClientRect();
    return { el, box: { id: Number(el.dataset['messageId']), top: r.top, bottom: r.bottom } };
  });
}

export function useReading(opts: {
  view: () => ViewState;
  /** The view's messages as plain data (through the store every message's flags would get signals of their own). */
  messages: () => readonly LocalMessage[];
  /** Whether the list is the one in the document (a list kept for its view while others show is not). */
  shown: () => boolean;
  scroller: () => HTMLElement | undefined;
  list: () => HTMLElement | undefined;
  win: WindowedList<LocalMessage>;
  bridge?: Bridge;
}) {
  const settings = useSettings();
  const selection = useSelection();
  const bridge = opts.bridge ?? defaultBridge;

  // ---- reading marks read ----
  const batcher = createReadBatcher({ send: (ids) => bridge.invoke('updateMessageFlags', { message_ids: ids, flag: 'read', op: 'add' }) });
  onCleanup(() => batcher.dispose());
  const unread = createMemo(() => new Set(opts.messages().filter((m) => !m.flags.includes('read')).map((m) => m.id)));
  const active = () => opts.shown() && document.visibilityState === 'visible' && document.hasFocus();
  // "Mark as unread from here" (actions/unread-intents.ts): those ids stay unread until the view changes.
  const keptUnread = new Set<number>(markedUnread.last()?.messageIds ?? []);
  onCleanup(
    markedUnread.subscribe((e) => {
      e.messageIds.forEach((id) => keptUnread.add(id));
      batcher.drop(e.messageIds);
    }),
  );
  // A list hidden (kept while another view shows): what it saw goes now, as when a list closes;
  // shown again, another view was open in between.
  createEffect(
    on(
      opts.shown,
      (on) => {
        if (on) return;
        batcher.flush();
        keptUnread.clear();
      },
      { defer: true },
    ),
  );

  const check = () => {
    const scroller = opts.scroller();
    const list = opts.list();
    if (!scroller || !list || !active()) return;
    const view = opts.view();
    if (view.phase !== 'open' || !marksReadIn(view.target, readPolicyOf(settings.raw()))) return;
    const u = unread();
    if (u.size === 0) return;
    const port = scroller.getBoundingClientRect();
    const seen = seenRows(
      rowsIn(list).map((r) => r.box),
      port.top,
      port.bottom,
    );
    // Marked unread by the user while this view is open: left alone (as Zulip does).
    batcher.add(seen.filter((id) => u.has(id) && !keptUnread.has(id)));
  };
  let frame: number | undefined;
  const soon = () => {
    if (frame !== undefined) return;
    frame = requestAnimationFrame(() => {
      frame = undefined;
      check();
    });
  };
  onCleanup(() => {
    if (frame !== undefined) cancelAnimationFrame(frame);
  });
  // Rows rendered or changed, the policy or the view changed: look again once laid out.
  createEffect(on([opts.win.visible, unread, () => settings.raw(), () => opts.view().phase, opts.shown], soon));
  window.addEventListener('focus', soon);
  document.addEventListener('visibilitychange', soon);
  onCleanup(() => {
    window.removeEventListener('focus', soon);
    document.removeEventListener('visibilitychange', soon);
  });

  // ---- the selected message ----
  const rowOf = (id: number) => opts.list()?.querySelector<HTMLElement>(`${ROW_SELECTOR}[data-message-id="${id}"]`) ?? null;
  const api: MessageListApi = {
    target: () => opts.view().target,
    messages: () => opts.view().messages,
    onScreen: () => {
      const scroller = opts.scroller();
      const list = opts.list();
      if (!scroller || !list) return [];
      const port = scroller.getBoundingClientRect();
      return rowsIn(list)
        .filter((r) => r.box.bottom > port.top && r.box.top < port.bottom)
        .map((r) => r.box.id);
    },
    reveal: (id) => {
      const el = rowOf(id);
      if (el) el.scrollIntoView({ block: 'nearest' });
      else opts.win.jumpTo(id);
    },
    toBottom: () => opts.win.toBottom(),
  };
  // The keyboard serves the list in the document.
  createEffect(() => {
    if (opts.shown()) onCleanup(selection.attach(api));
  });
  createEffect(on(() => opts.view().key, () => selection.select(null), { defer: true }));

  let marked: HTMLElement | null = null;
  let wantFocus = false;
  createEffect(on(selection.focusRequests, () => (wantFocus = true), { defer: true }));
  // Draw the selection on its row whenever the row is (re)rendered.
  createEffect(
    on([selection.selected, opts.win.visible, selection.focusRequests, opts.shown], ([id, , , shown]) => {
      if (!shown) return;
      queueMicrotask(() => {
        const el = id === null ? null : rowOf(id);
        if (marked && marked !== el) {
          marked.classList.remove('is-selected');
          marked.removeAttribute('aria-current');
        }
        marked = el;
        if (!el) return;
        el.classList.add('is-selected');
        el.setAttribute('aria-current', 'true');
        el.tabIndex = -1;
        if (wantFocus) {
          wantFocus = false;
          el.focus({ preventScroll: true });
          el.scrollIntoView({ block: 'nearest' });
        }
      });
    }),
  );
  const onClick = (e: MouseEvent) => {
    if (!(e.target instanceof Element)) return;
    const row = e.target.closest<HTMLElement>(ROW_SELECTOR);
    if (row) selection.select(Number(row.dataset['messageId']));
  };

  return {
    /** Call from the scroll container's scroll handler. */
    onScroll: soon,
    /** Put on the list: a click selects its message. */
    onClick,
  };
}
