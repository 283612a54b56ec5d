/** The browser host's default data directory per platform, and where it finds the built renderer. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDataDir, defaultRendererDir } from '../../host/browser/paths.js';

describe('browser host paths', () => {
  it('uses XDG_DATA_HOME on Linux, ~/.local/share without it or when it is relative', () => {
    expect(defaultDataDir({ XDG_DATA_HOME: '/xdg' }, 'linux', '/home/u')).toBe(path.join('/xdg', 'zulip-offline-desktop'));
    expect(defaultDataDir({}, 'linux', '/home/u')).toBe(path.join('/home/u', '.local', 'share', 'zulip-offline-desktop'));
    expect(defaultDataDir({ XDG_DATA_HOME: 'rel' }, 'linux', '/home/u')).toBe(path.join('/home/u', '.local', 'share', 'zulip-offline-desktop'));
  });

  it('keeps apart from Electron userData on macOS and Windows', () => {
    expect(defaultDataDir({}, 'darwin', '/Users/u')).toBe(path.join('/Users/u', 'Library', 'Application Support', 'zulip-offline-desktop', 'browser-host'));
    expect(defaultDataDir({ APPDATA: '/appdata' }, 'win32', '/home/u')).toBe(path.join('/appdata', 'zulip-offline-desktop', 'browser-host'));
  });

  it('finds out/renderer beside the bundle (out/main) or from the sources (host/browser)', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'zod-paths-'));
    try {
      expect(defaultRendererDir(path.join(root, 'out', 'main'))).toBeUndefined();
      mkdirSync(path.join(root, 'out', 'renderer'), { recursive: true });
      writeFileSync(path.join(root, 'out', 'renderer', 'index.html'), '');
      expect(defaultRendererDir(path.join(root, 'out', 'main'))).toBe(path.join(root, 'out', 'renderer'));
      expect(defaultRendererDir(path.join(root, 'host', 'browser'))).toBe(path.join(root, 'out', 'renderer'));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
