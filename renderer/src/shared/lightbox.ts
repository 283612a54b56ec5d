/**
 * The image viewer's state (one for the page): the images of the open view a click started from,
 * which one is shown and how far it is zoomed. Pure steps plus one signal; Lightbox.tsx draws it.
 */
import { createSignal } from 'solid-js';

export interface LightboxImage {
  /** The full-size image, loaded from the host like every upload (offline too once cached). */
  readonly src: string;
  readonly alt: string;
}

export interface LightboxState {
  readonly images: readonly LightboxImage[];
  readonly index: number;
  readonly zoom: number;
}

/** Zoom levels, as a factor of the image's fitted size. */
export const ZOOM_LEVELS = [0.5, 0.75, 1, 1.5, 2, 3, 4] as const;

/** The next zoom level up or down (stays at the ends). */
export function zoomStep(zoom: number, dir: 1 | -1): number {
  const i = ZOOM_LEVELS.findIndex((z) => z >= zoom);
  const at = i < 0 ? ZOOM_LEVELS.length - 1 : i;
  return ZOOM_LEVELS[Math.min(ZOOM_LEVELS.length - 1, Math.max(0, at + dir))]!;
}

/** The image before or after, wrapping around; zoom back to fitted. */
export function stepImage(s: LightboxState, dir: 1 | -1): LightboxState {
  const n = s.images.length;
  return { ...s, index: (s.index + dir + n) % n, zoom: 1 };
}

const [state, setState] = createSignal<LightboxState | null>(null);

export const lightbox = {
  state,
  open(images: readonly LightboxImage[], index: number): void {
    if (images.length === 0) return;
    setState({ images, index: Math.min(Math.max(0, index), images.length - 1), zoom: 1 });
  },
  close: () => setState(null),
  step: (dir: 1 | -1) => setState((s) => (s ? stepImage(s, dir) : s)),
  zoom: (dir: 1 | -1 | 0) => setState((s) => (s ? { ...s, zoom: dir === 0 ? 1 : zoomStep(s.zoom, dir) } : s)),
};
