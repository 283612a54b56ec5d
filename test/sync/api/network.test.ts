/**
 * The engine's network settings (sync/api/network.ts) against loopback servers: a TLS server with a
 * self-signed certificate and one with a certificate from a private CA (test/fixtures/tls), and a
 * local HTTP proxy (forwarding plain requests, tunnelling CONNECT, or refusing with 407). The
 * causes come out in words; trusting a certificate (after reading its fingerprint) or adding the
 * CA makes the same request work; manual, bypassed and PAC-chosen proxies are really used.
 */
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificateFromPem, compilePac, describeConnectFailure, firstRoute, peekCertificate, useSystemProxyResolver, type NetworkSettings } from '../../../sync/api/network.js';
import { createUndiciTransport } from '../../../sync/api/transport.js';

const TLS = path.resolve(import.meta.dirname, '../../fixtures/tls');
const read = (f: string) => readFileSync(path.join(TLS, f), 'utf8');

const listen = (s: net.Server) => new Promise<number>((r) => s.listen(0, '127.0.0.1', () => r((s.address() as AddressInfo).port)));
const hello = (name: string) => (_req: http.IncomingMessage, res: http.ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end(`hello from ${name}`);
};

let selfSigned: https.Server, caSigned: https.Server, plain: http.Server, proxy: http.Server;
let selfUrl = '', caUrl = '', plainPort = 0, proxyPort = 0;
const proxied: string[] = [];
let refuse = false;
let work = '';

beforeAll(async () => {
  selfSigned = https.createServer({ cert: read('self-signed.crt'), key: read('self-signed.key') }, hello('self-signed'));
  caSigned = https.createServer({ cert: read('server.crt'), key: read('server.key') }, hello('ca-signed'));
  plain = http.createServer(hello('plain'));
  // A forward proxy: plain requests forwarded, CONNECT tunnelled (or refused with 407 when told).
  proxy = http.createServer((req, res) => {
    proxied.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? '');
    const up = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    req.pipe(up);
  });
  proxy.on('connect', (req: http.IncomingMessage, socket: net.Socket) => {
    proxied.push(`CONNECT ${req.url}`);
    if (refuse) {
      socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\n\r\n');
      return;
    }
    const [host = '', port = ''] = (req.url ?? '').split(':');
    const up = net.connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      up.pipe(socket);
      socket.pipe(up);
    });
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  selfUrl = `https://127.0.0.1:${await listen(selfSigned)}`;
  caUrl = `https://127.0.0.1:${await listen(caSigned)}`;
  plainPort = await listen(plain);
  proxyPort = await listen(proxy);
  work = mkdtempSync(path.join(tmpdir(), 'network-test-'));
});

afterAll(async () => {
  for (const s of [selfSigned, caSigned, plain, proxy]) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  rmSync(work, { recursive: true, force: true });
});

/** One GET through a transport made from these settings: the body, or the failure in words. */
async function get(url: string, network?: NetworkSettings): Promise<string> {
  const t = createUndiciTransport(network ? { network } : {});
  try {
    const res = await t.transport({ method: 'GET', url, headers: {}, body: undefined, signal: AbortSignal.timeout(5_000) });
    return res.body;
  } catch (e) {
    const f = describeConnectFailure(e);
    return f ? `${f.kind}: ${f.reason}` : `other: ${e instanceof Error ? e.message : String(e)}`;
  } finally {
    await t.close();
  }
}

const settings = (over: Partial<NetworkSettings> = {}): NetworkSettings => ({ proxy: { mode: 'direct' }, certificates: [], ...over });

describe('certificates', () => {
  it('a self-signed server is refused in words; its certificate can be read; once trusted it answers', async () => {
    expect(await get(`${selfUrl}/`, settings())).toBe('certificate: the certificate is self-signed');
    const seen = await peekCertificate(selfUrl);
    expect(seen.fingerprint).toBe(new X509Certificate(read('self-signed.crt')).fingerprint256);
    expect(seen.problem).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(seen.subject).toContain('CN=127.0.0.1');
    const trusted = certificateFromPem(seen.pem, selfUrl);
    expect(trusted.fingerprint).toBe(seen.fingerprint);
    expect(await get(`${selfUrl}/`, settings({ certificates: [trusted] }))).toBe('hello from self-signed');
    // Trusting it vouches for nothing else.
    expect(await get(`${caUrl}/`, settings({ certificates: [trusted] }))).toMatch(/^certificate: the certificate is signed by an authority this computer does not know/);
  });

  it("a private CA's server is refused until the CA is added", async () => {
    expect(await get(`${caUrl}/`, settings())).toBe('certificate: the certificate is signed by an authority this computer does not know');
    expect((await peekCertificate(caUrl)).problem).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    expect(await get(`${caUrl}/`, settings({ certificates: [certificateFromPem(read('ca.crt'), null)] }))).toBe('hello from ca-signed');
    // Known now: nothing to warn about.
    expect((await peekCertificate(caUrl, settings({ certificates: [certificateFromPem(read('ca.crt'), null)] }))).problem).toBeNull();
  });

  it('refuses text that is not a certificate', () => {
    expect(() => certificateFromPem('not a certificate', null)).toThrow(/not a PEM certificate/);
  });
});

