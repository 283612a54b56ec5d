/**
 * The built preload (out/preload/index.cjs, one CommonJS file) as a page init script: it runs before
 * the page's own scripts, with a `require('electron')` that gives it `contextBridge` (exposing on
 * the page's window, as context isolation's bridge does) and `ipcRenderer` (invoke / send crossing
 * to the harness's `ipcMain` through the `__zohIpc` binding; `on` hearing `webContents.send`). It is
 * the same file Electron would run; only the module it requires is the harness's.
 */

/** JSON, as the binding carries it; a Uint8Array travels as `{ __u8: base64 }`. */
export type WireValue = null | boolean | number | string | WireValue[] | { [k: string]: WireValue };

/** What the page-side half does (serialised into the init script, so it must be self-contained). */
function pageSide(run: (require: (id: string) => unknown, module: { exports: unknown }, exports: unknown) => void): void {
  type Bridge = (kind: 'invoke' | 'send', channel: string, args: unknown[]) => Promise<unknown>;
  // Runs in the page (no DOM types on this side of the project): the window is the global object.
  const w = globalThis as unknown as Record<string, unknown> & { btoa(s: string): string };
  const ipc = w['__zohIpc'] as Bridge;
  const toWire = (v: unknown): unknown => {
    if (!(v instanceof Uint8Array)) return v;
    let bin = '';
    for (let i = 0; i < v.length; i += 0x8000) bin += String.fromCharCode(...v.subarray(i, i + 0x8000));
    return { __u8: w.btoa(bin) };
  };
  const listeners = new Map<string, Array<(event: unknown, ...args: unknown[]) => void>>();
  Object.defineProperty(w, '__zohDispatch', {
    value: (channel: string, args: unknown[]) => {
      for (const l of [...(listeners.get(channel) ?? [])]) l({}, ...args);
    },
  });
  const electron = {
    contextBridge: {
      exposeInMainWorld: (key: string, api: unknown) => Object.defineProperty(w, key, { value: api, enumerable: true }),
    },
    ipcRenderer: {
      invoke: (channel: string, ...args: unknown[]) => ipc('invoke', channel, args.map(toWire)),
      send: (channel: string, ...args: unknown[]) => void ipc('send', channel, args.map(toWire)),
      on: (channel: string, listener: (event: unknown, ...args: unknown[]) => void) => {
        listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
      },
    },
  };
  const module = { exports: {} };
  const require = (id: string) => {
    if (id === 'electron') return electron;
    throw new Error(`a sandboxed preload cannot require ${id}`);
  };
  run(require, module, module.exports);
}

export function preloadInitScript(source: string): string {
  // The preload's own text, as Electron would run it, wrapped as a CommonJS module (no eval: the CSP forbids it).
  return `(${pageSide.toString()})(function (require, module, exports) {\n${source}\n});`;
}
