// The stand-in `electron` module's exports: each forwards to the module of the app launched now
// (stand-in.ts, installed on globalThis by launch.ts; unit tests install their fake there), so a
// module evaluated once serves every launch. ESM imports get it through electron.mjs (hooks.mjs);
// CommonJS `require('electron')` (electron-updater's) through require.cache (require-electron.ts).
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
const NAMES = ['app', 'autoUpdater', 'BrowserWindow', 'contextBridge', 'dialog', 'ipcMain', 'Menu', 'nativeImage', 'net', 'Notification', 'protocol', 'safeStorage', 'screen', 'session', 'shell', 'Tray'];
for (const name of NAMES) exports[name] = forward(name);
exports.KEY = KEY;
