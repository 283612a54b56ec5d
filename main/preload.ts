/**
 * Preload: exposes only the contract's channels on `window.zulip`, never ipcRenderer itself.
 * The contract (sync/protocol) and its channels arrive with the desktop-shell issue; for now the
 * page can only learn that it runs inside the desktop shell.
 */
import { contextBridge } from 'electron';

contextBridge.exposeInMainWorld('zulip', Object.freeze({ host: 'electron' as const }));
