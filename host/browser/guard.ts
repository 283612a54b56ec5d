/**
 * Who may talk to the browser-mode host. It listens on 127.0.0.1 only, but any web page the user
 * opens can make the browser send requests there, so every request must pass three checks:
 *   Host    `127.0.0.1:PORT` or `localhost:PORT`: a page on `evil.example` whose DNS name was
 *           rebound to 127.0.0.1 sends `Host: evil.example:PORT` and is refused
 *   Origin  when present (always on a WebSocket, and on cross-site fetches and form posts): our
 *           own origin only, so other sites cannot drive the engine or read its answers
 *   secret  a random token the printed link's landing page hands the page (never a cookie, which
 *           every port of 127.0.0.1 would receive: sync/protocol/browser-host.ts); the WebSocket
 *           needs it (as a subprotocol), an upload the key derived from it; the renderer's files
 *           are the app's code and carry no data
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { HOST_WS_PROTOCOL, UPLOAD_KEY_PARAM } from '../../sync/protocol/browser-host.js';

export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function allowedOrigins(port: number): string[] {
  return allowedHosts(port).map((h) => `http://${h}`);
}

export function hostOk(req: IncomingMessage, port: number): boolean {
  const host = req.headers.host?.toLowerCase();
  return host !== undefined && allowedHosts(port).includes(host);
}

/** `required`: a WebSocket handshake from a browser always carries Origin; one without is not ours. */
export function originOk(req: IncomingMessage, port: number, required: boolean): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return !required;
  return allowedOrigins(port).includes(origin.toLowerCase());
}

/** Constant-time comparison, so the secret cannot be guessed a character at a time. */
export function secretMatches(candidate: string | null | undefined, secret: string): boolean {
  if (typeof candidate !== 'string') return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The WebSocket handshake offers `zulip-offline.<secret>` among its subprotocols. */
export function wsSecretOk(req: IncomingMessage, secret: string): boolean {
  const offered = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
  const prefix = `${HOST_WS_PROTOCOL}.`;
  return offered.some((p) => p.startsWith(prefix) && secretMatches(p.slice(prefix.length), secret));
}

/** The key upload URLs carry: derived from the secret, so a URL shown or copied never reveals it. */
export const uploadKeyOf = (secret: string): string => createHmac('sha256', secret).update('uploads').digest('hex');

export function uploadKeyOk(url: URL, secret: string): boolean {
  return secretMatches(url.searchParams.get(UPLOAD_KEY_PARAM), uploadKeyOf(secret));
}

/**
 * The page may run only our own bundle, talk only to this host, and show images only from it (the
 * realm's uploads come through `/uploads/...`, fetched by the engine with the account's credentials).
 */
export function contentSecurityPolicy(port: number): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "media-src 'self'",
    "font-src 'self'",
    `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Headers on every answer, refusals included. */
export function securityHeaders(port: number): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(port),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  };
}
