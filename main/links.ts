/**
 * Pure: links the operating system hands the app (`open-url` on macOS, a second launch's argv on
 * Windows and Linux). Two kinds are accepted, anything else refused (null):
 *   zulip://chat.example.com/#narrow/channel/3-Verona   the realm by host (and port, and path)
 *   https://chat.example.com/#narrow/channel/3-Verona   the realm's own web URL (http too)
 * The fragment, when there is one, must be a Zulip web narrow (`#narrow/...`); any other fragment
 * is dropped (the realm opens on its home view). No credentials, query or odd characters, at most
 * MAX_LINK characters. Which account a link belongs to is `realmMatches` against its realm URL.
 */

export const LINK_SCHEME = 'zulip';
const MAX_LINK = 2000;

export interface AppLink {
  /** The realm's host with its port (`chat.example.com`, `127.0.0.1:9991`). */
  readonly host: string;
  /** The realm's path (`/` for most). */
  readonly path: string;
  /** `#narrow/...`, or null for the realm's home view. */
  readonly hash: string | null;
  /** What the sign-in screen is filled with when no account is on this realm. */
  readonly serverUrl: string;
}

const trimSlash = (p: string) => p.replace(/\/+$/, '');

export function parseLink(raw: string): AppLink | null {
  if (typeof raw !== 'string' || raw.length > MAX_LINK || /[\s\u0000-\u001f]/.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  const scheme = url.protocol.slice(0, -1);
  if (scheme !== LINK_SCHEME && scheme !== 'https' && scheme !== 'http') return null;
  // Non-special schemes (zulip:) parse an authority only after `//`; no host means malformed.
  if (url.hostname === '' || url.username !== '' || url.password !== '' || url.search !== '') return null;
  const hash = url.hash.startsWith('#narrow/') && url.hash.length > '#narrow/'.length ? url.hash : null;
  const path = trimSlash(url.pathname) === '' ? '/' : url.pathname;
  // A zulip: link names no scheme for the server: https, as a person would type it.
  const web = scheme === LINK_SCHEME ? 'https' : scheme;
  return { host: url.host, path, hash, serverUrl: `${web}://${url.host}${path === '/' ? '' : trimSlash(path)}` };
}

/** The first argument of a launch that is a link (Electron puts its own switches around it). */
export function linkFromArgv(argv: readonly string[]): AppLink | null {
  for (const a of argv) {
    if (a.startsWith('-')) continue;
    const link = a.startsWith(`${LINK_SCHEME}:`) || /^https?:/.test(a) ? parseLink(a) : null;
    if (link) return link;
  }
  return null;
}

/** Whether `link` points into the realm at `realmUrl` (same host and port, same path). */
export function realmMatches(link: AppLink, realmUrl: string): boolean {
  try {
    const r = new URL(realmUrl);
    return r.host === link.host && trimSlash(r.pathname) === trimSlash(link.path);
  } catch {
    return false;
  }
}
