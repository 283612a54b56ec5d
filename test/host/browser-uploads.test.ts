/**
 * The browser-mode host's upload route (`/uploads/user_uploads/...`) over loopback, with the
 * sandbox open (the embedded reference server is the realm): it serves an image another user posted
 * only with the uploads key the sign-in link handed the page (never a cookie), from our Host and
 * Origin; 404 for what is not a readable image
 * upload (traversal included); 204 (a quiet failure) for an image not on the device while the realm
 * cannot be reached, and the kept image still served then.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../host/browser/server.js';
import { fakeRenderer, get, signIn } from './browser-helpers.js';

/** A 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

let host: BrowserHost;
let port: number;
/** The uploads key the landing page handed the tab. */
let key: string;
let origin: string;
let realm: string;
const fake = fakeRenderer();
const dataDir = path.join(fake.root, 'data');

/** Upload as a demo user of the sandbox and post a message linking it in Verona; the upload's path. */
async function postUpload(email: string, name: string, type: string, data: Buffer): Promise<string> {
  const key = (await (await fetch(`${realm}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: email, password: 'sandbox' }) })).json()) as { api_key: string };
  const authorization = `Basic ${Buffer.from(`${email}:${key.api_key}`).toString('base64')}`;
  const fd = new FormData();
  fd.append('file', new Blob([new Uint8Array(data)], { type }), name);
  const up = (await (await fetch(`${realm}/api/v1/user_uploads`, { method: 'POST', headers: { authorization }, body: fd })).json()) as { url: string };
  const sent = await fetch(`${realm}/api/v1/messages`, { method: 'POST', headers: { authorization }, body: new URLSearchParams({ type: 'stream', to: 'Verona', topic: 'pictures', content: `[${name}](${up.url})` }) });
  expect(sent.status).toBe(200);
  return up.url;
}

/** The path as the page asks for it: with the uploads key. */
const withKey = (p: string, k = key) => `${p}?k=${k}`;

/** Binary GET (the helper's `get` reads text). */
async function getBytes(p: string): Promise<{ status: number; type: string | null; body: Buffer }> {
  const r = await fetch(`${origin}${withKey(p)}`);
  return { status: r.status, type: r.headers.get('content-type'), body: Buffer.from(await r.arrayBuffer()) };
}

beforeAll(async () => {
  host = await startBrowserHost({ dataDir, rendererDir: fake.rendererDir, sandbox: true });
  port = host.port;
  origin = `http://127.0.0.1:${port}`;
  realm = host.sandboxUrl()!;
  ({ uploadKey: key } = await signIn(host.url));
  // Until the stream is live the cache does not ask the realm (offline answers): wait, bounded.
  for (let i = 0; i < 300 && !host.service.activeSession?.online; i++) await new Promise((r) => setTimeout(r, 50));
  expect(host.service.activeSession?.online).toBe(true);
}, 60_000);
afterAll(async () => {
  await host.close();
  rmSync(fake.root, { recursive: true, force: true });
});

describe('browser host: the upload route', () => {
  it('serves a realm image to our page, fetched with the account’s credentials, never cached by the browser', async () => {
    const url = await postUpload('iago@example.com', 'pixel.png', 'image/png', PNG);
    const r = await getBytes(`/uploads${url}`);
    expect(r.status).toBe(200);
    expect(r.type).toBe('image/png');
    expect(r.body.equals(PNG)).toBe(true);
    const head = await get(port, withKey(`/uploads${url}`));
    expect(head.headers['cache-control']).toBe('no-store');
    expect(head.headers['x-content-type-options']).toBe('nosniff');
    expect(head.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(String(head.headers['content-security-policy'])).toContain("img-src 'self';");
    expect(String(head.headers['content-security-policy'])).toContain("media-src 'self';");
  });

  it('is protected like the rest of the host: the uploads key (not the secret), Host and Origin', async () => {
    const url = await postUpload('iago@example.com', 'guarded.png', 'image/png', PNG);
    expect((await get(port, `/uploads${url}`)).status).toBe(403);
    expect((await get(port, withKey(`/uploads${url}`, '0'.repeat(64)))).status).toBe(403);
    expect((await get(port, withKey(`/uploads${url}`, key.slice(0, 10)))).status).toBe(403);
    expect((await get(port, withKey(`/uploads${url}`), { host: `evil.example:${port}` })).status).toBe(403);
    expect((await get(port, withKey(`/uploads${url}`), { origin: 'https://evil.example' })).status).toBe(403);
    expect((await get(port, withKey(`/uploads${url}`), { origin })).status).toBe(200);
    expect((await get(port, withKey(`/uploads${url}`), {}, 'POST')).status).toBe(405);
  });

  it('404 for unknown uploads, non-images, other paths and traversal, however encoded', async () => {
    const text = await postUpload('iago@example.com', 'notes.txt', 'text/plain', Buffer.from('words'));
    for (const p of [
      '/uploads/user_uploads/2/zz/nothing/here.png',
      `/uploads${text}`,
      '/uploads/user_uploads/temporary/abc/x.png',
      '/uploads/api/v1/users',
      '/uploads/user_uploads/2/../../../index.html',
      '/uploads/user_uploads/2/%2e%2e/%2e%2e/index.html',
      '/uploads/user_uploads/2/a%2F..%2F..%2Fx.png',
      '/uploads/user_uploads/2/a%5C..%5Cx.png',
      '/uploads/',
    ]) {
      const r = await get(port, withKey(p));
      expect(r.status, p).toBe(404);
      expect(r.body, p).toBe('not found');
    }
  });

  it('?download=1: any file a message links, as an attachment with its name; the uploads key still required', async () => {
    const pdf = Buffer.from('%PDF-1.4 plan');
    const url = await postUpload('iago@example.com', 'plan.pdf', 'application/pdf', pdf);
    expect((await get(port, `/uploads${url}?download=1`)).status).toBe(403);
    expect((await get(port, `/uploads${url}?k=${'0'.repeat(64)}&download=1`)).status).toBe(403);
    // Without the flag it is not an image: refused, never shown inline.
    expect((await get(port, withKey(`/uploads${url}`))).status).toBe(404);
    const r = await fetch(`${origin}${withKey(`/uploads${url}`)}&download=1`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-disposition')).toBe(`attachment; filename="plan.pdf"; filename*=UTF-8''plan.pdf`);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await r.arrayBuffer()).equals(pdf)).toBe(true);
  });

  it('with the realm unreachable: kept images still served, others a quiet 204', async () => {
    const kept = await postUpload('iago@example.com', 'kept.png', 'image/png', PNG);
    const missing = await postUpload('iago@example.com', 'missing.png', 'image/png', PNG);
    expect((await getBytes(`/uploads${kept}`)).status).toBe(200);
    // The session's stream stopped: the account is offline for the cache.
    await host.service.activeSession!.stop();
    const hit = await getBytes(`/uploads${kept}`);
    expect(hit.status).toBe(200);
    expect(hit.body.equals(PNG)).toBe(true);
    const miss = await getBytes(`/uploads${missing}`);
    expect(miss.status).toBe(204);
    expect(miss.body.length).toBe(0);
  });
});
