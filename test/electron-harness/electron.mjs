// What `import { app, BrowserWindow, ... } from 'electron'` gets in the built main bundle under the
// harness (hooks.mjs). Each export forwards to the stand-in of the app launched now (stand-in.ts,
// installed on globalThis by launch.ts), so a module evaluated once serves every launch.
const KEY = Symbol.for('zulip-offline.electron-harness');
const current = (name) => {
  const s = globalThis[KEY];
  if (!s) throw new Error(`electron.${name}: no harness app is running`);
  return s[name];
};
const forward = (name) =>
  new Proxy(function standIn() {}, {
    get: (_t, key) => {
      const v = current(name)[key];
      return typeof v === 'function' ? v.bind(current(name)) : v;
    },
    set: (_t, key, value) => {
      current(name)[key] = value;
      return true;
    },
    construct: (_t, args) => new (current(name))(...args),
    apply: (_t, self, args) => current(name).apply(self, args),
  });
export const app = forward('app');
export const BrowserWindow = forward('BrowserWindow');
export const contextBridge = forward('contextBridge');
export const dialog = forward('dialog');
export const ipcMain = forward('ipcMain');
export const Menu = forward('Menu');
export const nativeImage = forward('nativeImage');
export const Notification = forward('Notification');
export const protocol = forward('protocol');
export const safeStorage = forward('safeStorage');
export const screen = forward('screen');
export const session = forward('session');
export const shell = forward('shell');
export const Tray = forward('Tray');
export default { app, BrowserWindow, contextBridge, dialog, ipcMain, Menu, nativeImage, Notification, protocol, safeStorage, screen, session, shell, Tray };
