/** main/ runs under a mocked `electron`: the window is locked down and navigation is refused. */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../main/window-options.js';

type Handler = (...args: unknown[]) => unknown;

const h = vi.hoisted(() => {
  const state = {
    windows: [] as Array<{ options: Record<string, unknown>; handlers: Map<string, Handler>; openHandler?: Handler; loaded?: string }>,
    headersHook: undefined as Handler | undefined,
    permissionHook: undefined as Handler | undefined,
    lock: true,
    quit: vi.fn(),
  };
  return state;
});

vi.mock('electron', () => {
  class BrowserWindow {
    webContents: { on: (e: string, f: Handler) => void; setWindowOpenHandler: (f: Handler) => void };
    constructor(options: Record<string, unknown>) {
      const rec = { options, handlers: new Map<string, Handler>() } as (typeof h.windows)[number];
      h.windows.push(rec);
      this.webContents = {
        on: (e, f) => void rec.handlers.set(e, f),
        setWindowOpenHandler: (f) => void (rec.openHandler = f),
      };
      this.loadFile = async (p: string) => void (rec.loaded = p);
    }
    loadFile: (p: string) => Promise<void>;
    once() {}
    show() {}
  }
  return {
    BrowserWindow,
    app: {
      requestSingleInstanceLock: () => h.lock,
      quit: h.quit,
      whenReady: () => Promise.resolve(),
      on: () => undefined,
    },
    session: {
      defaultSession: {
        webRequest: { onHeadersReceived: (f: Handler) => void (h.headersHook = f) },
        setPermissionRequestHandler: (f: Handler) => void (h.permissionHook = f),
      },
    },
  };
});

beforeEach(() => {
  h.windows.length = 0;
  vi.resetModules();
});

async function boot() {
  await import('../../main/index.js');
  await new Promise((r) => setTimeout(r, 0));
}

describe('main process', () => {
  it('opens one window with contextIsolation, sandbox, no nodeIntegration, webSecurity', async () => {
    await boot();
    expect(h.windows).toHaveLength(1);
    expect(h.windows[0]?.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true });
    expect(h.windows[0]?.loaded).toMatch(/renderer[/\\]index\.html$/);
  });

  it('denies window.open and in-page navigation', async () => {
    await boot();
    const win = h.windows[0]!;
    expect(win.openHandler?.({ url: 'https://evil.example' })).toEqual({ action: 'deny' });
    const event = { preventDefault: vi.fn() };
    win.handlers.get('will-navigate')?.(event, 'https://evil.example');
    expect(event.preventDefault).toHaveBeenCalled();
  });

  it('adds the strict CSP to every response and denies permission requests', async () => {
    await boot();
    const cb = vi.fn();
    h.headersHook?.({ responseHeaders: { a: ['b'] } }, cb);
    expect(cb).toHaveBeenCalledWith({ responseHeaders: { a: ['b'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline');
    const allow = vi.fn();
    h.permissionHook?.({}, 'geolocation', allow);
    expect(allow).toHaveBeenCalledWith(false);
  });

  it('a second instance quits instead of opening another window', async () => {
    h.lock = false;
    await boot();
    h.lock = true;
    expect(h.quit).toHaveBeenCalled();
    expect(h.windows).toHaveLength(0);
  });
});
