/**
 * Signing in to a server with a self-signed certificate, as a person would: refused with the cause
 * in words, the certificate read (its fingerprint shown), trusted only for the fingerprint seen,
 * then the sign-in works; the settings survive a restart (network.json); a proxy that refuses is
 * named as the cause. The reference server runs behind a loopback TLS front (test/fixtures/tls).
 */
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentEngineLogger } from '../../../sync/base/seams.js';
import type { RpcResult } from '../../../sync/protocol/index.js';
import { EngineService, MemorySecretStore } from '../../../sync/service/index.js';
import { startTestServer, type TestServer } from '../../server/harness.js';
import { quickSleep } from '../engine/session-helpers.js';
import { startTlsFront, tlsFixture as read } from '../../support/tls-front.js';


let t: TestServer;
let front: { url: string; close(): Promise<void> };
let frontUrl = '';
let dir = '';

beforeAll(async () => {
  t = await startTestServer();
  front = await startTlsFront(t.url);
  frontUrl = front.url;
  dir = mkdtempSync(path.join(tmpdir(), 'network-service-'));
});

afterAll(async () => {
  await front.close();
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

function service() {
  const svc = new EngineService({ dataDir: dir, secrets: new MemorySecretStore(), seams: { logger: silentEngineLogger, sleep: quickSleep }, timeoutMs: 3_000 });
  const client = svc.connect(() => undefined);
  return { svc, invoke: (name: string, payload: unknown = {}): Promise<RpcResult> => client.invoke(name, payload) };
}

const signIn = { email: 'hamlet@example.com', credentials: { password: 'sandbox' } };

describe('a server with a self-signed certificate', () => {
  it('is refused in words; the person reads the fingerprint and trusts it; then signing in works, and stays trusted after a restart', async () => {
    const { svc, invoke } = service();
    try {
      const refused = await invoke('signIn', { realm_url: frontUrl, ...signIn });
      expect(refused.ok).toBe(false);
      if (refused.ok) return;
      expect(refused.error.message).toBe("the server's certificate is not trusted: the certificate is self-signed");
      expect(refused.error.details).toMatchObject({ kind: 'certificate', code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });

      const peek = await invoke('peekCertificate', { realm_url: `${frontUrl}/` });
      if (!peek.ok) throw new Error(peek.error.message);
      const seen = peek.value as { fingerprint: string; problem: string };
      expect(seen.fingerprint).toBe(new X509Certificate(read('self-signed.crt')).fingerprint256);
      expect(seen.problem).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');

      // Another fingerprint than the server's is never trusted.
      const wrong = await invoke('trustCertificate', { realm_url: frontUrl, fingerprint: 'AA:BB' });
      expect(wrong.ok).toBe(false);
      expect((await invoke('networkSettings')).ok && ((await invoke('networkSettings')) as { value: { certificates: unknown[] } }).value.certificates).toEqual([]);

      const trusted = await invoke('trustCertificate', { realm_url: frontUrl, fingerprint: seen.fingerprint });
      expect(trusted.ok).toBe(true);
      expect((await invoke('signIn', { realm_url: frontUrl, ...signIn })).ok).toBe(true);
    } finally {
      await svc.close();
    }
    // A new run reads network.json: still trusted.
    const again = service();
    try {
      const s = await again.invoke('networkSettings');
      expect(s.ok && (s.value as { certificates: Array<{ origin: string }> }).certificates.map((c) => c.origin)).toEqual([frontUrl]);
    } finally {
      await again.svc.close();
    }
  });

  it('a proxy that refuses is named as the cause; back to no proxy, the sign-in works', async () => {
    const refusing = http.createServer();
    refusing.on('connect', (_req, socket) => socket.end('HTTP/1.1 403 Forbidden\r\n\r\n'));
    await new Promise<void>((r) => refusing.listen(0, '127.0.0.1', r));
    const { svc, invoke } = service();
    try {
      const cur = (await invoke('networkSettings')) as { ok: true; value: { certificates: unknown[] } };
      const set = await invoke('setNetworkSettings', { proxy: { mode: 'manual', url: `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`, bypass: '' }, certificates: cur.value.certificates });
      expect(set.ok).toBe(true);
      const refused = await invoke('signIn', { realm_url: frontUrl, ...signIn });
      expect(!refused.ok && refused.error.message).toBe('the proxy stopped the connection: the proxy refused the connection (HTTP 403)');
      expect((await invoke('setNetworkSettings', { proxy: { mode: 'direct' }, certificates: cur.value.certificates })).ok).toBe(true);
      expect((await invoke('signIn', { realm_url: frontUrl, ...signIn })).ok).toBe(true);
      // Bad settings are refused before anything is saved.
      expect((await invoke('setNetworkSettings', { proxy: { mode: 'manual', url: 'ftp://x', bypass: '' }, certificates: [] })).ok).toBe(false);
    } finally {
      await svc.close();
      await new Promise((r) => refusing.close(r));
    }
  });

  it("an organisation's CA is added from its PEM text (once), and text that is no certificate is refused", async () => {
    const { svc, invoke } = service();
    try {
      const bad = await invoke('addCertificateAuthority', { pem: 'hello' });
      expect(!bad.ok && bad.error).toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringMatching(/not a PEM certificate/) });
      for (let i = 0; i < 2; i++) expect((await invoke('addCertificateAuthority', { pem: read('ca.crt') })).ok).toBe(true);
      const s = (await invoke('networkSettings')) as { ok: true; value: { certificates: Array<{ origin: string | null; subject: string }> } };
      expect(s.value.certificates.filter((c) => c.origin === null).map((c) => c.subject)).toEqual(['CN=Zulip Offline test CA']);
    } finally {
      await svc.close();
    }
  });
});
