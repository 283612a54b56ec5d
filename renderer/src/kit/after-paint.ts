/**
 * Work that can wait until the frame being prepared has been painted (the rest of a new view's
 * rows, swapping a shown first screen for a fresher one): run after the next frame as a background
 * task (`scheduler.postTask`, where there is one), so that input and other tasks already waiting
 * go first; at the latest after `latestMs`, should frames not come (a hidden window) or the page
 * stay busy. Without a DOM (unit tests), at once.
 */
type Priority = 'background' | 'user-visible';

interface BackgroundScheduler {
  postTask(fn: () => void, opts: { priority: Priority }): Promise<unknown>;
}

function backgroundScheduler(): BackgroundScheduler | null {
  const s: unknown = Reflect.get(globalThis, 'scheduler');
  return typeof s === 'object' && s !== null && typeof Reflect.get(s, 'postTask') === 'function' ? (s as BackgroundScheduler) : null;
}

/** `priority` 'user-visible': a task as soon as the frame is painted, before idle-time work (what a reader may look at next, such as the URL). */
export function afterPaint(fn: () => void, latestMs: number, priority: Priority = 'background'): void {
  if (typeof requestAnimationFrame !== 'function') {
    fn();
    return;
  }
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    fn();
  };
  requestAnimationFrame(() => {
    const s = backgroundScheduler();
    if (s === null) setTimeout(run, 0);
    else s.postTask(run, { priority }).catch(() => undefined);
  });
  setTimeout(run, latestMs);
}
