/**
 * Uploaded files of the realm (`/user_uploads/...`, and custom emoji images under
 * `/user_avatars/<realm>/emoji/images/`), and the media of media-paths.ts (images of other sites
 * through the realm's proxy, avatars), as the page asks the host for them. Shared by
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
import { avatarQueryOk, canonicalAvatarPath, canonicalCamoPath, canonicalGravatarPath, CAMO_PREFIX, GRAVATAR_PREFIX, gravatarPath } from './media-paths.js';

/** The Electron scheme for uploads; the CSP's `img-src` names it. */
export const UPLOAD_SCHEME = 'zulip-upload';
/** Host part of the Electron URLs (a standard scheme needs one). */
export const UPLOAD_SCHEME_HOST = 'realm';
/** The browser-mode host's route prefix. */
export const UPLOAD_ROUTE_PREFIX = '/uploads';
/** `?download=1` on the host route: any file, saved as an attachment. */
export const DOWNLOAD_PARAM = 'download';

/** A canonical upload path's file name (its last segment, decoded). */
export function uploadFileName(canonicalPath: string): string {
  return decodeURIComponent(canonicalPath.slice(canonicalPath.lastIndexOf('/') + 1));
}

/** `Content-Disposition` saving a file as `name` (RFC 6266: an ASCII fallback and the UTF-8 name). */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}


const MAX_PATH_LENGTH = 1024;
const REALM_ID = /^\d{1,10}$/;
/** Where Zulip's local storage serves custom emoji (they are fetched and cached like uploads). */
const EMOJI_PREFIX = '/user_avatars/';

/**
 * The canonical realm-relative path (`/user_uploads/2/ab/cd/name.png`, each segment percent-encoded
 * once) that `src` names, or undefined when it is not an upload of this realm: another origin, a
 * query, `temporary/` links (they need no credentials and expire), anything that is not
 * `/user_uploads/<realm id>/<path>` or `/user_uploads/thumbnail/<realm id>/<path>/<format>`, and any
 * segment that is empty, `.`/`..` (also encoded) or hides a separator, NUL or backslash once decoded.
 * `src` may be relative (`/user_uploads/...`, `user_uploads/...`) or absolute on the realm's origin.
 * A custom emoji's image (`canonicalEmojiPath`), an image of another site through the realm's
 * proxy and a user's uploaded avatar (its `?version=` left off) count as uploads too (media-paths.ts).
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
    if (!url.pathname.startsWith(`${base}/`)) return undefined;
    const rel = url.pathname.slice(base.length);
    if (!(rel.startsWith('/user_uploads/') || rel.startsWith(EMOJI_PREFIX) || rel.startsWith(CAMO_PREFIX))) return undefined;
    if (url.search !== '' && !(avatarQueryOk(url.search) && canonicalAvatarPath(rel) !== undefined)) return undefined;
    return canonicalUploadPath(rel);
  } catch {
    return undefined;
  }
}

/**
 * `pathname` (raw, still percent-encoded, e.g. from a request line) as a canonical upload path, or
 * undefined. Unlike `realmUploadPath` nothing is resolved: a dot segment is refused, not followed.
 */
export function canonicalUploadPath(pathname: string): string | undefined {
  if (pathname.startsWith(CAMO_PREFIX)) return canonicalCamoPath(pathname);
  if (pathname.startsWith(GRAVATAR_PREFIX)) return canonicalGravatarPath(pathname);
  if (pathname.startsWith(EMOJI_PREFIX)) return canonicalEmojiPath(pathname) ?? canonicalAvatarPath(pathname);
  if (pathname.length > MAX_PATH_LENGTH || !pathname.startsWith('/user_uploads/')) return undefined;
  const segments = pathSegments(pathname.slice('/user_uploads/'.length));
  if (segments === undefined) return undefined;
  const thumbnail = segments[0] === 'thumbnail';
  const rest = thumbnail ? segments.slice(1) : segments;
  // <realm id>/<at least one path segment> (a thumbnail adds its format as the last one).
  if (!REALM_ID.test(rest[0] ?? '') || rest.length < (thumbnail ? 3 : 2)) return undefined;
  return `/user_uploads/${segments.map(encodeURIComponent).join('/')}`;
}

/** The decoded segments of `raw` (still percent-encoded); undefined when one is empty, a dot segment, or hides a separator, NUL or backslash. */
function pathSegments(raw: string): string[] | undefined {
  const segments: string[] = [];
  for (const r of raw.split('/')) {
    let s: string;
    try {
      s = decodeURIComponent(r);
    } catch {
      return undefined;
    }
    if (s === '' || s === '.' || s === '..' || /[/\\\0]/.test(s)) return undefined;
    segments.push(s);
  }
  return segments;
}

/**
 * A custom emoji's image as Zulip's local storage serves it (its `source_url`):
 * `/user_avatars/<realm id>/emoji/images/<file>`, or `.../emoji/images/still/<file>` (an animated
 * one's still frame); nothing else under `/user_avatars` (not the users' avatars).
 */
function canonicalEmojiPath(pathname: string): string | undefined {
  if (pathname.length > MAX_PATH_LENGTH) return undefined;
  const segments = pathSegments(pathname.slice(EMOJI_PREFIX.length));
  if (segments === undefined || !REALM_ID.test(segments[0] ?? '') || segments[1] !== 'emoji' || segments[2] !== 'images') return undefined;
  const rest = segments.slice(3);
  if (!(rest.length === 1 || (rest.length === 2 && rest[0] === 'still'))) return undefined;
  return `${EMOJI_PREFIX}${segments.map(encodeURIComponent).join('/')}`;
}

/**
 * A user's `avatar_url` (relative or absolute on the realm, or Gravatar's) as the canonical path the
 * engine fetches and keeps, or undefined: no avatar of its own (Zulip's default image, another
 * site), so the page shows initials.
 */
export function avatarPath(avatarUrl: string | null | undefined, realmUrl: string): string | undefined {
  if (!avatarUrl) return undefined;
  const p = realmUploadPath(avatarUrl, realmUrl);
  return p !== undefined && canonicalAvatarPath(p) !== undefined ? p : gravatarPath(avatarUrl);
}

/**
 * Where the page loads an upload from: the custom scheme (Electron) or the host route (browser
 * mode), with the uploads key of the tab's host session (`?k=`: browser-host.ts) when it has one.
 */
export function uploadSrc(canonicalPath: string, electron: boolean, uploadKey?: string): string {
  if (electron) return `${UPLOAD_SCHEME}://${UPLOAD_SCHEME_HOST}${canonicalPath}`;
  return uploadKey === undefined ? `${UPLOAD_ROUTE_PREFIX}${canonicalPath}` : `${UPLOAD_ROUTE_PREFIX}${canonicalPath}?${UPLOAD_KEY_PARAM}=${uploadKey}`;
}

/** Browser mode: where a click on a file link downloads it from (the host route, as an attachment). */
export function uploadDownloadUrl(canonicalPath: string, uploadKey?: string): string {
  const src = uploadSrc(canonicalPath, false, uploadKey);
  return `${src}${src.includes('?') ? '&' : '?'}${DOWNLOAD_PARAM}=1`;
}
