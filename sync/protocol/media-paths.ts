/**
 * The realm's media the engine fetches for the page besides uploads and custom emoji
 * (uploads.ts decides with these): images from other sites through the realm's image proxy,
 * users' avatars on the realm, and Gravatar avatars. Environment-neutral (WHATWG URL only).
 *
 *   /external_content/<HMAC-SHA1 hex>/<hex of the URL>   Zulip's camo proxy on the realm's origin
 *       (`CAMO_URI`'s default): Zulip renders every image of another site through it
 *   /user_avatars/<realm id>/<40 hex>[-medium].png        an uploaded avatar (local storage); its
 *       `?version=N` is left off: the file name already changes with the version
 *   /gravatar/<md5 or sha256 hex>                         a Gravatar avatar: not the realm's; the
 *       engine fetches `https://secure.gravatar.com/avatar/<hash>` without the realm's credentials
 */

export const CAMO_PREFIX = '/external_content/';
export const GRAVATAR_PREFIX = '/gravatar/';
export const GRAVATAR_ORIGIN = 'https://secure.gravatar.com';

/** A camo digest is 40 hex digits; the URL at most 2 KiB (hex: 4 KiB). */
const CAMO_PATH = /^\/external_content\/([0-9a-f]{40})\/((?:[0-9a-f]{2}){1,2048})$/i;
const AVATAR_PATH = /^\/user_avatars\/(\d{1,10})\/([0-9a-f]{40})(-medium)?\.png$/i;
const GRAVATAR_PATH = /^\/gravatar\/([0-9a-f]{32}|[0-9a-f]{64})$/i;

/** `/external_content/<digest>/<hex>`, lower-cased, or undefined. */
export function canonicalCamoPath(pathname: string): string | undefined {
  return CAMO_PATH.test(pathname) ? pathname.toLowerCase() : undefined;
}

/** The URL a camo path proxies (for an image's text), or undefined. */
export function camoTarget(canonicalPath: string): string | undefined {
  const m = CAMO_PATH.exec(canonicalPath);
  if (!m) return undefined;
  const bytes = new Uint8Array(m[2]!.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(m[2]!.slice(i * 2, i * 2 + 2), 16);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** An uploaded avatar's path (`/user_avatars/<realm>/<hash>.png`), lower-cased, or undefined. */
export function canonicalAvatarPath(pathname: string): string | undefined {
  return AVATAR_PATH.test(pathname) ? pathname.toLowerCase() : undefined;
}

export function canonicalGravatarPath(pathname: string): string | undefined {
  return GRAVATAR_PATH.test(pathname) ? pathname.toLowerCase() : undefined;
}

/** Where the engine fetches a canonical Gravatar path (`origin`: tests pass a loopback one). */
export function gravatarUrl(canonicalPath: string, origin = GRAVATAR_ORIGIN): string {
  return `${origin}/avatar/${canonicalPath.slice(GRAVATAR_PREFIX.length)}?d=identicon&s=100`;
}

/**
 * A Gravatar URL as Zulip writes a user's `avatar_url`
 * (`https://secure.gravatar.com/avatar/<hash>?d=identicon&version=N`) as its canonical path.
 */
export function gravatarPath(src: string): string | undefined {
  try {
    const url = new URL(src);
    if (url.origin !== GRAVATAR_ORIGIN) return undefined;
    const m = /^\/avatar\/([0-9a-fA-F]+)$/.exec(url.pathname);
    return m ? canonicalGravatarPath(`${GRAVATAR_PREFIX}${m[1]!}`) : undefined;
  } catch {
    return undefined;
  }
}

/** A query an avatar may carry (`?version=N`, `&s=N`): the path alone names the image. */
export const avatarQueryOk = (search: string) => /^(?:\?(?:version|s)=\d{1,9}(?:&(?:version|s)=\d{1,9})?)?$/.test(search);
