// What `import { app, BrowserWindow, ... } from 'electron'` gets in the built main bundle under the
// harness (hooks.mjs): the forwarders of electron.cjs (each to the stand-in of the app launched now).
import electron from './electron.cjs';

export const { app, autoUpdater, BrowserWindow, contextBridge, dialog, ipcMain, Menu, nativeImage, net, Notification, protocol, safeStorage, screen, session, shell, Tray } = electron;
export default { app, autoUpdater, BrowserWindow, contextBridge, dialog, ipcMain, Menu, nativeImage, net, Notification, protocol, safeStorage, screen, session, shell, Tray };
