/**
 * Where the browser-mode host keeps its data and finds the built renderer by default.
 *
 * Data: the platform's per-user data directory. On Linux that is `$XDG_DATA_HOME` (default
 * `~/.local/share`), apart from Electron's `~/.config/<app>`; on macOS and Windows Electron's
 * userData is `<Application Support | %APPDATA%>/<app>` itself, so the browser host takes a
 * `browser-host` folder inside it: its keys are stored differently (plain file, with consent) and
 * the two hosts must not read each other's account lists.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

export const APP_DIR_NAME = 'zulip-offline-desktop';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = homedir()): string {
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', APP_DIR_NAME, 'browser-host');
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), APP_DIR_NAME, 'browser-host');
  const xdg = env.XDG_DATA_HOME;
  // The XDG spec: a relative XDG_DATA_HOME is invalid and must be ignored.
  const base = xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(home, '.local', 'share');
  return path.join(base, APP_DIR_NAME);
}

/**
 * The built renderer next to this code: `out/renderer` beside the bundled `out/main/browser-host.js`,
 * or the repository's `out/renderer` when running from source (`host/browser/cli.ts` under tsx).
 */
export function defaultRendererDir(here: string): string | undefined {
  const candidates = [path.resolve(here, '..', 'renderer'), path.resolve(here, '..', '..', 'out', 'renderer')];
  return candidates.find((d) => existsSync(path.join(d, 'index.html')));
}
