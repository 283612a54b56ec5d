/**
 * The upload cache (sync/uploads/cache.ts) with a fake realm: which paths are uploads, what is kept
 * (images only, within the size bounds, least recently used evicted first), what is served from
 * disk offline and after a restart, and that no path ever reaches the disk or the realm unchecked.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { attachmentDisposition, canonicalUploadPath, realmUploadPath, uploadDownloadUrl, uploadFileName, uploadSrc } from '../../../sync/protocol/uploads.js';
import { UploadCache, uploadImagePaths, type FetchedFile, type UploadFetcher } from '../../../sync/uploads/cache.js';

const REALM = 'https://chat.example.com';
const png = (n: number, fill = 1) => Buffer.alloc(n, fill);

/** A realm answering from a table; every request recorded. */
function fakeRealm(files: Record<string, Partial<FetchedFile> | Error>) {
  const calls: string[] = [];
  const fetch: UploadFetcher = async (p, opts) => {
    calls.push(p);
    const f = files[p];
    if (f instanceof Error) throw f;
    if (!f) return { status: 404, headers: { 'content-type': 'application/json' }, body: Buffer.from('{}') };
    const body = f.body ?? png(10);
    if (body.length > opts.maxResponseBytes) throw Object.assign(new Error('too large'), { kind: 'malformed' });
    return { status: f.status ?? 200, headers: f.headers ?? { 'content-type': 'image/png' }, body };
  };
  return { fetch, calls };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'upload-cache-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('which paths are realm uploads', () => {
  it('relative and absolute on the realm, thumbnails too; canonical encoding', () => {
    expect(realmUploadPath('/user_uploads/2/ab/cd/pic.png', REALM)).toBe('/user_uploads/2/ab/cd/pic.png');
    expect(realmUploadPath('user_uploads/2/ab/cd/pic.png', REALM)).toBe('/user_uploads/2/ab/cd/pic.png');
    expect(realmUploadPath(`${REALM}/user_uploads/2/ab/my%20pic.png#x`, REALM)).toBe('/user_uploads/2/ab/my%20pic.png');
    expect(realmUploadPath('/user_uploads/2/ab/my pic.png', REALM)).toBe('/user_uploads/2/ab/my%20pic.png');
    expect(realmUploadPath('/user_uploads/thumbnail/2/ab/cd/pic.png/840x560.webp', REALM)).toBe('/user_uploads/thumbnail/2/ab/cd/pic.png/840x560.webp');
    // A realm under a path prefix.
    expect(realmUploadPath('https://example.org/chat/user_uploads/2/a/b.png', 'https://example.org/chat')).toBe('/user_uploads/2/a/b.png');
  });

  it('refuses other origins, queries, temporary links, non-upload paths and traversal', () => {
    for (const src of [
      'https://evil.example/user_uploads/2/a/b.png',
      'http://chat.example.com/user_uploads/2/a/b.png', // another scheme is another origin
      'https://chat.example.com:8443/user_uploads/2/a/b.png',
      '/user_uploads/2/a/b.png?x=1',
      '/user_uploads/temporary/tok/b.png',
      '/user_uploads/2',
      '/user_uploads/thumbnail/2/a.png',
      '/user_uploads/x/a/b.png',
      '/static/images/loader.svg',
      '/user_uploads/../api/v1/users',
      '/user_uploads/2/%2e%2e/%2e%2e/api/v1/users',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      '',
    ]) {
      expect(realmUploadPath(src, REALM), src).toBeUndefined();
    }
  });

  it('a raw request path: dot segments, hidden separators, NUL and bad escapes are refused, not resolved', () => {
    for (const p of ['/user_uploads/2/../../etc/passwd', '/user_uploads/2/%2e%2e/x', '/user_uploads/2/a%2Fb/c', '/user_uploads/2/a%5Cb', '/user_uploads/2/a%00b', '/user_uploads/2//b', '/user_uploads/2/%E0%A4%A', '/user_uploads/2/./b']) {
      expect(canonicalUploadPath(p), p).toBeUndefined();
    }
    expect(canonicalUploadPath('/user_uploads/2/a/b%20c.png')).toBe('/user_uploads/2/a/b%20c.png');
  });

  it("custom emoji images (Zulip's /user_avatars/<realm>/emoji/images/...) are fetched like uploads; nothing else under /user_avatars", () => {
    expect(realmUploadPath('/user_avatars/2/emoji/images/1.png', REALM)).toBe('/user_avatars/2/emoji/images/1.png');
    expect(realmUploadPath(`${REALM}/user_avatars/2/emoji/images/still/7.png`, REALM)).toBe('/user_avatars/2/emoji/images/still/7.png');
    expect(canonicalUploadPath('/user_avatars/2/emoji/images/a%20b.gif')).toBe('/user_avatars/2/emoji/images/a%20b.gif');
    expect(uploadImagePaths('<p><img alt=":shipit:" class="emoji" src="/user_avatars/2/emoji/images/1.png" title="shipit"></p>', REALM)).toEqual(['/user_avatars/2/emoji/images/1.png']);
    for (const p of [
      '/user_avatars/2/abcdef.png', // a user's avatar
      '/user_avatars/2/emoji/1.png',
      '/user_avatars/2/emoji/images',
      '/user_avatars/2/emoji/images/a/b.png',
      '/user_avatars/x/emoji/images/1.png',
      '/user_avatars/2/emoji/images/..',
      '/user_avatars/2/emoji/images/%2e%2e',
      '/user_avatars/2/emoji/images/a%2Fb.png',
      '/user_avatars/2/emoji/images/still/../1.png',
      '/user_avatars/../user_uploads/2/a/b.png',
    ]) {
      expect(canonicalUploadPath(p), p).toBeUndefined();
    }
    expect(realmUploadPath('/user_avatars/2/emoji/images/1.png?x=1', REALM)).toBeUndefined();
    expect(realmUploadPath('https://evil.example/user_avatars/2/emoji/images/1.png', REALM)).toBeUndefined();
    expect(realmUploadPath('/user_avatars/2/emoji/images/../../../api/v1/users', REALM)).toBeUndefined();
  });

  it('the page loads them from the host route or the Electron scheme', () => {
    expect(uploadSrc('/user_uploads/2/a/b.png', false)).toBe('/uploads/user_uploads/2/a/b.png');
    expect(uploadSrc('/user_uploads/2/a/b.png', true)).toBe('zulip-upload://realm/user_uploads/2/a/b.png');
  });

  it("a download is saved under the upload's own name (an ASCII fallback and the UTF-8 name)", () => {
    expect(uploadFileName('/user_uploads/2/ab/plan%20%C3%BC%22.pdf')).toBe('plan ü".pdf');
    expect(attachmentDisposition('plan ü".pdf')).toBe(`attachment; filename="plan __.pdf"; filename*=UTF-8''plan%20%C3%BC%22.pdf`);
    expect(uploadDownloadUrl('/user_uploads/2/ab/plan.pdf', 'KEY')).toBe('/uploads/user_uploads/2/ab/plan.pdf?k=KEY&download=1');
  });

  it('images in rendered HTML: realm uploads only, entities decoded, each once', () => {
    const html = `<p><a href="/user_uploads/2/a/doc.pdf">doc</a></p><div class="message_inline_image"><a href="/user_uploads/2/a/x.png"><img src="/user_uploads/2/a/x.png"></a></div>
      <img class="x" src='https://chat.example.com/user_uploads/2/a/y%20z.png'><img src="https://evil.example/p.png"><img src="/user_uploads/2/a/x.png"><img alt="q" src="/user_uploads/2/a/q.png?a=1&amp;b=2">`;
    expect(uploadImagePaths(html, REALM)).toEqual(['/user_uploads/2/a/x.png', '/user_uploads/2/a/y%20z.png']);
  });
});

