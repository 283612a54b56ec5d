/**
 * Preload (sandboxed, bundled to one CommonJS file): exposes the contract's channels on
 * `window.zulip` and nothing else: never ipcRenderer, never the IPC event object (listeners get
 * the payload only). It checks nothing itself: main parses every payload (docs/architecture.md rule 10).
 *
 *   window.zulip.host                     'electron'
 *   window.zulip.invoke(name, request)    -> Promise<RpcResult> (IPC_INVOKE)
 *   window.zulip.subscribe(listener)      -> id; the first subscription sends IPC_SUBSCRIBE
 *   window.zulip.unsubscribe(id)          the last one sends IPC_UNSUBSCRIBE
 *   window.zulip.stageUpload(bytes)       -> Promise<RpcResult> (IPC_STAGE_UPLOAD): a file the user attached
 *   window.zulip.saveUpload(path)         -> Promise<RpcResult> (IPC_SAVE_UPLOAD): a file link, saved where the user says
 *   window.zulip.desktopSettings(patch)   -> Promise<RpcResult> (IPC_DESKTOP_SETTINGS): the app's own settings; null reads them
 *   window.zulip.onOpen(listener)         main asks the page to open a conversation (IPC_OPEN: a notification was
 *                                         clicked, or a zulip:// or realm link came from the OS: main/open-link.ts)
 *   window.zulip.update(action)           -> Promise<RpcResult> (IPC_UPDATE): the updater's state, 'check', or 'install'
 *   window.zulip.onUpdateStatus(listener) the updater's state as it changes (IPC_UPDATE_STATUS: main/updater.ts)
 *
 * One ipcRenderer listener fans events out to the page's listeners.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { CHANNELS } from './ipc-channels.js';

type Listener = (event: unknown) => void;

const listeners = new Map<number, Listener>();
let nextId = 1;

ipcRenderer.on(CHANNELS.event, (_event, payload: unknown) => {
  for (const listener of [...listeners.values()]) {
    try {
      listener(payload);
    } catch (e) {
      // One failing listener must not starve the others.
      console.error('zulip event listener failed', e);
    }
  }
});

const api = {
  host: 'electron' as const,
  invoke: (name: string, request: unknown): Promise<unknown> => ipcRenderer.invoke(CHANNELS.invoke, { name, request }),
  stageUpload: (bytes: Uint8Array): Promise<unknown> => ipcRenderer.invoke(CHANNELS.stageUpload, bytes),
  saveUpload: (path: string): Promise<unknown> => ipcRenderer.invoke(CHANNELS.saveUpload, { path }),
  desktopSettings: (patch: unknown): Promise<unknown> => ipcRenderer.invoke(CHANNELS.desktopSettings, patch ?? null),
  onOpen: (listener: (target: unknown) => void): void => {
    if (typeof listener !== 'function') throw new TypeError('onOpen(listener): listener must be a function');
    ipcRenderer.on(CHANNELS.open, (_event, target: unknown) => listener(target));
  },
  update: (action: string): Promise<unknown> => ipcRenderer.invoke(CHANNELS.update, { action }),
  onUpdateStatus: (listener: (status: unknown) => void): void => {
    if (typeof listener !== 'function') throw new TypeError('onUpdateStatus(listener): listener must be a function');
    ipcRenderer.on(CHANNELS.updateStatus, (_event, status: unknown) => listener(status));
  },
  subscribe: (listener: Listener): number => {
    if (typeof listener !== 'function') throw new TypeError('subscribe(listener): listener must be a function');
    const id = nextId++;
    listeners.set(id, listener);
    if (listeners.size === 1) ipcRenderer.send(CHANNELS.subscribe);
    return id;
  },
  unsubscribe: (id: number): void => {
    if (!listeners.delete(id)) return;
    if (listeners.size === 0) ipcRenderer.send(CHANNELS.unsubscribe);
  },
};

contextBridge.exposeInMainWorld('zulip', Object.freeze(api));
