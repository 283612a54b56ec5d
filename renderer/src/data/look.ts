/**
 * The page's look, owned in one place: the display settings in force (the open account's, or the
 * defaults when none is open) and the system's light / dark preference, written onto <html>
 * whenever either changes. `App` calls `applyLookToPage` once; the settings store calls
 * `showDisplaySettings` as the user's settings arrive and change.
 */
import { createEffect, createSignal, onCleanup } from 'solid-js';
import { applyLook, DEFAULT_DISPLAY, rootLook, type DisplaySettings } from './display.js';

const [inForce, setInForce] = createSignal<DisplaySettings>(DEFAULT_DISPLAY);

/** The settings to show (null: back to the defaults). */
export function showDisplaySettings(s: DisplaySettings | null): void {
  setInForce(s ?? DEFAULT_DISPLAY);
}

/** The system's dark preference, followed live (for `color_scheme` automatic). */
function systemPrefersDark(): () => boolean {
  const query = typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : null;
  const [dark, setDark] = createSignal(query?.matches ?? false);
  if (query) {
    const onChange = (e: MediaQueryListEvent) => setDark(e.matches);
    query.addEventListener('change', onChange);
    onCleanup(() => query.removeEventListener('change', onChange));
  }
  return dark;
}

/** Keep <html> in step with the settings in force and the system preference (call once, inside the app's root). */
export function applyLookToPage(root: HTMLElement = document.documentElement): void {
  const dark = systemPrefersDark();
  createEffect(() => applyLook(root, rootLook(inForce(), dark())));
}
