/**
 * Uploaded files of the realm (`/user_uploads/...`), as the page asks the host for them. Shared by
 * the renderer (rewriting `img src`), the engine's upload cache and both hosts, so all of them agree
 * on which paths name an upload; environment-neutral (WHATWG URL only).
 *
 * The realm serves uploads only to signed-in users (HTTP Basic with the API key, like Zulip's
 * `override_api_url_scheme`), so the page never loads them from the realm: it loads them from its
 * host, which fetches them with the account's credentials and keeps them for offline viewing.
 *
 *   browser-mode host   `/uploads` + the realm path, same origin as the page
 *   Electron            `zulip-upload://realm` + the realm path (a privileged custom scheme)
 */
import { UPLOAD_KEY_PARAM } from './browser-host.js';

/** The Electron scheme for uploads; the CSP's `img-src` names it. */
export const UPLOAD_SCHEME = 'zulip-upload';
/** Host part of the Electron URLs (a standard scheme needs one). */
export const UPLOAD_SCHEME_HOST = 'realm';
/** The browser-mode host's route prefix. */
export const UPLOAD_ROUTE_PREFIX = '/uploads';

const MAX_PATH_LENGTH = 1024;
const REALM_ID = /^\d{1,10}$/;

/**
 * The canonical realm-relative path (`/user_uploads/2/ab/cd/name.png`, each segment percent-encoded
 * once) that `src` names, or undefined when it is not an upload of this realm: another origin, a
 * query, `temporary/` links (they need no credentials and expire), anything that is not
 * `/user_uploads/<realm id>/<path>` or `/user_uploads/thumbnail/<realm id>/<path>/<format>`, and any
 * segment that is empty, `.`/`..` (also encoded) or hides a separator, NUL or backslash once decoded.
 * `src` may be relative (`/user_uploads/...`, `user_uploads/...`) or absolute on the realm's origin.
 */
export function realmUploadPath(src: string, realmUrl: string): string | undefined {
  let realm: URL;
  let url: URL;
  try {
    realm = new URL(realmUrl);
    // Relative links resolve against the realm's root (Zulip's own rendering writes `/user_uploads/...`).
    const base = realm.pathname.replace(/\/+$/, '');
    url = new URL(src.trim(), `${realm.origin}${base}/`);
    if (url.origin !== realm.origin) return undefined;
    const prefix = `${base}/user_uploads/`;
    if (url.search !== '' || !url.pathname.startsWith(prefix)) return undefined;
    return canonicalUploadPath(url.pathname.slice(base.length));
  } catch {
    return undefined;
  }
}

/**
 * `pathname` (raw, still percent-encoded, e.g. from a request line) as a canonical upload path, or
 * undefined. Unlike `realmUploadPath` nothing is resolved: a dot segment is refused, not followed.
 */
export function canonicalUploadPath(pathname: string): string | undefined {
  if (pathname.length > MAX_PATH_LENGTH || !pathname.startsWith('/user_uploads/')) return undefined;
  const raw = pathname.slice('/user_uploads/'.length).split('/');
  const segments: string[] = [];
  for (const r of raw) {
    let s: string;
    try {
      s = decodeURIComponent(r);
    } catch {
      return undefined;
    }
    if (s === '' || s === '.' || s === '..' || /[/\\\0]/.test(s)) return undefined;
    segments.push(s);
  }
  const thumbnail = segments[0] === 'thumbnail';
  const rest = thumbnail ? segments.slice(1) : segments;
  // <realm id>/<at least one path segment> (a thumbnail adds its format as the last one).
  if (!REALM_ID.test(rest[0] ?? '') || rest.length < (thumbnail ? 3 : 2)) return undefined;
  return `/user_uploads/${segments.map(encodeURIComponent).join('/')}`;
}

/**
 * Where the page loads an upload from: the custom scheme (Electron) or the host route (browser
 * mode), with the uploads key of the tab's host session (`?k=`: browser-host.ts) when it has one.
 */
export function uploadSrc(canonicalPath: string, electron: boolean, uploadKey?: string): string {
  if (electron) return `${UPLOAD_SCHEME}://${UPLOAD_SCHEME_HOST}${canonicalPath}`;
  return uploadKey === undefined ? `${UPLOAD_ROUTE_PREFIX}${canonicalPath}` : `${UPLOAD_ROUTE_PREFIX}${canonicalPath}?${UPLOAD_KEY_PARAM}=${uploadKey}`;
}
