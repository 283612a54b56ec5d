/**
 * Media besides uploads the engine fetches and keeps for the page (sync/protocol/media-paths.ts,
 * sync/uploads/cache.ts): images of other sites through the realm's image proxy, uploaded avatars,
 * Gravatar avatars, inline videos, link-preview images; and what stays out (another origin, an
 * unsigned-looking path, Zulip's default avatar).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { camoTarget, gravatarUrl } from '../../../sync/protocol/media-paths.js';
import { avatarPath, canonicalUploadPath, realmUploadPath, uploadSrc } from '../../../sync/protocol/uploads.js';
import { UploadCache, uploadImagePaths, type UploadFetcher } from '../../../sync/uploads/cache.js';

const REALM = 'https://chat.example.com';
const DIGEST = '56c362a24201593891955ff526b3b412c0f9fcd2';
const GOOGLE = 'https://www.google.com/images/srpr/logo4w.png';
const HEX = Buffer.from(GOOGLE).toString('hex');
const CAMO = `/external_content/${DIGEST}/${HEX}`;
const AVATAR = `/user_avatars/2/${'ab'.repeat(20)}.png`;

describe('which media paths the engine fetches', () => {
  it("another site's image through the realm's proxy: relative or absolute on the realm, canonical lower case", () => {
    expect(realmUploadPath(CAMO, REALM)).toBe(CAMO);
    expect(realmUploadPath(`${REALM}${CAMO}`, REALM)).toBe(CAMO);
    expect(realmUploadPath(CAMO.toUpperCase().replace('/EXTERNAL_CONTENT/', '/external_content/'), REALM)).toBe(CAMO);
    expect(camoTarget(CAMO)).toBe(GOOGLE);
    expect(uploadSrc(CAMO, false, 'k1')).toBe(`/uploads${CAMO}?k=k1`);
  });

  it('refuses a proxy on another origin, a broken digest or encoding, a query, and images straight from another site', () => {
    for (const src of [
      `https://external-content.zulipcdn.net${CAMO}`,
      `/external_content/${DIGEST.slice(1)}/${HEX}`,
      `/external_content/${DIGEST}/${HEX}a`,
      `/external_content/${DIGEST}/zz`,
      `/external_content/${DIGEST}/${HEX}/x`,
      `${CAMO}?size=full`,
      GOOGLE,
      '/thumbnail?url=https%3A%2F%2Fwww.google.com%2Fimages%2Fsrpr%2Flogo4w.png&size=thumbnail',
    ]) {
      expect(realmUploadPath(src, REALM), src).toBeUndefined();
    }
    expect(canonicalUploadPath(`/external_content/${DIGEST}/${'00'.repeat(2049)}`)).toBeUndefined();
  });

  it("a user's avatar: uploaded (its version query left off), or Gravatar's; Zulip's default image and other sites are none", () => {
    expect(avatarPath(`${AVATAR}?version=3`, REALM)).toBe(AVATAR);
    expect(avatarPath(`${REALM}${AVATAR.replace('.png', '-medium.png')}?version=3`, REALM)).toBe(AVATAR.replace('.png', '-medium.png'));
    const hash = 'c6b5578d4964bd9c5fae593c6868912a';
    expect(avatarPath(`https://secure.gravatar.com/avatar/${hash}?d=identicon&version=1`, REALM)).toBe(`/gravatar/${hash}`);
    expect(gravatarUrl(`/gravatar/${hash}`)).toBe(`https://secure.gravatar.com/avatar/${hash}?d=identicon&s=100`);
    expect(gravatarUrl(`/gravatar/${hash}`, 'http://127.0.0.1:9')).toBe(`http://127.0.0.1:9/avatar/${hash}?d=identicon&s=100`);
    for (const none of ['/static/images/default-avatar.png?version=1', 'https://elsewhere.example/a.png', `${AVATAR}?foo=1`, '/user_avatars/2/emoji/images/1.png', '/avatar/5', null, undefined, '']) {
      expect(avatarPath(none, REALM), String(none)).toBeUndefined();
    }
    // A message's <img> never names a Gravatar path of its own.
    expect(realmUploadPath(`/gravatar/${hash}`, REALM)).toBeUndefined();
  });

  it('rendered HTML: inline images, videos and link-preview images are fetched ahead', () => {
    const html =
      `<div class="message_inline_image"><a href="${GOOGLE}"><img src="${CAMO}"></a></div>` +
      '<div class="message_inline_image message_inline_video"><a href="/user_uploads/2/ab/v.mp4"><video preload="metadata" src="/user_uploads/2/ab/v.mp4"></video></a></div>' +
      `<div class="message_embed"><a class="message_embed_image" href="https://x.example/" style="background-image: url(&quot;/external_content/${'1'.repeat(40)}/6869&quot;)"></a></div>`;
    expect(uploadImagePaths(html, REALM)).toEqual([CAMO, '/user_uploads/2/ab/v.mp4', `/external_content/${'1'.repeat(40)}/6869`]);
  });
});

describe('the cache keeps them like uploads', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'media-cache-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('proxied images, avatars and inline videos are kept and served offline after a restart; other video types are not shown', async () => {
    const calls: string[] = [];
    const types: Record<string, string> = { [CAMO]: 'image/png', [AVATAR]: 'image/png', '/user_uploads/2/ab/v.mp4': 'video/mp4', '/user_uploads/2/ab/v.mov': 'video/quicktime' };
    const fetch: UploadFetcher = async (p) => {
      calls.push(p);
      return { status: 200, headers: { 'content-type': types[p] }, body: Buffer.from(p) };
    };
    let online = true;
    const cache = new UploadCache({ dir, fetch, online: () => online });
    for (const p of [CAMO, AVATAR, '/user_uploads/2/ab/v.mp4']) expect(await cache.get(p), p).toMatchObject({ kind: 'image', contentType: types[p], cached: false });
    expect(await cache.get('/user_uploads/2/ab/v.mov')).toMatchObject({ kind: 'not_found' });
    await cache.close();
    online = false;
    const again = new UploadCache({ dir, fetch, online: () => online });
    for (const p of [CAMO, AVATAR, '/user_uploads/2/ab/v.mp4']) expect(await again.get(p), p).toMatchObject({ kind: 'image', cached: true });
    expect(calls).toEqual([CAMO, AVATAR, '/user_uploads/2/ab/v.mp4', '/user_uploads/2/ab/v.mov']);
    await again.close();
  });
});