describe('UploadCache', () => {
  it('fetches once with the realm path, keeps the image, then serves it from disk', async () => {
    const realm = fakeRealm({ '/user_uploads/2/a/x.png': { body: png(100, 7) } });
    const cache = new UploadCache({ dir, fetch: realm.fetch });
    const first = await cache.get('/user_uploads/2/a/x.png');
    expect(first).toMatchObject({ kind: 'image', contentType: 'image/png', cached: false });
    const again = await cache.get('/user_uploads/2/a/x.png');
    expect(again).toMatchObject({ kind: 'image', cached: true });
    expect(again.kind === 'image' && again.body.equals(png(100, 7))).toBe(true);
    expect(realm.calls).toEqual(['/user_uploads/2/a/x.png']);
    expect(cache.totalBytes).toBe(100);
    await cache.close();
  });

  it('offline: a kept image is served (also after a restart), a missing one is unavailable without asking the realm', async () => {
    const realm = fakeRealm({ '/user_uploads/2/a/x.png': { body: png(50, 3) } });
    const online = new UploadCache({ dir, fetch: realm.fetch, online: () => true });
    await online.get('/user_uploads/2/a/x.png');
    await online.close();

    const offline = new UploadCache({ dir, fetch: realm.fetch, online: () => false });
    const hit = await offline.get('/user_uploads/2/a/x.png');
    expect(hit).toMatchObject({ kind: 'image', contentType: 'image/png', cached: true });
    expect(hit.kind === 'image' && hit.body.equals(png(50, 3))).toBe(true);
    expect(await offline.get('/user_uploads/2/a/other.png')).toMatchObject({ kind: 'unavailable' });
    expect(realm.calls).toEqual(['/user_uploads/2/a/x.png']);
    await offline.close();
  });

  it('bounded: the least recently used images are evicted past the total, on disk too', async () => {
    const files = Object.fromEntries(['a', 'b', 'c', 'd'].map((n) => [`/user_uploads/2/x/${n}.png`, { body: png(100) }]));
    const realm = fakeRealm(files);
    const cache = new UploadCache({ dir, fetch: realm.fetch, maxTotalBytes: 250 });
    await cache.get('/user_uploads/2/x/a.png');
    await cache.get('/user_uploads/2/x/b.png');
    await cache.get('/user_uploads/2/x/a.png'); // a is now the most recent
    await cache.get('/user_uploads/2/x/c.png'); // over 250: b goes
    expect(cache.keptPaths()).toEqual(['/user_uploads/2/x/a.png', '/user_uploads/2/x/c.png']);
    expect(cache.totalBytes).toBe(200);
    expect(readdirSync(dir)).toHaveLength(4); // two files, two meta
    await cache.get('/user_uploads/2/x/d.png'); // a goes
    expect(cache.keptPaths()).toEqual(['/user_uploads/2/x/c.png', '/user_uploads/2/x/d.png']);
    await cache.close();
    // A restart reads the same set (and a smaller bound evicts the oldest at once).
    const smaller = new UploadCache({ dir, fetch: realm.fetch, maxTotalBytes: 150 });
    expect(smaller.keptPaths()).toHaveLength(1);
    expect(smaller.totalBytes).toBe(100);
    expect(readdirSync(dir)).toHaveLength(2);
    await smaller.close();
  });

  it('a file over the per-file cap is refused and nothing is kept', async () => {
    const realm = fakeRealm({ '/user_uploads/2/a/big.png': { body: png(300) } });
    const cache = new UploadCache({ dir, fetch: realm.fetch, maxFileBytes: 200 });
    expect(await cache.get('/user_uploads/2/a/big.png')).toMatchObject({ kind: 'not_found' });
    expect(cache.totalBytes).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('only image types are kept and served (never SVG or HTML)', async () => {
    const realm = fakeRealm({
      '/user_uploads/2/a/page.png': { headers: { 'content-type': 'text/html' } },
      '/user_uploads/2/a/draw.svg': { headers: { 'content-type': 'image/svg+xml' } },
      '/user_uploads/2/a/none.png': { headers: {} },
      '/user_uploads/2/a/ok.jpg': { headers: { 'content-type': 'IMAGE/JPEG; charset=binary' } },
    });
    const cache = new UploadCache({ dir, fetch: realm.fetch });
    expect(await cache.get('/user_uploads/2/a/page.png')).toMatchObject({ kind: 'not_found' });
    expect(await cache.get('/user_uploads/2/a/draw.svg')).toMatchObject({ kind: 'not_found' });
    expect(await cache.get('/user_uploads/2/a/none.png')).toMatchObject({ kind: 'not_found' });
    expect(await cache.get('/user_uploads/2/a/ok.jpg')).toMatchObject({ kind: 'image', contentType: 'image/jpeg' });
    expect(cache.keptPaths()).toEqual(['/user_uploads/2/a/ok.jpg']);
  });

  it('traversal and non-upload paths are refused before the realm or the disk is touched', async () => {
    const realm = fakeRealm({});
    const cache = new UploadCache({ dir, fetch: realm.fetch });
    for (const p of ['/user_uploads/2/../../../etc/passwd', '/user_uploads/2/%2e%2e/%2e%2e/x.png', '/api/v1/users', '/user_uploads/2/a%2F..%2F..%2Fx', '../../x.png']) {
      expect(await cache.get(p), p).toMatchObject({ kind: 'not_found' });
    }
    expect(realm.calls).toEqual([]);
  });

  it('the realm refusing is not found; no answer or a 5xx is unavailable; neither is kept', async () => {
    const realm = fakeRealm({
      '/user_uploads/2/a/forbidden.png': { status: 403 },
      '/user_uploads/2/a/busy.png': { status: 503 },
      '/user_uploads/2/a/down.png': Object.assign(new Error('connect ECONNREFUSED'), { kind: 'network' }),
    });
    const cache = new UploadCache({ dir, fetch: realm.fetch });
    expect(await cache.get('/user_uploads/2/a/forbidden.png')).toMatchObject({ kind: 'not_found' });
    expect(await cache.get('/user_uploads/2/a/missing.png')).toMatchObject({ kind: 'not_found' });
    expect(await cache.get('/user_uploads/2/a/busy.png')).toMatchObject({ kind: 'unavailable' });
    expect(await cache.get('/user_uploads/2/a/down.png')).toMatchObject({ kind: 'unavailable' });
    expect(cache.totalBytes).toBe(0);
  });

  it('two pages asking at once make one request', async () => {
    const realm = fakeRealm({ '/user_uploads/2/a/x.png': {} });
    const cache = new UploadCache({ dir, fetch: realm.fetch });
    const [a, b] = await Promise.all([cache.get('/user_uploads/2/a/x.png'), cache.get('/user_uploads/2/a/x.png')]);
    expect(a.kind).toBe('image');
    expect(b.kind).toBe('image');
    expect(realm.calls).toHaveLength(1);
  });

  it('prefetch keeps the images in the background, online only, skipping what is kept', async () => {
    const files = Object.fromEntries(['a', 'b', 'c'].map((n) => [`/user_uploads/2/x/${n}.png`, {}]));
    const realm = fakeRealm(files);
    let online = false;
    const cache = new UploadCache({ dir, fetch: realm.fetch, online: () => online });
    cache.prefetch(Object.keys(files));
    await cache.prefetched();
    expect(realm.calls).toEqual([]);
    online = true;
    cache.prefetch([...Object.keys(files), '/user_uploads/../x', '/user_uploads/2/x/a.png']);
    await cache.prefetched();
    expect(realm.calls.sort()).toEqual(Object.keys(files).sort());
    expect(cache.keptPaths()).toHaveLength(3);
    cache.prefetch(Object.keys(files));
    await cache.prefetched();
    expect(realm.calls).toHaveLength(3);
    await cache.close();
  });

  it('half-written and foreign files in the directory are cleared at start', async () => {
    const realm = fakeRealm({ '/user_uploads/2/a/x.png': {} });
    const first = new UploadCache({ dir, fetch: realm.fetch });
    await first.get('/user_uploads/2/a/x.png');
    await first.close();
    writeFileSync(path.join(dir, `${'0'.repeat(64)}.json`), '{"path":"/user_uploads/2/a/other.png","type":"image/png","size":5}');
    writeFileSync(path.join(dir, `${'1'.repeat(64)}.abc.tmp`), 'half');
    const second = new UploadCache({ dir, fetch: realm.fetch });
    expect(second.keptPaths()).toEqual(['/user_uploads/2/a/x.png']);
    expect(readdirSync(dir)).toHaveLength(2);
  });

  it('a download asks for any type: kept and served to it, never as an image', async () => {
    const realm = fakeRealm({ '/user_uploads/2/a/plan.pdf': { headers: { 'content-type': 'application/pdf' }, body: Buffer.from('%PDF') } });
    const cache = new UploadCache({ dir, fetch: realm.fetch });
    expect(await cache.get('/user_uploads/2/a/plan.pdf')).toMatchObject({ kind: 'not_found' });
    expect(cache.keptPaths()).toEqual([]);
    const got = await cache.get('/user_uploads/2/a/plan.pdf', { anyType: true });
    expect(got).toMatchObject({ kind: 'file', contentType: 'application/pdf', cached: false });
    // Kept now: a download offline (after a restart) still gets it; an image ask still does not.
    await cache.close();
    const offline = new UploadCache({ dir, fetch: realm.fetch, online: () => false });
    expect(await offline.get('/user_uploads/2/a/plan.pdf', { anyType: true })).toMatchObject({ kind: 'file', cached: true });
    expect(await offline.get('/user_uploads/2/a/plan.pdf')).toMatchObject({ kind: 'not_found' });
    expect(realm.calls).toEqual(['/user_uploads/2/a/plan.pdf', '/user_uploads/2/a/plan.pdf']);
    await offline.close();
  });

  it('pinned files (keep offline) are never evicted, survive a restart, and stay within the budget', async () => {
    const files = Object.fromEntries(['a', 'b', 'c', 'd'].map((n) => [`/user_uploads/2/x/${n}.pdf`, { headers: { 'content-type': 'application/pdf' }, body: png(100) }]));
    const realm = fakeRealm(files);
    const cache = new UploadCache({ dir, fetch: realm.fetch, maxTotalBytes: 250 });
    expect(await cache.pin('/user_uploads/2/x/a.pdf')).toEqual({ kind: 'kept' });
    await cache.get('/user_uploads/2/x/b.pdf', { anyType: true });
    await cache.get('/user_uploads/2/x/c.pdf', { anyType: true }); // over 250: b goes, not the older pinned a
    expect(cache.keptPaths()).toEqual(['/user_uploads/2/x/a.pdf', '/user_uploads/2/x/c.pdf']);
    expect(await cache.pin('/user_uploads/2/x/c.pdf')).toEqual({ kind: 'kept' });
    // Two pinned fill the budget: a third is refused, and a download no longer evicts them.
    expect(await cache.pin('/user_uploads/2/x/d.pdf')).toMatchObject({ kind: 'over_budget' });
    await cache.get('/user_uploads/2/x/b.pdf', { anyType: true });
    expect(cache.pinnedPaths().sort()).toEqual(['/user_uploads/2/x/a.pdf', '/user_uploads/2/x/c.pdf']);
    expect(cache.totalBytes).toBeLessThanOrEqual(250);
    await cache.close();
    const again = new UploadCache({ dir, fetch: realm.fetch, maxTotalBytes: 100, online: () => false });
    // A smaller budget at start evicts what is not pinned only.
    expect(again.pinnedPaths().sort()).toEqual(['/user_uploads/2/x/a.pdf', '/user_uploads/2/x/c.pdf']);
    // Offline, a file not on the device cannot be pinned.
    expect(await again.pin('/user_uploads/2/x/b.pdf')).toMatchObject({ kind: 'unavailable' });
    await again.close();
  });
});
