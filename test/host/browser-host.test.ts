/**
 * The browser-mode host over loopback: the one-time token in the URL becomes an HttpOnly cookie
 * (a separate secret) and is spent; a spent link is refused with a page saying how to get a fresh
 * one; foreign
 * Host (DNS rebinding) and Origin are refused; only the renderer's files are served, with the CSP;
 * the WebSocket is checked likewise and carries the contract (results by id, events pushed); the
 * sandbox opened over it shows the demo channels and is reopened after a restart.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../host/browser/server.js';
import { fakeRenderer, get, openWs, TestPage } from './browser-helpers.js';

let host: BrowserHost;
let port: number;
/** The session cookie's value (never in a URL). */
let secret: string;
let cookie: string;
let origin: string;
const fake = fakeRenderer();
const dataDir = path.join(fake.root, 'data');
const pages: TestPage[] = [];

beforeAll(async () => {
  host = await startBrowserHost({ dataDir, rendererDir: fake.rendererDir });
  port = host.port;
  origin = `http://127.0.0.1:${port}`;
  ({ secret, cookie } = await signIn(host.url));
});

/** Visit a sign-in link; the cookie it sets. */
async function signIn(url: string): Promise<{ secret: string; cookie: string }> {
  const u = new URL(url);
  const r = await get(Number(u.port), `${u.pathname}${u.search}`);
  expect(r.status).toBe(302);
  const set = [r.headers['set-cookie'] ?? []].flat()[0] ?? '';
  const m = /^(zs-\d+)=([0-9a-f]{64});/.exec(set);
  if (!m) throw new Error(`no session cookie in ${JSON.stringify(r.headers['set-cookie'])}`);
  return { secret: m[2]!, cookie: `${m[1]}=${m[2]}` };
}
afterAll(async () => {
  for (const p of pages) p.ws.terminate();
  await host.close();
  rmSync(fake.root, { recursive: true, force: true });
});

async function page(): Promise<TestPage> {
  const r = await openWs(port, { cookie, origin });
  if (r.kind !== 'open') throw new Error(`refused ${r.status}`);
  const p = new TestPage(r.ws);
  pages.push(p);
  return p;
}

