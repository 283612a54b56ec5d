/**
 * The Electron build of better-sqlite3 kept beside Node's: the openers honour ZULIP_SQLITE_NATIVE,
 * and `npm start` builds the Electron copy once (node-gyp against Electron's headers) in a scratch
 * copy of the package, never over the Node build `npm test` uses.
 */
import type { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb } from '../../server/db/open.js';
import { openLocalDb } from '../../sync/db/open.js';
import { cachedBindingPath, ensureElectronSqlite, nodeGypArgs } from '../../scripts/electron-native.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const nodeBuild = path.join(root, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
const saved = { native: process.env['ZULIP_SQLITE_NATIVE'], gyp: process.env['npm_config_node_gyp'] };
const dirs: string[] = [];
function tmp(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'zulip-native-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const [k, v] of [['ZULIP_SQLITE_NATIVE', saved.native], ['npm_config_node_gyp', saved.gyp]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('ZULIP_SQLITE_NATIVE', () => {
  it('both openers load the addon it names', () => {
    const copy = path.join(tmp(), 'elsewhere.node');
    copyFileSync(nodeBuild, copy);
    process.env['ZULIP_SQLITE_NATIVE'] = copy;
    const a = openLocalDb(':memory:');
    expect(a.pragma('user_version', { simple: true })).toBeGreaterThan(0);
    a.close();
    openDb(undefined).close();
  });

  it('a missing addon fails loudly, naming it', () => {
    process.env['ZULIP_SQLITE_NATIVE'] = path.join(tmp(), 'missing.node');
    expect(() => openLocalDb(':memory:')).toThrow(/missing\.node/);
    expect(() => openDb(undefined)).toThrow(/missing\.node/);
  });
});

describe('ensureElectronSqlite', () => {
  function fakeRoot(): string {
    const r = tmp();
    mkdirSync(path.join(r, 'node_modules/better-sqlite3/src'), { recursive: true });
    writeFileSync(path.join(r, 'node_modules/better-sqlite3/binding.gyp'), '{}');
    mkdirSync(path.join(r, 'node_modules/better-sqlite3/build/Release'), { recursive: true });
    writeFileSync(path.join(r, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'), 'NODE BUILD');
    return r;
  }
  const quiet = () => undefined;

  it('reuses the kept build without compiling', () => {
    const r = fakeRoot();
    const kept = cachedBindingPath(r, '45.4.1');
    mkdirSync(path.dirname(kept), { recursive: true });
    writeFileSync(kept, 'ELECTRON BUILD');
    let runs = 0;
    const run = (() => {
      runs++;
      return { status: 0 };
    }) as unknown as typeof spawnSync;
    expect(ensureElectronSqlite(r, { version: '45.4.1', run, log: quiet })).toEqual({ path: kept });
    expect(runs).toBe(0);
  });

  it('compiles in a scratch copy against Electron headers, keeps the result, leaves the Node build alone', () => {
    const r = fakeRoot();
    process.env['npm_config_node_gyp'] = path.join(r, 'node_modules/better-sqlite3/binding.gyp'); // any existing file stands in
    const calls: { args: string[]; cwd: string; copiedBuild: boolean }[] = [];
    const run = ((_cmd: string, args: string[], o: { cwd: string }) => {
      calls.push({ args, cwd: o.cwd, copiedBuild: existsSync(path.join(o.cwd, 'build')) });
      mkdirSync(path.join(o.cwd, 'build/Release'), { recursive: true });
      writeFileSync(path.join(o.cwd, 'build/Release/better_sqlite3.node'), 'ELECTRON BUILD');
      return { status: 0 };
    }) as unknown as typeof spawnSync;
    const res = ensureElectronSqlite(r, { version: '45.4.1', run, log: quiet });
    expect(res.path).toBe(cachedBindingPath(r, '45.4.1'));
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args.slice(1)).toEqual(nodeGypArgs('45.4.1'));
    expect(calls[0]!.args).toContain('--runtime=electron');
    expect(calls[0]!.copiedBuild).toBe(false); // the Node build is not copied into the scratch folder
    expect(existsSync(calls[0]!.cwd)).toBe(false); // scratch removed
    expect(existsSync(path.join(r, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'))).toBe(true);
  });

  it('a failed compile is an error the caller can report, and nothing is kept', () => {
    const r = fakeRoot();
    process.env['npm_config_node_gyp'] = path.join(r, 'node_modules/better-sqlite3/binding.gyp');
    const run = (() => ({ status: 1 })) as unknown as typeof spawnSync;
    const res = ensureElectronSqlite(r, { version: '45.4.1', run, log: quiet });
    expect(res.error).toMatch(/failed/);
    expect(existsSync(cachedBindingPath(r, '45.4.1'))).toBe(false);
  });
});
