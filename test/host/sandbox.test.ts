/**
 * The embedded sandbox: the reference server in-process on loopback, its demo realm in a file that
 * survives restarts (with what the user posted), the preferred port first and another when it is
 * busy, one server for concurrent starts.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddedSandbox, SANDBOX_DB_FILE } from '../../host/sandbox.js';
import type { SandboxCredentials } from '../../sync/service/ports.js';

const dirs: string[] = [];
const sandboxes: EmbeddedSandbox[] = [];
afterEach(async () => {
  for (const s of sandboxes.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'zod-sandbox-'));
  dirs.push(d);
  return d;
}

function sandbox(dataDir: string, user?: string): EmbeddedSandbox {
  const s = new EmbeddedSandbox({ dataDir, user });
  sandboxes.push(s);
  return s;
}

async function api(c: SandboxCredentials, method: string, p: string, params?: Record<string, string>): Promise<Record<string, unknown>> {
  const body = params ? new URLSearchParams(params).toString() : undefined;
  const res = await fetch(`${c.realmUrl}/api/v1${p}`, {
    method,
    headers: { authorization: `Basic ${Buffer.from(`${c.email}:${c.apiKey}`).toString('base64')}`, ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    body,
  });
  return (await res.json()) as Record<string, unknown>;
}

describe('embedded sandbox', () => {
  it('starts the demo realm on loopback, signed in as desdemona by default', async () => {
    const dir = tmp();
    const s = sandbox(dir);
    expect(s.url).toBeUndefined();
    const c = await s.start(null);
    expect(c.realmUrl).toBe(`http://127.0.0.1:${c.port}`);
    expect(s.url).toBe(c.realmUrl);
    expect(c.email).toBe('desdemona@example.com');
    expect(existsSync(path.join(dir, SANDBOX_DB_FILE))).toBe(true);
    const me = await api(c, 'GET', '/users/me');
    expect(me).toMatchObject({ result: 'success', email: 'desdemona@example.com', role: 100 });
    const subs = await api(c, 'GET', '/users/me/subscriptions');
    expect((subs.subscriptions as { name: string }[]).map((x) => x.name)).toEqual(expect.arrayContaining(['general', 'Verona', 'Denmark', 'core team']));
  });

  it('signs in as the configured demo user, and refuses one that does not exist', async () => {
    const c = await sandbox(tmp(), 'hamlet@example.com').start(null);
    expect((await api(c, 'GET', '/users/me')).email).toBe('hamlet@example.com');
    await expect(sandbox(tmp(), 'nobody@example.com').start(null)).rejects.toThrow(/no user/);
  });

  it('returns the running server to a second start, and to concurrent ones', async () => {
    const s = sandbox(tmp());
    const [a, b] = await Promise.all([s.start(null), s.start(null)]);
    expect(b).toEqual(a);
    expect(await s.start(null)).toEqual(a);
  });

  it('keeps the realm and what the user posted across a restart on the same data dir, without seeding again', async () => {
    const dir = tmp();
    const first = sandbox(dir);
    const c1 = await first.start(null);
    const users1 = ((await api(c1, 'GET', '/users')).members as unknown[]).length;
    const sent = await api(c1, 'POST', '/messages', { type: 'stream', to: 'general', topic: 'persisted', content: 'still here after a restart' });
    expect(sent.result).toBe('success');
    await first.close();
    await first.close(); // twice is harmless
    expect(first.url).toBeUndefined();
    await expect(fetch(`${c1.realmUrl}/api/v1/server_settings`)).rejects.toThrow();

    const second = sandbox(dir);
    const c2 = await second.start(c1.port);
    expect(c2.port).toBe(c1.port); // the preferred port was free again
    expect(c2.apiKey).toBe(c1.apiKey); // the same realm, not a new seed
    const msg = await api(c2, 'GET', `/messages/${String(sent.id)}`);
    expect(msg).toMatchObject({ result: 'success', message: { content: '<p>still here after a restart</p>', subject: 'persisted' } });
    expect(((await api(c2, 'GET', '/users')).members as unknown[]).length).toBe(users1);
  });

  it('takes another free port when the preferred one is busy', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const addr = blocker.address();
    const busy = typeof addr === 'object' && addr !== null ? addr.port : 0;
    try {
      const c = await sandbox(tmp()).start(busy);
      expect(c.port).not.toBe(busy);
      expect((await api(c, 'GET', '/users/me')).result).toBe('success');
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });

  it('can start again after close', async () => {
    const s = sandbox(tmp());
    const a = await s.start(null);
    await s.close();
    const b = await s.start(a.port);
    expect((await api(b, 'GET', '/users/me')).result).toBe('success');
  });
});
