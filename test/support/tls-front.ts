/**
 * TLS in front of a loopback HTTP server (the reference server), with a certificate of
 * test/fixtures/tls: every request passed on as it came. For tests of trusting certificates.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const TLS = path.resolve(import.meta.dirname, '../fixtures/tls');

/** A file of test/fixtures/tls. */
export const tlsFixture = (name: string): string => readFileSync(path.join(TLS, name), 'utf8');

export async function startTlsFront(targetUrl: string, pair: 'self-signed' | 'server' = 'self-signed'): Promise<{ url: string; close(): Promise<void> }> {
  const target = new URL(targetUrl);
  const front = https.createServer({ cert: tlsFixture(`${pair}.crt`), key: tlsFixture(`${pair}.key`) }, (req, res) => {
    const up = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
  return {
    url: `https://127.0.0.1:${(front.address() as AddressInfo).port}`,
    close: async () => {
      front.closeAllConnections();
      await new Promise((r) => front.close(r));
    },
  };
}
