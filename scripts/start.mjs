#!/usr/bin/env node
/**
 * `npm start [-- --sandbox]`: build if needed, then start Electron with the given arguments. Where
 * no Electron binary is installed (this machine and CI cannot download one) say so in one line and
 * run the browser-mode host (`out/main/browser-host.js`) in this process with the same arguments:
 * it prints the URL to open.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureElectronSqlite } from './electron-native.mjs';

const root = join(import.meta.dirname, '..');
const out = join(root, 'out');
const args = process.argv.slice(2);
const outputs = [join(out, 'main', 'index.js'), join(out, 'main', 'browser-host.js'), join(out, 'preload', 'index.cjs'), join(out, 'renderer', 'index.html')];
const sources = ['main', 'host', 'renderer', 'sync', 'server'].map((d) => join(root, d));
const configs = ['electron.vite.config.ts', 'package.json'].map((f) => join(root, f));

/** Newest modification time of the files under `path` (0 when missing). */
function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    max = Math.max(max, newest(join(path, entry.name)));
  }
  return max;
}

// Build when an output is missing or older than a source: a pulled change never starts a stale app.
const missing = outputs.some((f) => !existsSync(f));
const stale = !missing && Math.max(...sources.map(newest), ...configs.map(newest)) > Math.min(...outputs.map((f) => statSync(f).mtimeMs));
if (missing || stale) {
  console.log(missing ? 'Building the app (first start)...' : 'Sources changed: rebuilding the app...');
  const r = spawnSync(join(root, 'node_modules', '.bin', 'electron-vite'), ['build'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

function electronBinary() {
  try {
    const dir = join(createRequire(import.meta.url).resolve('electron'), '..');
    const pathFile = join(dir, 'path.txt');
    if (!existsSync(pathFile)) return undefined;
    const exe = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(exe) ? exe : undefined;
  } catch {
    return undefined;
  }
}

const exe = electronBinary();
// Electron needs better-sqlite3 built for its own ABI; that build lives beside Node's.
const native = exe ? ensureElectronSqlite(root) : undefined;
if (exe && native?.path) {
  const child = spawn(exe, [root, ...args], { stdio: 'inherit', env: { ...process.env, ZULIP_SQLITE_NATIVE: native.path } });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  console.log(exe ? `Electron is installed, but ${native?.error}: starting the browser-mode host instead.` : 'No Electron binary installed: starting the browser-mode host instead.');
  // Same process, same argv (`--sandbox`, `--port N`, `--data-dir DIR`): Ctrl-C reaches it directly.
  await import(pathToFileURL(join(out, 'main', 'browser-host.js')).href);
}