describe('browser host: the secret', () => {
  it('prints a loopback URL with a 32-byte random secret', () => {
    expect(host.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/\\?token=[0-9a-f]{64}$`));
    expect(host.origin).toBe(origin);
  });

  it('refuses a request without the token or cookie, and a wrong token', async () => {
    expect((await get(port, '/')).status).toBe(403);
    expect((await get(port, '/assets/app.js')).status).toBe(403);
    const wrong = await get(port, `/?token=${'0'.repeat(64)}`);
    expect(wrong.status).toBe(403);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    expect(wrong.body).not.toContain(secret);
    expect((await get(port, '/', { cookie: `zs-${port}=${'0'.repeat(64)}` })).status).toBe(403);
    expect((await get(port, '/', { cookie: `zs-${port}=${secret.slice(0, 10)}` })).status).toBe(403);
  });

  it('turns the right token into an HttpOnly SameSite=Strict cookie (not the token) and redirects to /', async () => {
    const token = new URL(host.newLoginUrl()).searchParams.get('token')!;
    const r = await get(port, `/?token=${token}`);
    expect(r.status).toBe(302);
    expect(r.headers.location).toBe('/');
    expect(r.headers['set-cookie']).toEqual([`zs-${port}=${secret}; HttpOnly; SameSite=Strict; Path=/`]);
    expect(secret).not.toBe(token);
  });

  it('a link works once: reused it is refused with a page saying how to get a fresh one; with the cookie it just opens the app', async () => {
    // The printed link was used in beforeAll.
    const token = new URL(host.url).searchParams.get('token')!;
    const again = await get(port, `/?token=${token}`);
    expect(again.status).toBe(403);
    expect(again.headers['content-type']).toMatch(/^text\/html/);
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(again.body).toContain('already been used');
    expect(again.body).toContain('kill -USR2');
    expect(again.body).not.toContain(secret);
    const mine = await get(port, `/?token=${token}`, { cookie });
    expect(mine.status).toBe(302);
    expect(mine.headers.location).toBe('/');
    expect(mine.headers['set-cookie']).toBeUndefined();
    // A newer link replaces an unused older one.
    const older = new URL(host.newLoginUrl()).searchParams.get('token')!;
    const newer = new URL(host.newLoginUrl()).searchParams.get('token')!;
    expect((await get(port, `/?token=${older}`)).status).toBe(403);
    expect((await get(port, `/?token=${newer}`)).status).toBe(302);
    expect((await get(port, `/?token=${newer}`)).status).toBe(403);
  });

  it('serves the page with the cookie, with the CSP and the other security headers', async () => {
    const r = await get(port, '/', { cookie: `other=1; ${cookie}` });
    expect(r.status).toBe(200);
    expect(r.body).toContain('<title>app</title>');
    const csp = String(r.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['referrer-policy']).toBe('no-referrer');
    expect(r.headers['cache-control']).toBe('no-store');
    const js = await get(port, '/assets/app.js', { cookie });
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
    expect(js.headers['content-security-policy']).toBe(csp);
    expect((await get(port, '/', { cookie, host: `localhost:${port}` })).status).toBe(200);
  });
});

describe('browser host: refusals', () => {
  it('refuses a foreign Host (DNS rebinding) even with the cookie', async () => {
    for (const h of [`evil.example:${port}`, `127.0.0.1:${port + 1}`, 'localhost', '127.0.0.1']) {
      expect((await get(port, '/', { cookie, host: h })).status, h).toBe(403);
    }
    expect((await get(port, `/?token=${secret}`, { host: `evil.example:${port}` })).status).toBe(403);
  });

  it('refuses a foreign Origin even with the cookie', async () => {
    expect((await get(port, '/', { cookie, origin: 'http://evil.example' })).status).toBe(403);
    expect((await get(port, '/', { cookie, origin: `http://127.0.0.1:${port + 1}` })).status).toBe(403);
    expect((await get(port, '/', { cookie, origin: 'null' })).status).toBe(403);
    expect((await get(port, '/', { cookie, origin })).status).toBe(200);
  });

  it('answers 404 to paths that leave the renderer directory, however encoded', async () => {
    for (const p of ['/../secret.txt', '/assets/../../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/..%5csecret.txt', '/assets/link.txt', '/%00', '/%E0%A4%A', '/assets', '/nope.js']) {
      const r = await get(port, p, { cookie });
      expect(r.status, p).toBe(404);
      expect(r.body, p).not.toContain('TOP SECRET');
    }
  });

  it('refuses methods other than GET and HEAD', async () => {
    expect((await get(port, '/', { cookie }, 'POST')).status).toBe(405);
    expect((await get(port, '/', { cookie }, 'HEAD')).status).toBe(200);
  });

  it('refuses a WebSocket with a foreign or missing Origin, without the cookie, with a foreign Host, or elsewhere than /ws', async () => {
    const refused = async (headers: Record<string, string>, p = '/ws') => {
      const r = await openWs(port, headers, p);
      return r.kind === 'refused' ? r.status : 'opened';
    };
    expect(await refused({ cookie, origin: 'http://evil.example' })).toBe(403);
    expect(await refused({ cookie })).toBe(403);
    expect(await refused({ origin })).toBe(403);
    expect(await refused({ cookie: `zs-${port}=nope`, origin })).toBe(403);
    expect(await refused({ cookie, origin, host: `evil.example:${port}` })).toBe(403);
    expect(await refused({ cookie, origin: `http://evil.example:${port}`, host: `evil.example:${port}` })).toBe(403);
    expect(await refused({ cookie, origin }, '/other')).toBe(403);
    expect(await refused({ cookie, origin: `http://localhost:${port}`, host: `localhost:${port}` })).toBe('opened');
  });
});

describe('browser host: the contract over the WebSocket', () => {
  it('answers an invoke with a result frame carrying its id', async () => {
    const p = await page();
    expect(await p.invoke('accounts')).toEqual({ ok: true, value: { accounts: [], active: null, secret_storage: 'plain', sandbox_available: true } });
    const unknown = await p.invoke('dropTables');
    expect(unknown.ok === false && unknown.error.code).toBe('UNKNOWN_OPERATION');
    const noAccount = await p.invoke('channels');
    expect(noAccount.ok === false && noAccount.error.code).toBe('NO_ACCOUNT');
  });

  it('answers an invalid frame that has an id with INVALID_REQUEST, and keeps the socket', async () => {
    const p = await page();
    const r = await p.raw(JSON.stringify({ type: 'invoke', id: 7, request: {} }), 7);
    expect(r.result).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST' } });
    const bad = await p.invoke('loadOlder', { view_id: 'x', count: 1_000_000 });
    expect(bad.ok === false && bad.error.code).toBe('INVALID_REQUEST');
    expect((await p.invoke('accounts')).ok).toBe(true);
  });

  it('closes with 1008 on a frame that is not JSON, binary, or without an id', async () => {
    for (const data of ['not json', Buffer.from([1, 2, 3]), JSON.stringify({ type: 'invoke', name: 'accounts' })]) {
      const p = await page();
      p.send(data);
      expect(await p.closed()).toBe(1008);
    }
  });

  it('refuses a plain-storage sign-in without consent before any network use', async () => {
    const p = await page();
    const r = await p.invoke('signIn', { realm_url: 'http://127.0.0.1:9', email: 'a@example.com', credentials: { password: 'x' } });
    expect(r.ok === false && r.error.code).toBe('PLAIN_STORAGE_CONSENT_REQUIRED');
  });

  it('opens the sandbox: the demo channels arrive and a status event is pushed', async () => {
    const p = await page();
    const opened = await p.invoke('openSandbox');
    expect(opened).toMatchObject({ ok: true, value: { id: 'sandbox', kind: 'sandbox', email: 'desdemona@example.com' } });
    expect(host.sandboxUrl()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    let names: string[] = [];
    const end = Date.now() + 15_000;
    while (!names.includes('general') && Date.now() < end) {
      const r = await p.invoke('channels');
      if (r.ok) names = (r.value as { name: string }[]).map((c) => c.name);
      await new Promise((res) => setTimeout(res, 50));
    }
    expect(names).toEqual(expect.arrayContaining(['general', 'Verona', 'Denmark', 'core team']));
    expect(p.events.some((e) => e.type === 'status')).toBe(true);
  });
});

describe('browser host: restart', () => {
  it('reopens the sandbox on the next start with the same data dir, and refuses the old secret', async () => {
    const before = host.sandboxUrl();
    const oldPort = port;
    await host.close();
    await expect(get(oldPort, '/')).rejects.toThrow();
    host = await startBrowserHost({ dataDir, rendererDir: fake.rendererDir });
    port = host.port;
    expect(host.sandboxUrl()).toBe(before); // restored, on the port it had
    expect((await get(port, '/', { cookie })).status).toBe(403);
    ({ secret, cookie } = await signIn(host.url));
    origin = host.origin;
    const p = await page();
    const s = await p.invoke('accounts');
    expect(s).toMatchObject({ ok: true, value: { active: 'sandbox' } });
  });
});
