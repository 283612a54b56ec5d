/**
 * The engine's media fetches against loopback servers: an image of another site through the
 * reference server's proxy, fetched with the account's credentials into the upload cache and
 * served from it offline; a Gravatar avatar fetched from "Gravatar" (a loopback
 * stand-in) without the realm's credentials.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiConnection } from '../../sync/api/index.js';
import { gravatarUrl } from '../../sync/protocol/media-paths.js';
import { avatarPath, realmUploadPath } from '../../sync/protocol/uploads.js';
import { UploadCache } from '../../sync/uploads/cache.js';
import { camoPath } from '../../server/model/media.js';
import { startTestServer, type TestServer } from '../server/harness.js';
import { PIXEL_PNG, startOtherSite, type OtherSite } from '../server/other-site.js';

let t: TestServer;
let site: OtherSite;
let dir: string;
beforeAll(async () => {
  t = await startTestServer();
  site = await startOtherSite();
  dir = mkdtempSync(path.join(tmpdir(), 'media-fetch-'));
});
afterAll(async () => {
  await t.close();
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

const connect = () => new ApiConnection({ realmUrl: t.url, email: 'hamlet@example.com', apiKey: t.server.apiKey('hamlet@example.com'), logger: { warn: () => undefined }, timeoutMs: 10_000 });

describe('media the engine fetches', () => {
  it("another site's image through the realm's proxy is kept, and served from the device offline", async () => {
    const conn = connect();
    let online = true;
    const cache = new UploadCache({ dir, fetch: (p, o) => conn.fetchRealmFile(p, o), online: () => online });
    const p = realmUploadPath(camoPath(t.server.state, `${site.url}/cat.png`), t.url)!;
    const got = await cache.get(p);
    expect(got).toMatchObject({ kind: 'image', contentType: 'image/png', cached: false });
    expect(got.kind === 'image' && got.body.equals(PIXEL_PNG)).toBe(true);
    // Uploaded avatars too (iago has one in the demo realm).
    const iago = (await t.as('hamlet').get(`/users/${t.userId('iago')}`, { client_gravatar: 'false' })).json.user as { avatar_url: string };
    expect(await cache.get(avatarPath(iago.avatar_url, t.url)!)).toMatchObject({ kind: 'image', contentType: 'image/png' });
    online = false;
    expect(await cache.get(p)).toMatchObject({ kind: 'image', cached: true });
    await cache.close();
    await conn.close();
  });

  it('a Gravatar avatar is fetched from Gravatar without the realm\'s credentials', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const gravatar = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL_PNG);
    });
    await new Promise<void>((resolve) => gravatar.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(gravatar.address() as AddressInfo).port}`;
    const conn = connect();
    const cache = new UploadCache({ dir: undefined, fetch: (p, o) => conn.fetchPublicFile(gravatarUrl(p, origin), o) });
    const p = avatarPath('https://secure.gravatar.com/avatar/c6b5578d4964bd9c5fae593c6868912a?d=identicon&version=1', t.url)!;
    expect(await cache.get(p)).toMatchObject({ kind: 'image', contentType: 'image/png' });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.authorization).toBeUndefined();
    await expect(conn.fetchPublicFile('file:///etc/passwd', { maxResponseBytes: 10 })).rejects.toThrow(/http\(s\) only/);
    await cache.close();
    await conn.close();
    await new Promise<void>((resolve) => gravatar.close(() => resolve()));
  });
});
