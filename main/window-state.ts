/**
 * The window's size, position and maximized flag, remembered in `userData/window-state.json`.
 *
 * Loading validates the file (anything odd means defaults) and clamps the rectangle to what is
 * visible now: a monitor unplugged since last time must not leave the window off-screen. The
 * window goes on the display it overlaps most, shrunk to that display's work area if needed and
 * moved fully inside it; when it overlaps none it is centred on the primary display.
 * Saving happens on resize/move (debounced) and on close, with the normal (unmaximized) bounds.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserWindow, Rectangle } from 'electron';
import * as z from 'zod';

export interface WindowState {
  readonly bounds: Rectangle;
  readonly maximized: boolean;
}

/** The smallest window the layout is made for: 480 px wide (the narrow layout: shell.css), 400 tall (200% zoom of 800). */
export const MIN_SIZE = { width: 480, height: 400 } as const;
export const DEFAULT_SIZE = { width: 1200, height: 800 } as const;

const int = z.number().int().min(-100_000).max(100_000);
const fileSchema = z.object({
  version: z.literal(1),
  bounds: z.object({ x: int, y: int, width: int.min(1), height: int.min(1) }),
  maximized: z.boolean(),
});

function overlapArea(a: Rectangle, b: Rectangle): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

function centred(size: { width: number; height: number }, area: Rectangle): Rectangle {
  const width = Math.min(size.width, area.width);
  const height = Math.min(size.height, area.height);
  return { x: area.x + Math.round((area.width - width) / 2), y: area.y + Math.round((area.height - height) / 2), width, height };
}

/** Fit `bounds` onto the visible work areas; centred on `primary` when it overlaps none. */
export function clampToDisplays(bounds: Rectangle, workAreas: readonly Rectangle[], primary: Rectangle): Rectangle {
  let best: Rectangle | undefined;
  let bestArea = 0;
  for (const area of workAreas) {
    const o = overlapArea(bounds, area);
    if (o > bestArea) {
      best = area;
      bestArea = o;
    }
  }
  if (!best) return centred(bounds, primary);
  const width = Math.min(Math.max(bounds.width, Math.min(MIN_SIZE.width, best.width)), best.width);
  const height = Math.min(Math.max(bounds.height, Math.min(MIN_SIZE.height, best.height)), best.height);
  const x = Math.min(Math.max(bounds.x, best.x), best.x + best.width - width);
  const y = Math.min(Math.max(bounds.y, best.y), best.y + best.height - height);
  return { x, y, width, height };
}

/** The remembered state, validated and clamped; defaults (centred on the primary display) otherwise. */
export function loadWindowState(file: string, workAreas: readonly Rectangle[], primary: Rectangle): WindowState {
  try {
    const r = fileSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (r.success) return { bounds: clampToDisplays(r.data.bounds, workAreas, primary), maximized: r.data.maximized };
  } catch {
    // missing or not JSON: defaults
  }
  return { bounds: centred(DEFAULT_SIZE, primary), maximized: false };
}

export function saveWindowState(file: string, state: WindowState): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ version: 1, bounds: state.bounds, maximized: state.maximized }));
  renameSync(tmp, file);
}

/** Save the window's state on resize/move (after `debounceMs` of quiet) and at once on close. */
export function trackWindowState(win: BrowserWindow, file: string, debounceMs = 500, log: (line: string) => void = (l) => console.warn(l)): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const save = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (win.isDestroyed() || win.isMinimized()) return;
    try {
      saveWindowState(file, { bounds: win.getNormalBounds(), maximized: win.isMaximized() });
    } catch (e) {
      // Losing the window position is not worth a crash.
      log(`could not save the window state: ${String(e)}`);
    }
  };
  const later = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(save, debounceMs);
  };
  win.on('resize', later);
  win.on('move', later);
  win.on('maximize', later);
  win.on('unmaximize', later);
  win.on('close', save);
  return () => {
    if (timer) clearTimeout(timer);
    win.off('resize', later);
    win.off('move', later);
    win.off('maximize', later);
    win.off('unmaximize', later);
    win.off('close', save);
  };
}