describe('proxies', () => {
  it('manual: plain requests are forwarded and TLS is tunnelled through it; bypassed hosts go direct', async () => {
    proxied.length = 0;
    const manual = (bypass = '') => settings({ proxy: { mode: 'manual', url: `http://127.0.0.1:${proxyPort}`, bypass }, certificates: [certificateFromPem(read('self-signed.crt'), selfUrl)] });
    expect(await get(`http://127.0.0.1:${plainPort}/x`, manual())).toBe('hello from plain');
    expect(await get(`${selfUrl}/`, manual())).toBe('hello from self-signed');
    expect(proxied).toEqual([`GET http://127.0.0.1:${plainPort}/x`, `CONNECT ${new URL(selfUrl).host}`]);
    proxied.length = 0;
    expect(await get(`http://127.0.0.1:${plainPort}/x`, manual('example.com, 127.0.0.1'))).toBe('hello from plain');
    expect(proxied).toEqual([]);
  });

  it('a proxy that asks for credentials is named as the cause', async () => {
    refuse = true;
    try {
      expect(await get(`${selfUrl}/`, settings({ proxy: { mode: 'manual', url: `http://127.0.0.1:${proxyPort}`, bypass: '' } }))).toBe('proxy: the proxy asks for a user name and password');
    } finally {
      refuse = false;
    }
  });

  it('PAC: the file chooses per host; its first entry is used', async () => {
    const pac = path.join(work, 'proxy.pac');
    writeFileSync(pac, `function FindProxyForURL(url, host) { return host === 'localhost' ? 'PROXY 127.0.0.1:${proxyPort}; DIRECT' : 'DIRECT'; }`);
    const viaPac = settings({ proxy: { mode: 'pac', url: pathToFileURL(pac).href } });
    proxied.length = 0;
    expect(await get(`http://localhost:${plainPort}/pac`, viaPac)).toBe('hello from plain');
    expect(await get(`http://127.0.0.1:${plainPort}/direct`, viaPac)).toBe('hello from plain');
    expect(proxied).toEqual([`GET http://localhost:${plainPort}/pac`]);
    // A PAC file that cannot be read says so.
    expect(await get(`http://127.0.0.1:${plainPort}/`, settings({ proxy: { mode: 'pac', url: pathToFileURL(path.join(work, 'missing.pac')).href } }))).toMatch(/^other: .*ENOENT|^proxy:/);
  });

  it("system: the operating system's answer (Electron's resolveProxy) chooses per origin; without a resolver, the environment's", async () => {
    const asked: string[] = [];
    useSystemProxyResolver(async (url) => {
      asked.push(url);
      return url.startsWith('http://localhost:') ? `PROXY 127.0.0.1:${proxyPort}; DIRECT` : 'DIRECT';
    });
    const system = settings({ proxy: { mode: 'system' } });
    try {
      proxied.length = 0;
      expect(await get(`http://localhost:${plainPort}/sys`, system)).toBe('hello from plain');
      expect(await get(`http://127.0.0.1:${plainPort}/direct`, system)).toBe('hello from plain');
      expect(proxied).toEqual([`GET http://localhost:${plainPort}/sys`]);
      expect(asked).toEqual([`http://localhost:${plainPort}/`, `http://127.0.0.1:${plainPort}/`]);
      // A resolver that fails says so; nothing is sent.
      useSystemProxyResolver(() => Promise.reject(new Error('no proxy service')));
      expect(await get(`http://localhost:${plainPort}/x`, system)).toBe('proxy: the proxy could not be used (no proxy service)');
    } finally {
      useSystemProxyResolver(undefined);
    }
    proxied.length = 0;
    expect(await get(`http://localhost:${plainPort}/env`, system)).toBe('hello from plain');
    expect(proxied).toEqual([]);
  });

  it('a PAC file runs sandboxed: helpers, no Node, and bounded time', () => {
    const find = compilePac("function FindProxyForURL(u, h) { return shExpMatch(h, '*.example.com') && isInNet('10.1.2.3', '10.0.0.0', '255.0.0.0') ? 'HTTPS p:443' : typeof require + typeof process; }");
    expect(find('https://a.example.com/', 'a.example.com')).toBe('HTTPS p:443');
    expect(find('https://other/', 'other')).toBe('undefinedundefined');
    expect(() => compilePac('while (true) {}')).toThrow(/timed out/);
    expect(() => compilePac('var x = 1;')).toThrow(/no FindProxyForURL/);
    expect(firstRoute('HTTPS p:443; DIRECT', 'https:')).toBe('https://p:443');
    expect(firstRoute('SOCKS s:1; PROXY q:8080', 'https:')).toBe('http://q:8080');
    expect(firstRoute('', 'https:')).toBe('DIRECT');
  });
});
