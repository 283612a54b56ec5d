/**
 * CommonJS `require('electron')` (electron-updater's) gets the stand-in too: the npm package's entry
 * (which only names a binary that does not exist here) is put in Node's require cache as the
 * forwarders of electron.cjs. Idempotent; used by launch.ts and by unit tests with the fake.
 */
import { createRequire, Module } from 'node:module';

const require = createRequire(import.meta.url);

export function electronForRequire(): void {
  const entry = require.resolve('electron');
  if (require.cache[entry]) return;
  const m = new Module(entry);
  m.filename = entry;
  m.loaded = true;
  m.exports = require('./electron.cjs');
  require.cache[entry] = m;
}

/** Where electron.cjs looks for the module of the app running now. */
export const ELECTRON_KEY = Symbol.for('zulip-offline.electron-harness');
