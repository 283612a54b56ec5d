/**
 * The sidebar in a narrow window (under 700 CSS px wide, as Zulip web's left sidebar goes in its
 * narrow layout; a 1280 px window at 200% zoom is 640): hidden behind the "Sidebar" button in the top bar, shown
 * over the view, closed by following a link in it, by Escape (the focus goes back to the button)
 * or by a click beside it. Wider, the button and the backdrop are not shown and the sidebar is the
 * first column as always (shell.css).
 */
import { createEffect, createSignal, on, Show, type JSX } from 'solid-js';
import { MenuIcon } from '../kit/icons.js';
import { useRouter } from '../router/router.js';

export function createSidebarOverlay() {
  const router = useRouter();
  const [open, setOpen] = createSignal(false);
  let toggle: HTMLButtonElement | undefined;
  let slot: HTMLDivElement | undefined;
  createEffect(on(router.route, () => setOpen(false), { defer: true }));

  const show = () => {
    setOpen(true);
    // Into the sidebar, at the open view's row when it has one.
    queueMicrotask(() => (slot?.querySelector<HTMLElement>('[aria-current="page"]') ?? slot?.querySelector<HTMLElement>('a[href], button'))?.focus());
  };
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) toggle?.focus();
  };

  const Toggle = () => (
    <button ref={toggle} type="button" class="sidebar-toggle" aria-label="Sidebar" title="Sidebar" aria-expanded={open()} onClick={() => (open() ? close(false) : show())}>
      <MenuIcon />
    </button>
  );

  const Slot = (props: { children: JSX.Element }) => (
    <>
      <div
        ref={slot}
        class="sidebar-slot"
        classList={{ open: open() }}
        onKeyDown={(e) => {
          if (e.key !== 'Escape' || !open()) return;
          e.preventDefault();
          close(true);
        }}
        onClick={(e) => {
          // A link followed to where the app already is changes no route: close all the same.
          if (open() && e.target instanceof Element && e.target.closest('a[href]')) close(false);
        }}
      >
        {props.children}
      </div>
      <Show when={open()}>
        <div class="sidebar-backdrop" aria-hidden="true" onClick={() => close(false)} />
      </Show>
    </>
  );

  return { open, Toggle, Slot };
}
