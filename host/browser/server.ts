/**
 * The browser-mode host: the same engine service as the Electron app, behind a loopback HTTP server
 * that serves the built renderer and carries the contract over a WebSocket at `/ws`.
 *
 *   GET /?token=TOKEN   a one-time sign-in link: the first visit sets the session cookie (a separate
 *                       secret, never in a URL) and redirects to the clean `/`; the token is then
 *                       spent, so the link left in the history opens nothing for anyone else (a
 *                       browser that already has the cookie is just sent to `/`; others get a page
 *                       saying how to get a fresh link: `newLoginUrl()`, SIGUSR2 in the CLI)
 *   GET /uploads/user_uploads/...  the open account's realm images, from the upload cache
 *                       (uploads.ts; cookie required)
 *   GET /...            the renderer's files (cookie required)
 *   GET /ws (upgrade)   one engine client per socket (cookie + Origin required)
 * Every request passes the Host / Origin / secret checks of `guard.ts` first; a refusal is a 403
 * with a short text and no hint of the secret.
 *
 * Keys are kept in a plain file (no OS keychain here), so sign-in asks the user's consent first.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import path from 'node:path';
import { WebSocketServer } from 'ws';
import type { EngineLogger } from '../../sync/base/seams.js';
import { EngineService } from '../../sync/service/engine-service.js';
import { lockDataDir } from '../data-dir-lock.js';
import { PlainFileSecretStore } from '../plain-secrets.js';
import { EmbeddedSandbox } from '../sandbox.js';
import { cookieOk, hostOk, originOk, secretMatches, securityHeaders, sessionCookie } from './guard.js';
import { serveStatic } from './static.js';
import { isUploadRoute, serveUpload } from './uploads.js';
import { bridgeSocket, MAX_FRAME_BYTES } from './ws-bridge.js';

export interface BrowserHostOptions {
  /** Account databases under `accounts/`, the sandbox under `sandbox/`, keys in `api-keys.json`. */
  readonly dataDir: string;
  /** The built renderer (`out/renderer`). */
  readonly rendererDir: string;
  /** 0 or absent: a free port. */
  readonly port?: number;
  /** Open the sandbox at start (`npm start -- --sandbox`). */
  readonly sandbox?: boolean;
  readonly sandboxUser?: string;
  readonly log?: (line: string) => void;
}

export interface BrowserHost {
  /** `http://127.0.0.1:PORT/?token=TOKEN`: the sign-in link printed at start (works once). */
  readonly url: string;
  /** A fresh one-time sign-in link; any earlier unused one stops working. */
  newLoginUrl(): string;
  readonly origin: string;
  readonly port: number;
  readonly service: EngineService;
  /** The embedded reference server's base URL once started. */
  sandboxUrl(): string | undefined;
  close(): Promise<void>;
}

export async function startBrowserHost(opts: BrowserHostOptions): Promise<BrowserHost> {
  const log = opts.log ?? (() => undefined);
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  // One host per data directory (throws DataDirInUseError), before anything in it is opened.
  const lock = lockDataDir(opts.dataDir);
  try {
    return await startLocked(opts, log, lock.release);
  } catch (e) {
    lock.release();
    throw e;
  }
}

