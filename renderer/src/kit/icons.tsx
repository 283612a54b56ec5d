/**
 * Small line icons for icon buttons (drawn in SVG: an emoji or a font glyph would depend on the
 * system's fonts). Decorative: the button carries the name (aria-label), the icon is hidden.
 */
import type { JSX } from 'solid-js';

/** `filled`: drawn in the highlight colour (a starred message's star). The class is static otherwise. */
function Icon(props: { children: JSX.Element; filled?: boolean }) {
  return (
    <svg class="icon" classList={{ 'icon-filled': props.filled === true }} viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
      {props.children}
    </svg>
  );
}

/** A smiling face with a plus: add a reaction. */
export function ReactIcon() {
  return (
    <Icon>
      <circle cx="7" cy="8.5" r="5.5" fill="none" stroke="currentColor" stroke-width="1.3" />
      <circle cx="5.2" cy="7.3" r="0.8" fill="currentColor" />
      <circle cx="8.8" cy="7.3" r="0.8" fill="currentColor" />
      <path d="M4.8 10.1c1.2 1.4 3.2 1.4 4.4 0" fill="none" stroke="currentColor" stroke-width="1.2" stroke-linecap="round" />
      <path d="M13 1v4M11 3h4" stroke="currentColor" stroke-width="1.3" stroke-linecap="round" />
    </Icon>
  );
}

export function PencilIcon() {
  return (
    <Icon>
      <path d="M10.8 2.2l3 3L5.6 13.4 2 14l.6-3.6z" fill="none" stroke="currentColor" stroke-width="1.3" stroke-linejoin="round" />
      <path d="M9.3 3.7l3 3" stroke="currentColor" stroke-width="1.3" />
    </Icon>
  );
}

export function StarIcon(props: { filled: boolean }) {
  return (
    <Icon filled={props.filled}>
      <path
        d="M8 1.6l1.9 4.1 4.4.5-3.3 3 .9 4.4L8 11.4l-3.9 2.2.9-4.4-3.3-3 4.4-.5z"
        fill={props.filled ? 'currentColor' : 'none'}
        stroke="currentColor"
        stroke-width="1.2"
        stroke-linejoin="round"
      />
    </Icon>
  );
}

/** Three dots, vertical: more actions. */
export function MoreIcon() {
  return (
    <Icon>
      <circle cx="8" cy="3.2" r="1.3" fill="currentColor" />
      <circle cx="8" cy="8" r="1.3" fill="currentColor" />
      <circle cx="8" cy="12.8" r="1.3" fill="currentColor" />
    </Icon>
  );
}

/** Three bars: the sidebar's toggle in a narrow window. */
export function MenuIcon() {
  return (
    <Icon>
      <path d="M2 4h12M2 8h12M2 12h12" stroke="currentColor" stroke-width="1.6" stroke-linecap="round" fill="none" />
    </Icon>
  );
}
