/** The remembered window: validated, clamped onto the displays present now, saved debounced and on close. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserWindow as ElectronWindow } from 'electron';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clampToDisplays, DEFAULT_SIZE, loadWindowState, trackWindowState } from '../../main/window-state.js';
import { BrowserWindow, fake } from './fake-electron.js';

vi.mock('electron', () => import('./fake-electron.js'));

const left = { x: 0, y: 0, width: 1920, height: 1040 };
const right = { x: 1920, y: 0, width: 1280, height: 1024 };

let dir: string;
let file: string;
beforeEach(() => {
  fake.reset();
  dir = mkdtempSync(path.join(tmpdir(), 'zo-winstate-'));
  file = path.join(dir, 'window-state.json');
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

describe('clampToDisplays', () => {
  it('keeps a window that fits where it was', () => {
    expect(clampToDisplays({ x: 100, y: 50, width: 800, height: 600 }, [left, right], left)).toEqual({ x: 100, y: 50, width: 800, height: 600 });
    expect(clampToDisplays({ x: 2000, y: 10, width: 800, height: 600 }, [left, right], left)).toEqual({ x: 2000, y: 10, width: 800, height: 600 });
  });

  it('moves a window hanging off an edge onto the display it overlaps most', () => {
    expect(clampToDisplays({ x: 1700, y: -40, width: 1000, height: 600 }, [left, right], left)).toEqual({ x: 1920, y: 0, width: 1000, height: 600 });
    expect(clampToDisplays({ x: -300, y: 900, width: 800, height: 600 }, [left, right], left)).toEqual({ x: 0, y: 440, width: 800, height: 600 });
  });

  it('shrinks a window larger than its display', () => {
    expect(clampToDisplays({ x: 1920, y: 0, width: 2500, height: 1400 }, [left, right], left)).toEqual({ x: 1920, y: 0, width: 1280, height: 1024 });
  });

  it('centres on the primary display a window whose monitor is gone', () => {
    expect(clampToDisplays({ x: 4000, y: 100, width: 1000, height: 700 }, [left], left)).toEqual({ x: 460, y: 170, width: 1000, height: 700 });
  });
});

describe('loadWindowState', () => {
  it('restores a saved state, clamped', () => {
    writeFileSync(file, JSON.stringify({ version: 1, bounds: { x: 2100, y: 100, width: 900, height: 700 }, maximized: true }));
    expect(loadWindowState(file, [left, right], left)).toEqual({ bounds: { x: 2100, y: 100, width: 900, height: 700 }, maximized: true });
    expect(loadWindowState(file, [left], left)).toEqual({ bounds: { x: 510, y: 170, width: 900, height: 700 }, maximized: true });
  });

  it('falls back to defaults for a missing, broken or out-of-range file', () => {
    const defaults = { bounds: { x: 360, y: 120, width: DEFAULT_SIZE.width, height: DEFAULT_SIZE.height }, maximized: false };
    expect(loadWindowState(file, [left], left)).toEqual(defaults);
    for (const bad of ['{', '[]', JSON.stringify({ version: 1, bounds: { x: 'a', y: 0, width: 10, height: 10 }, maximized: false }), JSON.stringify({ version: 2, bounds: { x: 0, y: 0, width: 800, height: 600 }, maximized: false }), JSON.stringify({ version: 1, bounds: { x: 1e9, y: 0, width: 800, height: 600 }, maximized: false }), JSON.stringify({ version: 1, bounds: { x: 0, y: 0, width: 0, height: 600 }, maximized: false })]) {
      writeFileSync(file, bad);
      expect(loadWindowState(file, [left], left)).toEqual(defaults);
    }
  });
});

describe('trackWindowState', () => {
  it('saves after resizing/moving settles, and at once on close', () => {
    vi.useFakeTimers();
    const win = new BrowserWindow({ x: 10, y: 20, width: 900, height: 700 });
    trackWindowState(win as unknown as ElectronWindow, file, 500);
    win.bounds = { x: 30, y: 40, width: 1000, height: 750 };
    win.emit('resize');
    vi.advanceTimersByTime(300);
    win.emit('move');
    vi.advanceTimersByTime(300);
    expect(() => readFileSync(file)).toThrow(); // still moving: nothing written yet
    vi.advanceTimersByTime(300);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ version: 1, bounds: { x: 30, y: 40, width: 1000, height: 750 }, maximized: false });
    win.bounds = { x: 50, y: 60, width: 1100, height: 800 };
    win.maximized = true;
    win.close();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ version: 1, bounds: { x: 50, y: 60, width: 1100, height: 800 }, maximized: true });
    expect(loadWindowState(file, [left], left)).toEqual({ bounds: { x: 50, y: 60, width: 1100, height: 800 }, maximized: true });
  });
});
