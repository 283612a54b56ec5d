/**
 * The browser-mode host over loopback: the one-time token in the URL gets a landing page that
 * hands the tab a separate secret (and the uploads key derived from it), never a cookie, which
 * every other port of 127.0.0.1 would receive; the token is spent and a spent link is refused with
 * a page saying how to get a fresh one; foreign Host (DNS rebinding) and Origin are refused; only
 * the renderer's files are served, with the CSP; the WebSocket needs the secret (a subprotocol)
 * and carries the contract (results by id, events pushed); the sandbox opened over it shows the
 * demo channels and is reopened after a restart, where the same port keeps the same secret.
 */
import { readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../host/browser/server.js';
import type { WebSocket } from 'ws';
import { HOST_WS_REFUSED } from '../../sync/protocol/browser-host.js';
import { fakeRenderer, get, openWs, pageProtocols, signIn, TestPage } from './browser-helpers.js';

let host: BrowserHost;
let port: number;
/** The tab's secret (never in a URL or a cookie). */
let secret: string;
let origin: string;
const fake = fakeRenderer();
const dataDir = path.join(fake.root, 'data');
const pages: TestPage[] = [];

beforeAll(async () => {
  host = await startBrowserHost({ dataDir, rendererDir: fake.rendererDir });
  port = host.port;
  origin = `http://127.0.0.1:${port}`;
  ({ secret } = await signIn(host.url));
});
afterAll(async () => {
  for (const p of pages) p.ws.terminate();
  await host.close();
  rmSync(fake.root, { recursive: true, force: true });
});

async function page(): Promise<TestPage> {
  const r = await openWs(port, { origin }, '/ws', pageProtocols(secret));
  if (r.kind !== 'open') throw new Error(`refused ${r.status}`);
  const p = new TestPage(r.ws);
  pages.push(p);
  return p;
}

describe('browser host: the secret', () => {
  it('prints a loopback URL with a 32-byte random token', () => {
    expect(host.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/\\?token=[0-9a-f]{64}$`));
    expect(host.origin).toBe(origin);
  });

  it('the right token gets a page handing the tab the secret and the uploads key: no cookie, not the token, not stored by the browser', async () => {
    const token = new URL(host.newLoginUrl()).searchParams.get('token')!;
    const r = await signIn(`${origin}/?token=${token}`);
    expect(r.secret).toBe(secret);
    expect(r.secret).not.toBe(token);
    expect(r.uploadKey).not.toBe(secret);
    expect(r.landing.headers['set-cookie']).toBeUndefined();
    expect(r.landing.headers['cache-control']).toBe('no-store');
    expect(r.landing.headers['content-type']).toMatch(/^text\/html/);
    // Its script (the CSP allows no inline one) keeps them in sessionStorage and opens the app.
    expect(r.landing.body).toContain('<script src="/host-signin.js"></script>');
    const script = await get(port, '/host-signin.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect(script.body).toContain('sessionStorage.setItem("zulip-offline-host"');
    expect(script.body).toContain("location.replace('/')");
    expect(script.body).not.toContain(secret);
  });

  it('no answer sets a cookie, and none but the landing page carries the secret', async () => {
    const answers = await Promise.all(['/', '/assets/app.js', '/host-signin.js', '/signed-out', `/?token=${'0'.repeat(64)}`, '/uploads/user_uploads/2/ab/x.png', '/ws', '/nope'].map((p) => get(port, p)));
    for (const r of answers) {
      expect(r.headers['set-cookie']).toBeUndefined();
      expect(r.body).not.toContain(secret);
    }
  });

  it('a link works once: reused it is refused with a page saying how to get a fresh one (whose script opens the app in the tab it signed in)', async () => {
    // The printed link was used in beforeAll.
    const token = new URL(host.url).searchParams.get('token')!;
    const again = await get(port, `/?token=${token}`);
    expect(again.status).toBe(403);
    expect(again.headers['content-type']).toMatch(/^text\/html/);
    expect(again.body).toContain('already been used');
    expect(again.body).toContain('kill -USR2');
    expect(again.body).toContain('<script src="/host-signin.js"></script>');
    expect(again.body).not.toContain(secret);
    const wrong = await get(port, `/?token=${'0'.repeat(64)}`);
    expect(wrong.status).toBe(403);
    // A newer link replaces an unused older one.
    const older = new URL(host.newLoginUrl()).searchParams.get('token')!;
    const newer = new URL(host.newLoginUrl()).searchParams.get('token')!;
    expect((await get(port, `/?token=${older}`)).status).toBe(403);
    expect((await get(port, `/?token=${newer}`)).status).toBe(200);
    expect((await get(port, `/?token=${newer}`)).status).toBe(403);
  });

  it('serves the app\'s files (code, no data) with the CSP and the other security headers; a tab without the secret is sent to a page saying how to sign in', async () => {
    const r = await get(port, '/');
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
    const js = await get(port, '/assets/app.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
    expect(js.headers['content-security-policy']).toBe(csp);
    expect((await get(port, '/', { host: `localhost:${port}` })).status).toBe(200);
    const out = await get(port, '/signed-out');
    expect(out.status).toBe(403);
    expect(out.body).toContain('Open the sign-in link printed by the app host');
  });

  it('keeps the secret beside the data (0600) with its port, for the next run', () => {
    const file = path.join(dataDir, 'browser-session.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ port, secret });
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe('browser host: refusals', () => {
  it('refuses a foreign Host (DNS rebinding)', async () => {
    for (const h of [`evil.example:${port}`, `127.0.0.1:${port + 1}`, 'localhost', '127.0.0.1']) {
      expect((await get(port, '/', { host: h })).status, h).toBe(403);
    }
    expect((await get(port, `/?token=${secret}`, { host: `evil.example:${port}` })).status).toBe(403);
  });

  it('refuses a foreign Origin', async () => {
    expect((await get(port, '/', { origin: 'http://evil.example' })).status).toBe(403);
    expect((await get(port, '/', { origin: `http://127.0.0.1:${port + 1}` })).status).toBe(403);
    expect((await get(port, '/', { origin: 'null' })).status).toBe(403);
    expect((await get(port, '/', { origin })).status).toBe(200);
  });

  it('answers 404 to paths that leave the renderer directory, however encoded', async () => {
    for (const p of ['/../secret.txt', '/assets/../../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/..%5csecret.txt', '/assets/link.txt', '/%00', '/%E0%A4%A', '/assets', '/nope.js']) {
      const r = await get(port, p);
      expect(r.status, p).toBe(404);
      expect(r.body, p).not.toContain('TOP SECRET');
    }
  });

  it('refuses methods other than GET and HEAD', async () => {
    expect((await get(port, '/', {}, 'POST')).status).toBe(405);
    expect((await get(port, '/', {}, 'HEAD')).status).toBe(200);
  });

  it('refuses a WebSocket with a foreign or missing Origin, without the secret (a cookie holding it included), with a foreign Host, or elsewhere than /ws', async () => {
    const refused = async (headers: Record<string, string>, protocols: string[], p = '/ws') => {
      const r = await openWs(port, headers, p, protocols);
      if (r.kind === 'refused') return r.status;
      // Our own origin without the secret: closed at once with a code the page can read, nothing answered.
      const code = await closeCodeWithin(r.ws, 1_000);
      r.ws.terminate();
      return code === HOST_WS_REFUSED ? 'closed: not signed in' : code === undefined ? 'opened' : `closed ${code}`;
    };
    const mine = pageProtocols(secret);
    expect(await refused({ origin: 'http://evil.example' }, mine)).toBe(403);
    expect(await refused({}, mine)).toBe(403);
    expect(await refused({ origin }, [])).toBe('closed: not signed in');
    expect(await refused({ origin }, ['zulip-offline'])).toBe('closed: not signed in');
    expect(await refused({ origin, cookie: `zs-${port}=${secret}` }, ['zulip-offline'])).toBe('closed: not signed in');
    expect(await refused({ origin }, pageProtocols('0'.repeat(64)))).toBe('closed: not signed in');
    expect(await refused({ origin }, pageProtocols(secret.slice(0, 10)))).toBe('closed: not signed in');
    expect(await refused({ origin, host: `evil.example:${port}` }, mine)).toBe(403);
    expect(await refused({ origin: `http://evil.example:${port}`, host: `evil.example:${port}` }, mine)).toBe(403);
    expect(await refused({ origin }, mine, '/other')).toBe(403);
    expect(await refused({ origin: `http://localhost:${port}`, host: `localhost:${port}` }, mine)).toBe('opened');
  });

  it('answers the handshake with the bare protocol, never the one carrying the secret', async () => {
    const r = await openWs(port, { origin }, '/ws', pageProtocols(secret));
    if (r.kind !== 'open') throw new Error(`refused ${r.status}`);
    expect(r.ws.protocol).toBe('zulip-offline');
    r.ws.terminate();
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
  it('reopens the sandbox on the next start with the same data dir, on the same port and with the same secret: an open page connects again without a new link', async () => {
    const before = host.sandboxUrl();
    const oldPort = port;
    await host.close();
    await expect(get(oldPort, '/')).rejects.toThrow();
    host = await startBrowserHost({ dataDir, rendererDir: fake.rendererDir });
    expect(host.port).toBe(oldPort);
    expect(host.sandboxUrl()).toBe(before); // restored, on the port it had
    const p = await page();
    expect(await p.invoke('accounts')).toMatchObject({ ok: true, value: { active: 'sandbox' } });
  });

  it('on another port (the old one taken, or asked for): a new secret, the old one refused', async () => {
    const oldPort = port;
    await host.close();
    host = await startBrowserHost({ dataDir, rendererDir: fake.rendererDir, port: 0 });
    port = host.port;
    origin = host.origin;
    expect(port).not.toBe(oldPort);
    const old = await openWs(port, { origin }, '/ws', pageProtocols(secret));
    // Refused with the code that tells the page to stop retrying and say how to sign in again.
    expect(old.kind === 'open' && (await closeCodeWithin(old.ws, 5_000))).toBe(HOST_WS_REFUSED);
    ({ secret } = await signIn(host.url));
    const p = await page();
    expect(await p.invoke('accounts')).toMatchObject({ ok: true, value: { active: 'sandbox' } });
  });
});

/** The code a socket is closed with by the host within `ms`, or undefined while it stays open. */
function closeCodeWithin(ws: WebSocket, ms: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(undefined), ms);
    ws.once('close', (code: number) => {
      clearTimeout(t);
      resolve(code);
    });
  });
}