async function startLocked(opts: BrowserHostOptions, log: (line: string) => void, unlock: () => void): Promise<BrowserHost> {
  const accountsDir = path.join(opts.dataDir, 'accounts');
  mkdirSync(accountsDir, { recursive: true, mode: 0o700 });
  const sandbox = new EmbeddedSandbox({ dataDir: path.join(opts.dataDir, 'sandbox'), user: opts.sandboxUser });
  // The engine's warnings go to `log` (stderr in the CLI): stdout carries only the URL line.
  const logger: EngineLogger = { info: () => undefined, warn: (m, d) => log(engineLine('warn', m, d)), error: (m, d) => log(engineLine('error', m, d)) };
  const service = new EngineService({ dataDir: accountsDir, secrets: new PlainFileSecretStore(path.join(opts.dataDir, 'api-keys.json')), sandbox, seams: { logger } });

  // The cookie's value: never in a URL. The sign-in token: in the printed link, good for one visit.
  const secret = randomBytes(32).toString('hex');
  let loginToken: string | undefined = randomBytes(32).toString('hex');
  const firstLoginToken = loginToken;
  let port = 0;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false });
  wss.on('connection', (ws) => bridgeSocket(ws, service));

  const http = createServer((req, res) => {
    handleRequest(req, res).catch((e: unknown) => {
      log(`browser host: ${e instanceof Error ? e.message : String(e)}`);
      if (!res.headersSent) res.writeHead(500, { ...securityHeaders(port), 'content-type': 'text/plain; charset=utf-8' });
      res.end('internal error');
    });
  });

  async function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const headers = securityHeaders(port);
    const refuse = (status: number, text: string) => res.writeHead(status, { ...headers, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end(text);
    if (!hostOk(req, port) || !originOk(req, port, false)) return void refuse(403, 'forbidden');
    if (req.method !== 'GET' && req.method !== 'HEAD') return void refuse(405, 'method not allowed');
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (url.searchParams.has('token')) {
      if (url.pathname === '/' && loginToken !== undefined && secretMatches(url.searchParams.get('token'), loginToken)) {
        loginToken = undefined; // spent
        res.writeHead(302, { ...headers, location: '/', 'set-cookie': sessionCookie(secret, port), 'cache-control': 'no-store' }).end();
        return;
      }
      // A spent link from the history, in the browser it signed in: nothing to do but open the app.
      if (cookieOk(req, secret, port)) return void res.writeHead(302, { ...headers, location: '/', 'cache-control': 'no-store' }).end();
      res.writeHead(403, { ...headers, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(spentLinkPage());
      return;
    }
    if (!cookieOk(req, secret, port)) return void refuse(403, 'open the URL printed in the terminal');
    if (url.pathname === '/ws') return void refuse(426, 'WebSocket only');
    // The raw path, not the URL's (which resolves `..`): the upload route refuses what is not canonical.
    const rawPath = (req.url ?? '/').split(/[?#]/)[0]!;
    if (isUploadRoute(rawPath)) return serveUpload(req, res, (p) => service.upload(p), rawPath, headers);
    await serveStatic(req, res, opts.rendererDir, url.pathname, headers);
  }

  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => undefined);
    const pathname = new URL(req.url ?? '/', `http://127.0.0.1:${port}`).pathname;
    // Origin is required here: browsers always send it on a WebSocket, and a WebSocket is not
    // bound by the same-origin policy, so this check is what keeps other sites out.
    const ok = pathname === '/ws' && hostOk(req, port) && originOk(req, port, true) && cookieOk(req, secret, port);
    if (!ok) {
      const body = 'forbidden';
      socket.end(`HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(opts.port ?? 0, '127.0.0.1', () => {
      http.off('error', reject);
      resolve();
    });
  });
  port = (http.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      // A polite close first; a page that does not answer within a second is cut off.
      for (const ws of wss.clients) ws.close(1001, 'host closing');
      const deadline = Date.now() + 1_000;
      while (wss.clients.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => {
        wss.close(() => resolve());
      });
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
      await service.close();
      unlock();
    })());

  try {
    if (opts.sandbox) {
      const starter = service.connect(() => undefined);
      const r = await starter.invoke('openSandbox', {});
      starter.close();
      if (!r.ok) throw new Error(`the sandbox did not start: ${r.error.message}`);
    } else {
      await service.restore();
    }
  } catch (e) {
    await close();
    throw e;
  }

  return {
    url: `${origin}/?token=${firstLoginToken}`,
    newLoginUrl: () => {
      loginToken = randomBytes(32).toString('hex');
      return `${origin}/?token=${loginToken}`;
    },
    origin,
    port,
    service,
    sandboxUrl: () => sandbox.url,
    close,
  };
}

/** The answer to a spent, replaced or wrong sign-in link: what happened and how to get a fresh one. */
function spentLinkPage(): string {
  return [
    // color-scheme: the browser's own light or dark rendering (the CSP allows no inline style).
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="color-scheme" content="light dark"><title>Sign-in link already used</title></head><body>',
    '<h1>This sign-in link has already been used</h1>',
    '<p>Each link printed by the app host opens the app once, in one browser. This one was used already, was replaced by a newer one, or is not from this host.</p>',
    '<p>To get a fresh link, send the host the USR2 signal (<code>kill -USR2 PID</code>, the PID the host printed) and open the new <code>Open http://127.0.0.1:…</code> line it prints, or restart the host.</p>',
    '</body></html>',
  ].join('\n');
}

function engineLine(level: string, message: string, data: Readonly<Record<string, unknown>> | undefined): string {
  let detail = '';
  if (data !== undefined) {
    try {
      detail = ` ${JSON.stringify(data, (_k, v: unknown) => (v instanceof Error ? v.message : v))}`;
    } catch {
      detail = ' (unprintable details)';
    }
  }
  return `[engine ${level}] ${message}${detail}`;
}
