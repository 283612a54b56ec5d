/**
 * The image viewer (Zulip web's lightbox): a modal dialog over the page with the image at full
 * size fitted to the window, Zoom in / Zoom out / Fit, Previous / Next through the images of the
 * view, and the keys Zulip's has: ← → to step, + − to zoom, 0 to fit, Esc to close (focus goes back
 * to the image that opened it).
 */
import { onCleanup, Show } from 'solid-js';
import { Button } from '../kit/Button.js';
import { Dialog } from '../kit/Dialog.js';
import { lightbox } from './lightbox.js';
import './lightbox.css';

export function Lightbox() {
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const act: Record<string, () => void> = {
      ArrowLeft: () => lightbox.step(-1),
      ArrowRight: () => lightbox.step(1),
      '+': () => lightbox.zoom(1),
      '=': () => lightbox.zoom(1),
      '-': () => lightbox.zoom(-1),
      '0': () => lightbox.zoom(0),
    };
    const f = act[e.key];
    if (f === undefined) return;
    e.preventDefault();
    f();
  };
  return (
    <Show when={lightbox.state()}>
      {(s) => {
        const image = () => s().images[s().index]!;
        const many = () => s().images.length > 1;
        const title = () => (many() ? `${image().alt} (${s().index + 1} of ${s().images.length})` : image().alt);
        // Wherever focus is in the viewer (the Close button has it first), its keys work.
        document.addEventListener('keydown', onKeyDown);
        onCleanup(() => document.removeEventListener('keydown', onKeyDown));
        return (
          <Dialog title={title()} class="lightbox" onClose={() => lightbox.close()}>
            <div class="lightbox-body">
              <div class="lightbox-stage">
                <img src={image().src} alt={image().alt} style={{ zoom: String(s().zoom) }} />
              </div>
              <div class="lightbox-tools" role="toolbar" aria-label="Image tools">
                <Show when={many()}>
                  <Button size="small" onClick={() => lightbox.step(-1)}>
                    Previous image
                  </Button>
                  <Button size="small" onClick={() => lightbox.step(1)}>
                    Next image
                  </Button>
                </Show>
                <Button size="small" onClick={() => lightbox.zoom(-1)}>
                  Zoom out
                </Button>
                <Button size="small" onClick={() => lightbox.zoom(0)} aria-label={`${Math.round(s().zoom * 100)}%, fit to window`}>
                  {Math.round(s().zoom * 100)}%
                </Button>
                <Button size="small" onClick={() => lightbox.zoom(1)}>
                  Zoom in
                </Button>
              </div>
            </div>
          </Dialog>
        );
      }}
    </Show>
  );
}
