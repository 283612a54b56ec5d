/**
 * A floating panel next to the element that opened it (menus, the emoji picker): rendered in a
 * portal at the end of the page, so no scrolling box clips it, positioned below the anchor's right
 * edge (above it when there is no room below) and kept inside the window; it follows the anchor
 * when anything scrolls or the window resizes. It closes on Escape, on a press outside it and the
 * anchor, and when the anchor leaves the page (a windowed list dropped its row). Rendered only
 * while open: the parent shows it under a condition and closes it in `onClose`.
 */
import { onCleanup, onMount, type JSX } from 'solid-js';
import { Portal } from 'solid-js/web';
import { placePanel } from './place.js';
import './overlays.css';

export type CloseReason = 'escape' | 'outside' | 'detached';

export interface PopoverProps {
  anchor: HTMLElement;
  onClose(reason: CloseReason): void;
  class?: string;
  id?: string;
  role?: JSX.HTMLAttributes<HTMLDivElement>['role'];
  'aria-label'?: string;
  /** Called once the panel is placed (to move focus into it). */
  onOpened?(panel: HTMLDivElement): void;
  children: JSX.Element;
}

export function Popover(props: PopoverProps) {
  let panel: HTMLDivElement | undefined;
  let frame = 0;

  const place = () => {
    frame = 0;
    if (!panel) return;
    if (!props.anchor.isConnected) {
      props.onClose('detached');
      return;
    }
    const p = placePanel(props.anchor.getBoundingClientRect(), panel.offsetWidth, panel.offsetHeight, window.innerWidth, window.innerHeight);
    // CSSOM, not a style attribute: the page's CSP allows no inline styles.
    panel.style.left = `${p.left}px`;
    panel.style.top = `${p.top}px`;
  };
  const soon = () => {
    if (frame === 0) frame = window.requestAnimationFrame(place);
  };
  const onPointerDown = (e: PointerEvent) => {
    const t = e.target;
    if (!(t instanceof Node) || panel?.contains(t) || props.anchor.contains(t)) return;
    props.onClose('outside');
  };

  onMount(() => {
    place();
    if (panel) props.onOpened?.(panel);
    document.addEventListener('pointerdown', onPointerDown, true);
    window.addEventListener('scroll', soon, true);
    window.addEventListener('resize', soon);
  });
  onCleanup(() => {
    document.removeEventListener('pointerdown', onPointerDown, true);
    window.removeEventListener('scroll', soon, true);
    window.removeEventListener('resize', soon);
    if (frame !== 0) window.cancelAnimationFrame(frame);
  });

  return (
    <Portal>
      <div
        ref={panel}
        id={props.id}
        class={`popover ${props.class ?? ''}`}
        role={props.role}
        aria-label={props['aria-label']}
        onKeyDown={(e) => {
          if (e.key !== 'Escape') return;
          e.preventDefault();
          e.stopPropagation();
          props.onClose('escape');
        }}
      >
        {props.children}
      </div>
    </Portal>
  );
}
