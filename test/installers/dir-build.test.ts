/**
 * A real electron-builder run, offline: `electron-builder --linux dir` with electron-builder.yml,
 * a stand-in Electron distribution (no Electron binary can be downloaded here) and npmRebuild off
 * (no Electron headers offline; `npm run dist` does rebuild). A guard loaded into every Node
 * process of the run refuses any non-loopback connection. The packaged app.asar must hold the
 * built app and nothing of the sources, with better-sqlite3's addon unpacked beside it.
 * Needs out/ (electron-vite build): `npm test` builds before vitest runs.
 */
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { extractFile, listPackage, statFile } from '@electron/asar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './support.js';

const BUILD_TIMEOUT_MS = 120_000;
const GUARD = join(import.meta.dirname, 'no-network.mjs');
const MARKER = 'NO-NETWORK-GUARD: blocked connection to';
const BUILT = ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html'];
const ADDON = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';

const tmp = mkdtempSync(join(tmpdir(), 'dir-build-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Run {
  code: number | string | null;
  output: string;
}

/** Runs a command to completion (or the timeout), never rejecting: the test asserts on the result. */
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, timeout: number): Promise<Run> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd: ROOT, env, timeout, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : (err.signal ?? 'error');
      resolve({ code, output: `${stdout}\n${stderr}` });
    });
  });
}

/** This process's environment plus the guard; without VITEST*, which silences electron-builder's log. */
function guardedEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST')));
  return { ...env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${pathToFileURL(GUARD).href}`.trim() };
}

/** What electron-builder copies for linux: the `electron` executable (renamed to the app's), LICENSE and version. */
function standInElectron(dir: string): void {
  mkdirSync(join(dir, 'resources'), { recursive: true });
  writeFileSync(join(dir, 'electron'), '#!/bin/sh\necho "stand-in for the Electron binary"\n');
  chmodSync(join(dir, 'electron'), 0o755);
  writeFileSync(join(dir, 'version'), '45.4.1');
  writeFileSync(join(dir, 'LICENSE'), 'stand-in for the Electron license\n');
}

describe('the network guard used below', () => {
  it('refuses a connection to a non-loopback host', async () => {
    const r = await run(process.execPath, ['-e', "require('node:https').get('https://192.0.2.1/')"], guardedEnv(), 20_000);
    expect(r.code).not.toBe(0);
    expect(r.output).toContain(`${MARKER} 192.0.2.1:443`);
  });
});

describe('electron-builder --linux dir with a stand-in Electron', () => {
  const out = join(tmp, 'release');
  const appDir = join(out, 'linux-unpacked');
  const resources = join(appDir, 'resources');
  const asar = join(resources, 'app.asar');
  let build: Run;
  let seconds = 0;

  beforeAll(async () => {
    const missing = BUILT.filter((f) => !existsSync(join(ROOT, f)));
    if (missing.length > 0) throw new Error(`the built app is missing (${missing.join(', ')}): run \`npm run build\` first (npm test does)`);
    const dist = join(tmp, 'electron-dist');
    standInElectron(dist);
    const t0 = Date.now();
    build = await run(
      process.execPath,
      [
        join(ROOT, 'node_modules', 'electron-builder', 'cli.js'),
        '--linux',
        'dir',
        '--x64',
        '--publish',
        'never',
        `-c.electronDist=${dist}`,
        '-c.npmRebuild=false',
        `-c.directories.output=${out}`,
      ],
      guardedEnv(),
      BUILD_TIMEOUT_MS,
    );
    seconds = (Date.now() - t0) / 1000;
  }, BUILD_TIMEOUT_MS + 30_000);

  it('succeeds within the time limit without touching the network', () => {
    expect(build.output).not.toContain(MARKER);
    expect(build.code, build.output).toBe(0);
    expect(build.output).toContain('loaded configuration');
    expect(seconds).toBeLessThan(BUILD_TIMEOUT_MS / 1000);
  });

  it("writes electron-updater's app-update.yml (the placeholder feed, the cache folder's name) into resources", () => {
    const yml = readFileSync(join(resources, 'app-update.yml'), 'utf8');
    expect(yml).toContain('provider: generic');
    expect(yml).toContain('url: https://updates.invalid/zulip-offline');
    expect(yml).toMatch(/updaterCacheDirName: \S+/);
  });

  it('names the executable after linux.executableName and keeps the Electron license', () => {
    expect(statSync(join(appDir, 'zulip-offline')).mode & 0o111).not.toBe(0);
    expect(existsSync(join(appDir, 'LICENSE.electron.txt'))).toBe(true);
  });

  it('app.asar holds the built app and its production dependencies', () => {
    const files = new Set(listPackage(asar, { isPack: false }).map((f) => f.replace(/^\//, '')));
    for (const f of [...BUILT, 'package.json', 'node_modules/better-sqlite3/package.json', 'node_modules/zod/package.json']) {
      expect(files, f).toContain(f);
    }
    const pkg: unknown = JSON.parse(extractFile(asar, 'package.json').toString('utf8'));
    expect(pkg).toMatchObject({ main: 'out/main/index.js', type: 'module' });
  });

  it('app.asar holds no sources, tests, tooling or dev dependencies', () => {
    const files = listPackage(asar, { isPack: false }).map((f) => f.replace(/^\//, ''));
    const own = files.filter((f) => !f.startsWith('node_modules/'));
    const sourceDirs = /^(main|renderer|sync|server|host|test|scripts|bench|resources|eslint-rules|\.github|\.ci)(\/|$)/;
    expect(own.filter((f) => sourceDirs.test(f))).toEqual([]);
    expect(own.filter((f) => /\.(ts|tsx|map)$/.test(f) || /^(tsconfig|electron-builder|electron\.vite|vitest)/.test(f))).toEqual([]);
    const devOnly = /^node_modules\/(electron|electron-builder|app-builder-lib|vitest|vite|typescript|eslint|tsx|@playwright)\//;
    expect(files.filter((f) => devOnly.test(f))).toEqual([]);
    // better-sqlite3 ships its C sources for compiling; the app needs only the addon and lib/.
    expect(files.filter((f) => /^node_modules\/better-sqlite3\/(deps|src)\//.test(f))).toEqual([]);
  });

  it("better-sqlite3's addon is unpacked next to the asar, the same file npm built", () => {
    expect(statFile(asar, ADDON)).toMatchObject({ unpacked: true });
    const unpacked = join(`${asar}.unpacked`, ADDON);
    expect(existsSync(unpacked)).toBe(true);
    const bytes = readFileSync(unpacked);
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
    expect(bytes.equals(readFileSync(join(ROOT, ADDON)))).toBe(true);
  });
});
