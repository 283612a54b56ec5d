/**
 * better-sqlite3 built for Electron, kept BESIDE Node's build instead of over it: `npm start`
 * under Electron loads it through `ZULIP_SQLITE_NATIVE` (sync/db/open.ts, server/db/open.ts), and
 * `npm test` keeps using the package's own Node build, so switching between the two never means a
 * rebuild. Packaged apps do not need this (electron-builder rebuilds the module for Electron).
 *
 *   node_modules/.cache/zulip-electron-native/<electron version>-<arch>/better_sqlite3.node
 *
 * Built once per Electron version: the package sources are copied to a scratch folder and
 * compiled there with npm's node-gyp against Electron's headers (downloaded once by node-gyp).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function electronVersion(root) {
  return JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
}

export function cachedBindingPath(root, version, arch = process.arch) {
  return join(root, 'node_modules', '.cache', 'zulip-electron-native', `${version}-${arch}`, 'better_sqlite3.node');
}

/** node-gyp's arguments for an Electron build of the addon. */
export function nodeGypArgs(version, arch = process.arch) {
  return ['rebuild', '--release', `--target=${version}`, `--arch=${arch}`, '--runtime=electron', '--dist-url=https://electronjs.org/headers'];
}

/** npm's own node-gyp (npm sets npm_config_node_gyp for scripts; else next to the running node). */
export function nodeGypScript(env = process.env, execPath = process.execPath) {
  const candidates = [env.npm_config_node_gyp, join(dirname(execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js')];
  return candidates.find((c) => c && existsSync(c));
}

/**
 * The Electron build's path, building it when missing. Returns `{ path }` or `{ error }` (the
 * caller says what went wrong and falls back to the browser-mode host); `run` is injectable for tests.
 */
export function ensureElectronSqlite(root, { version = electronVersion(root), run = spawnSync, log = console.log } = {}) {
  const target = cachedBindingPath(root, version);
  if (existsSync(target)) return { path: target };
  const gyp = nodeGypScript();
  if (!gyp) return { error: "npm's node-gyp was not found, so better-sqlite3 cannot be built for Electron" };
  const scratch = join(dirname(target), 'src');
  rmSync(scratch, { recursive: true, force: true });
  const pkg = join(root, 'node_modules', 'better-sqlite3');
  cpSync(pkg, scratch, { recursive: true, filter: (src) => !src.startsWith(join(pkg, 'build')) });
  log(`Building better-sqlite3 for Electron ${version} (once; kept in ${dirname(target)})...`);
  const r = run(process.execPath, [gyp, ...nodeGypArgs(version)], { cwd: scratch, stdio: 'inherit' });
  const built = join(scratch, 'build', 'Release', 'better_sqlite3.node');
  if (r.status !== 0 || !existsSync(built)) return { error: `building better-sqlite3 for Electron ${version} failed (exit ${r.status ?? r.signal})` };
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(built, target);
  rmSync(scratch, { recursive: true, force: true });
  return { path: target };
}
