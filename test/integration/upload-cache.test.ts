/**
 * The upload cache against the reference server on loopback: `ApiConnection.fetchRealmFile`
 * authenticates as the account (HTTP Basic outside /api/v1), the body cap holds for files, the
 * realm's refusals are `not_found`, and a stopped server leaves the kept copy servable.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiConnection } from '../../sync/api/index.js';
import { UploadCache } from '../../sync/uploads/cache.js';
import { startTestServer, type TestServer } from '../server/harness.js';

let t: TestServer;
let dir: string;
const conns: ApiConnection[] = [];
/** A 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

function connect(who: string): ApiConnection {
  const email = `${who}@example.com`;
  const c = new ApiConnection({ realmUrl: t.url, email, apiKey: t.server.apiKey(email), logger: { warn: () => undefined }, timeoutMs: 10_000 });
  conns.push(c);
  return c;
}

async function upload(who: string, name: string, type: string, data: Buffer): Promise<string> {
  const email = `${who}@example.com`;
  const fd = new FormData();
  fd.append('file', new Blob([new Uint8Array(data)], { type }), name);
  const res = await fetch(`${t.url}/api/v1/user_uploads`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`${email}:${t.server.apiKey(email)}`).toString('base64')}` }, body: fd });
  return ((await res.json()) as { url: string }).url;
}

const cacheFor = (conn: ApiConnection, extra: { maxFileBytes?: number; online?: () => boolean } = {}) =>
  new UploadCache({ dir: path.join(dir, conn.email), fetch: (p, o) => conn.fetchRealmFile(p, o), ...extra });

beforeAll(async () => {
  t = await startTestServer();
  dir = mkdtempSync(path.join(tmpdir(), 'upload-cache-it-'));
});
afterAll(async () => {
  for (const c of conns) await c.close();
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the upload cache against the reference server', () => {
  it('fetches the owner’s image with its credentials, keeps it, and refuses other users and non-images', async () => {
    const url = await upload('hamlet', 'pixel.png', 'image/png', PNG);
    const hamlet = cacheFor(connect('hamlet'));
    const got = await hamlet.get(url);
    expect(got).toMatchObject({ kind: 'image', contentType: 'image/png', cached: false });
    expect(got.kind === 'image' && got.body.equals(PNG)).toBe(true);
    expect(await hamlet.get(url)).toMatchObject({ kind: 'image', cached: true });

    // Not linked in any message othello can read: the realm says 403, the cache says not found.
    const othello = cacheFor(connect('othello'));
    expect(await othello.get(url)).toMatchObject({ kind: 'not_found' });

    const text = await upload('hamlet', 'notes.txt', 'text/plain', Buffer.from('hello'));
    expect(await hamlet.get(text)).toMatchObject({ kind: 'not_found' });
    await hamlet.close();
    await othello.close();
  });

  it('the file cap stops the transport: nothing past it is kept', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(64 * 1024)]);
    const url = await upload('hamlet', 'big.png', 'image/png', big);
    const capped = cacheFor(connect('hamlet'), { maxFileBytes: 1024 });
    expect(await capped.get(url)).toMatchObject({ kind: 'not_found' });
    expect(capped.has(url)).toBe(false);
    await capped.close();
  });

  it('a server that is gone: kept copies are served, others are unavailable', async () => {
    const url = await upload('hamlet', 'kept.png', 'image/png', PNG);
    const conn = connect('hamlet');
    const first = cacheFor(conn);
    await first.get(url);
    await first.close();
    const gone = new ApiConnection({ realmUrl: 'http://127.0.0.1:9', email: conn.email, apiKey: 'x', logger: { warn: () => undefined }, timeoutMs: 5_000 });
    conns.push(gone);
    const offline = new UploadCache({ dir: path.join(dir, conn.email), fetch: (p, o) => gone.fetchRealmFile(p, o) });
    expect(await offline.get(url)).toMatchObject({ kind: 'image', cached: true });
    expect(await offline.get('/user_uploads/2/aa/bb/never.png')).toMatchObject({ kind: 'unavailable' });
    await offline.close();
  });
});
