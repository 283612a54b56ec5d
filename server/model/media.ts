/**
 * Images of other sites through the realm's image proxy, and uploaded avatars, as Zulip serves them
 * (docs/zulip-behaviour.md "Images, avatars, videos and link previews").
 *
 * - Zulip rewrites every image of another site in rendered HTML to its camo proxy on the realm's
 *   origin (`CAMO_URI` defaults to `/external_content/`): `/external_content/<HMAC-SHA1 hex of the
 *   URL under CAMO_KEY>/<hex of the URL>`, so readers' browsers never ask the other site.
 * - An uploaded avatar (local storage) is `/user_avatars/<realm id>/<hash>.png?version=N`, the hash
 *   taken over the user id, the avatar version and a server secret (so a new version is a new file).
 *   Users without one get Zulip's default image with Gravatar off (`/static/images/default-avatar.png`).
 *
 * The camo key and which users have an uploaded avatar are kept in `realm_settings` under names
 * starting with `_`, which no client ever sees.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { avatarPng } from '../demo/emoji-images.js';
import type { ServerState } from '../state.js';
import { REALM_ID } from './uploads.js';

const CAMO_KEY = '_camo_key';
const AVATARS = '_uploaded_avatars';

function internal(srv: ServerState, name: string): unknown {
  const raw = srv.db.prepare('SELECT value FROM realm_settings WHERE name = ?').pluck().get(name) as string | undefined;
  return raw === undefined ? undefined : JSON.parse(raw);
}

function setInternal(srv: ServerState, name: string, value: unknown): void {
  srv.db.prepare('INSERT INTO realm_settings (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value').run(name, JSON.stringify(value));
}

const camoKeys = new WeakMap<ServerState, string>();

/** The server's camo key: made once, kept, so rendered messages stay valid across restarts. */
export function camoKey(srv: ServerState): string {
  const known = camoKeys.get(srv);
  if (known !== undefined) return known;
  const kept = internal(srv, CAMO_KEY);
  if (typeof kept === 'string') {
    camoKeys.set(srv, kept);
    return kept;
  }
  // Remembered only once read back: a transaction that made it may still roll back.
  const key = randomBytes(20).toString('hex');
  setInternal(srv, CAMO_KEY, key);
  return key;
}

export const camoDigest = (key: string, url: string) => createHmac('sha1', key).update(url, 'utf8').digest('hex');

/** Zulip's `get_camo_url`: the proxied path of an image of another site (relative: the realm's origin). */
export function camoPath(srv: ServerState, url: string): string {
  return `/external_content/${camoDigest(camoKey(srv), url)}/${Buffer.from(url, 'utf8').toString('hex')}`;
}

/** The URL a camo path names when its digest is right; undefined for a bad digest or encoding. */
export function verifyCamo(srv: ServerState, digest: string, hex: string): string | undefined {
  if (!/^[0-9a-f]{40}$/i.test(digest) || !/^(?:[0-9a-f]{2})+$/i.test(hex)) return undefined;
  const url = Buffer.from(hex, 'hex').toString('utf8');
  const want = Buffer.from(camoDigest(camoKey(srv), url), 'hex');
  return timingSafeEqual(want, Buffer.from(digest, 'hex')) ? url : undefined;
}

/** Who has an uploaded avatar, read once per server (register and message fetches ask per user). */
const avatarUsersKept = new WeakMap<ServerState, ReadonlySet<number>>();

function avatarUsers(srv: ServerState): ReadonlySet<number> {
  let ids = avatarUsersKept.get(srv);
  if (!ids) {
    const v = internal(srv, AVATARS);
    ids = new Set(Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : []);
    avatarUsersKept.set(srv, ids);
  }
  return ids;
}

/** Give a user an uploaded avatar (the demo realm's few). */
export function setUploadedAvatar(srv: ServerState, userId: number): void {
  const ids = new Set(avatarUsers(srv)).add(userId);
  setInternal(srv, AVATARS, [...ids]);
  avatarUsersKept.set(srv, ids);
}

export const hasUploadedAvatar = (srv: ServerState, userId: number) => avatarUsers(srv).has(userId);

function avatarHash(srv: ServerState, userId: number, version: number): string {
  return createHash('sha256').update(`${userId}:${version}:${camoKey(srv)}`).digest('hex').slice(0, 40);
}

/** A user's `avatar_url`: the uploaded avatar's path, or Zulip's default image (Gravatar off). */
export function avatarUrlOf(srv: ServerState, u: { id: number; avatar_version: number }): string {
  if (!hasUploadedAvatar(srv, u.id)) return `/static/images/default-avatar.png?version=${u.avatar_version}`;
  return `/user_avatars/${REALM_ID}/${avatarHash(srv, u.id, u.avatar_version)}.png?version=${u.avatar_version}`;
}

const TONES: ReadonlyArray<readonly [number, number, number]> = [
  [0x3b, 0x6e, 0xa8],
  [0x8a, 0x4f, 0x9e],
  [0x2e, 0x7d, 0x5b],
  [0xb0, 0x5a, 0x2b],
];

/** The PNG `/user_avatars/<realm>/<file>` names (`<hash>.png` or `<hash>-medium.png`), if any. */
export function avatarImage(srv: ServerState, file: string): Buffer | undefined {
  const m = /^([0-9a-f]{40})(?:-medium)?\.png$/.exec(file);
  if (!m) return undefined;
  const version = srv.db.prepare('SELECT avatar_version FROM users WHERE id = ?').pluck();
  const id = [...avatarUsers(srv)].find((u) => avatarHash(srv, u, version.get(u) as number) === m[1]);
  return id === undefined ? undefined : avatarPng(TONES[id % TONES.length]!);
}
