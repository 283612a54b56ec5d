/**
 * Who may talk to the browser-mode host. It listens on 127.0.0.1 only, but any web page the user
 * opens can make the browser send requests there, so every request must pass three checks:
 *   Host    `127.0.0.1:PORT` or `localhost:PORT`: a page on `evil.example` whose DNS name was
 *           rebound to 127.0.0.1 sends `Host: evil.example:PORT` and is refused
 *   Origin  when present (always on a WebSocket, and on cross-site fetches and form posts): our
 *           own origin only, so other sites cannot drive the engine or read its answers
 *   secret  a per-run random token, given once in the printed URL and then kept in an HttpOnly,
 *           SameSite=Strict cookie; without it nothing but the refusal is served
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** One cookie per port: browsers share cookies across the ports of a host, so two hosts at once must not overwrite each other's. */
export const cookieName = (port: number) => `zs-${port}`;

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

export function cookieOk(req: IncomingMessage, secret: string, port: number): boolean {
  const header = req.headers.cookie;
  if (header === undefined) return false;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === cookieName(port) && secretMatches(part.slice(eq + 1).trim(), secret)) return true;
  }
  return false;
}

export function sessionCookie(secret: string, port: number): string {
  return `${cookieName(port)}=${secret}; HttpOnly; SameSite=Strict; Path=/`;
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
