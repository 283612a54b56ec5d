/**
 * electron-builder.yml: valid for electron-builder's own schema (its validateConfiguration, the
 * check every build runs first), and the platform sections the installers issue asks for.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DebugLogger } from 'builder-util';
import type { Configuration } from 'electron-builder';
import { validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { parsePlistFile, type PlistObject } from 'app-builder-lib/out/util/plist.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { LINK_SCHEME } from '../../main/links.js';
import { clone, filePatterns, loadConfig, ROOT, targetNames } from './support.js';

let config: Configuration;
beforeAll(async () => {
  config = await loadConfig();
});

// The schema validator coerces types in place: always hand it a copy.
const validate = (c: Configuration): Promise<void> => validateConfiguration(clone(c), new DebugLogger(false));

describe('electron-builder.yml against electron-builder 26 schema', () => {
  it('is accepted', async () => {
    await expect(validate(config)).resolves.toBeUndefined();
  });

  // Each breaks one thing a typo or a wrong value would; each must be refused, naming the place.
  const broken: Array<[string, (c: Record<string, unknown>) => void, RegExp]> = [
    ['a misspelt top-level option', (c) => (c.asarUnpak = c.asarUnpack), /asarUnpak/],
    ['an unknown macOS target', (c) => (c.mac = { ...(c.mac as object), target: ['dmg', 'dmgg'] }), /configuration\.mac/],
    ['a non-boolean NSIS option', (c) => (c.nsis = { ...(c.nsis as object), oneClick: 'sometimes' }), /oneClick/],
    ['an option in the wrong section', (c) => (c.linux = { ...(c.linux as object), hardenedRuntime: true }), /configuration\.linux\b/],
  ];
  for (const [name, breakIt, where] of broken) {
    it(`rejects ${name}`, async () => {
      const copy: Record<string, unknown> = { ...clone(config) };
      breakIt(copy);
      await expect(validateConfiguration(copy, new DebugLogger(false))).rejects.toThrow(where);
    });
  }
});

describe('installer sections', () => {
  it('names the app and keeps sources out of the package', () => {
    expect(config.appId).toMatch(/^[a-z][a-z0-9-]*(\.[a-z0-9-]+){2,}$/);
    expect(config.productName).toBeTruthy();
    expect(config.directories).toMatchObject({ output: 'release', buildResources: 'resources' });
    const patterns = filePatterns(config.files);
    expect(patterns).toEqual(expect.arrayContaining(['out/**/*', 'package.json']));
    // No catch-all pattern: only what is listed is packaged.
    expect(patterns).not.toContain('**/*');
    expect(config.asarUnpack).toEqual(expect.arrayContaining([expect.stringMatching(/better-sqlite3.*\.node$/)]));
    expect(config.artifactName).not.toMatch(/\s/);
    // The generic feed only makes electron-builder write latest*.yml and app-update.yml; its URL is a
    // placeholder that never resolves (the feed is the user's setting, main/updater.ts).
    expect(config.publish).toEqual([{ provider: 'generic', url: 'https://updates.invalid/zulip-offline' }]);
  });

  it('rebuilds native modules for Electron when packaging', () => {
    expect(config.npmRebuild).toBe(true);
    expect(config.buildDependenciesFromSource).toBe(true);
  });

  it('registers the zulip: scheme main opens links of (main/links.ts)', () => {
    const protocols = [config.protocols ?? []].flat();
    expect(protocols.flatMap((p) => p.schemes)).toEqual([LINK_SCHEME]);
  });

  it('macOS: dmg and zip, hardened runtime, entitlements that Electron needs', async () => {
    const mac = config.mac;
    expect(targetNames(mac?.target).sort()).toEqual(['dmg', 'zip']);
    expect(mac?.hardenedRuntime).toBe(true);
    expect(mac?.category).toMatch(/^public\.app-category\./);
    for (const file of [mac?.entitlements, mac?.entitlementsInherit]) {
      expect(file).toBeTruthy();
      const plist = await parsePlistFile<PlistObject>(join(ROOT, String(file)));
      expect(plist).toMatchObject({
        'com.apple.security.cs.allow-jit': true,
        'com.apple.security.cs.allow-unsigned-executable-memory': true,
        'com.apple.security.network.client': true,
      });
      // Signing with an opt-out of library validation would let any dylib load into the app.
      expect(plist['com.apple.security.cs.disable-library-validation']).toBeUndefined();
    }
  });

  it('Windows: an NSIS installer that never deletes app data', () => {
    expect(targetNames(config.win?.target)).toEqual(['nsis']);
    expect(config.nsis).toMatchObject({ oneClick: false, perMachine: false, deleteAppDataOnUninstall: false });
  });

  it('Linux: AppImage and deb with category, maintainer and synopsis', () => {
    const linux = config.linux;
    expect(targetNames(linux?.target).sort()).toEqual(['AppImage', 'deb']);
    expect(linux?.category).toBe('Network;Chat');
    // Set here, so the deb never falls back to package.json's author email (there is none).
    expect(linux?.maintainer).toBe('Zulip Offline contributors');
    expect(linux?.synopsis).toBeTruthy();
    expect(linux?.executableName).toMatch(/^[a-z0-9-]+$/);
  });

  it('platform icons point at files in resources/', () => {
    for (const icon of [config.mac?.icon, config.win?.icon, config.linux?.icon]) {
      expect(icon).toBeTruthy();
      expect(existsSync(join(ROOT, 'resources', String(icon)))).toBe(true);
    }
  });

  it('package.json: npm run dist, and an author name (Windows company name, copyright)', () => {
    const pkg: unknown = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({
      main: 'out/main/index.js',
      author: { name: 'Zulip Offline contributors' },
      scripts: { dist: 'electron-vite build && electron-builder' },
    });
  });

  it('no placeholder addresses or ids: the app has no domain or home page of its own', () => {
    for (const file of ['package.json', 'electron-builder.yml', '.github/workflows/release.yml']) {
      expect(readFileSync(join(ROOT, file), 'utf8')).not.toMatch(/example\.(org|com|net)|org\.example|maintainers@/);
    }
    expect(config.appId).toBe('com.electron.zulip-offline-desktop');
  });
});
