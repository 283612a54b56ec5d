/**
 * The browser-mode host: the same engine service as the Electron app, behind a loopback HTTP server
 * that serves the built renderer and carries the contract over a WebSocket at `/ws`.
 *
 *   GET /?token=TOKEN   a one-time sign-in link: the first visit gets a page that hands the page's
 *                       origin a separate secret (never in a URL, never in a cookie: signin.ts)
 *                       and opens the clean `/`; the token is then spent, so the link left in the
 *                       history opens nothing for anyone else (others get a page saying how to get
 *                       a fresh link: `newLoginUrl()`, SIGUSR2 in the CLI)
 *   GET /uploads/user_uploads/...?k=KEY  the open account's realm images, from the upload cache
 *                       (uploads.ts; the uploads key derived from the secret required);
 *                       `&download=1`: any file a message links, as an attachment with its name
 *   GET /...            the renderer's files (the app's code: no data, no secret needed)
 *   GET /ws (upgrade)   one engine client per socket (the secret as a subprotocol + Origin required;
 *                       our own page with an unknown secret is closed with HOST_WS_REFUSED)
 * Every request passes the Host / Origin checks of `guard.ts` first; a refusal is a 403 with a
 * short text and no hint of the secret.
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
import { HOST_SECRET_HEADER, HOST_WS_PROTOCOL, HOST_WS_REFUSED, OUTBOX_FILES_ROUTE } from '../../sync/protocol/browser-host.js';
import type { EngineLogger } from '../../sync/base/seams.js';
import { EngineService } from '../../sync/service/engine-service.js';
import { lockDataDir } from '../data-dir-lock.js';
import { PlainFileSecretStore } from '../plain-secrets.js';
import type { Clock } from '../../server/clock.js';
import { EmbeddedSandbox } from '../sandbox.js';
import { hostOk, originOk, secretMatches, securityHeaders, uploadKeyOf, uploadKeyOk, wsSecretOk } from './guard.js';
import { landingPage, loadSession, sessionSecret, SIGNED_OUT_PATH, signedOutPage, SIGNIN_SCRIPT, SIGNIN_SCRIPT_PATH, spentLinkPage } from './signin.js';
import { serveStatic } from './static.js';
import { isUploadRoute, serveUpload } from './uploads.js';
import { DOWNLOAD_PARAM } from '../../sync/protocol/uploads.js';
import { isOutboxFilesRoute, serveStaged, stageFromPage } from './outbox-files.js';
import { bridgeSocket, MAX_FRAME_BYTES } from './ws-bridge.js';

export interface BrowserHostOptions {
  /** Account databases under `accounts/`, the sandbox under `sandbox/`, keys in `api-keys.json`. */
  readonly dataDir: string;
  /** The built renderer (`out/renderer`). */
  readonly rendererDir: string;
  /** 0: a free port; absent: the last run's port if it is free (an open page reconnects), else a free one. */
  readonly port?: number;
  /** Open the sandbox at start (`npm start -- --sandbox`). */
  readonly sandbox?: boolean;
  readonly sandboxUser?: string;
  /** The embedded sandbox server's clock (tests move it, e.g. past a scheduled time). */
  readonly sandboxClock?: Clock;
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
  const sandbox = new EmbeddedSandbox({ dataDir: path.join(opts.dataDir, 'sandbox'), user: opts.sandboxUser, ...(opts.sandboxClock ? { clock: opts.sandboxClock } : {}) });
  // The engine's warnings go to `log` (stderr in the CLI): stdout carries only the URL line.
  const logger: EngineLogger = { info: () => undefined, warn: (m, d) => log(engineLine('warn', m, d)), error: (m, d) => log(engineLine('error', m, d)) };
  const service = new EngineService({ dataDir: accountsDir, secrets: new PlainFileSecretStore(path.join(opts.dataDir, 'api-keys.json')), sandbox, seams: { logger } });

  // The page's secret: never in a URL or a cookie (set once listening: it depends on the port).
  // The sign-in token: in the printed link, good for one visit.
  let secret = '';
  let loginToken: string | undefined = randomBytes(32).toString('hex');
  const firstLoginToken = loginToken;
  let port = 0;
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_FRAME_BYTES,
    perMessageDeflate: false,
    // The page offers the protocol and the one carrying the secret: the answer names only the first.
    handleProtocols: (offered) => (offered.has(HOST_WS_PROTOCOL) ? HOST_WS_PROTOCOL : false),
  });
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
    if (req.method === 'POST' && (req.url ?? '').split(/[?#]/)[0] === OUTBOX_FILES_ROUTE) {
      // Only our page: it always sends its Origin on a POST, and only it holds the secret.
      if (!originOk(req, port, true) || !secretMatches(headerOf(req, HOST_SECRET_HEADER), secret)) return void refuse(403, 'forbidden');
      return stageFromPage(req, res, (bytes) => service.stageUpload(bytes), headers);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return void refuse(405, 'method not allowed');
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    const html = (status: number, body: string) => res.writeHead(status, { ...headers, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
    if (url.searchParams.has('token')) {
      if (url.pathname === '/' && loginToken !== undefined && secretMatches(url.searchParams.get('token'), loginToken)) {
        loginToken = undefined; // spent
        return void html(200, landingPage(secret, uploadKeyOf(secret)));
      }
      // A spent link from the history: the page's script opens the app in the tab it signed in.
      return void html(403, spentLinkPage());
    }
    if (url.pathname === SIGNIN_SCRIPT_PATH) {
      return void res.writeHead(200, { ...headers, 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' }).end(req.method === 'HEAD' ? undefined : SIGNIN_SCRIPT);
    }
    if (url.pathname === SIGNED_OUT_PATH) return void html(403, signedOutPage());
    if (url.pathname === '/ws') return void refuse(426, 'WebSocket only');
    // The raw path, not the URL's (which resolves `..`): the upload route refuses what is not canonical.
    const rawPath = (req.url ?? '/').split(/[?#]/)[0]!;
    if (isOutboxFilesRoute(rawPath)) {
      if (!uploadKeyOk(url, secret)) return void refuse(403, 'open the URL printed in the terminal');
      return serveStaged(req, res, (id) => service.stagedUpload(id), rawPath, headers);
    }
    if (isUploadRoute(rawPath)) {
      if (!uploadKeyOk(url, secret)) return void refuse(403, 'open the URL printed in the terminal');
      const download = url.searchParams.get(DOWNLOAD_PARAM) === '1';
      return serveUpload(req, res, (p) => service.upload(p, download), rawPath, headers, download);
    }
    await serveStatic(req, res, opts.rendererDir, url.pathname, headers);
  }

  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => undefined);
    const pathname = new URL(req.url ?? '/', `http://127.0.0.1:${port}`).pathname;
    // Origin is required here: browsers always send it on a WebSocket, and a WebSocket is not
    // bound by the same-origin policy, so this check is what keeps other sites out.
    const ours = pathname === '/ws' && hostOk(req, port) && originOk(req, port, true);
    if (ours && !wsSecretOk(req, secret)) {
      // Our own page (its Origin), with a secret this run does not know: told so in a close code it
      // can read (a failed handshake looks to it like a host that is down), and nothing else.
      wss.handleUpgrade(req, socket, head, (ws) => ws.close(HOST_WS_REFUSED, 'not signed in to this host'));
      return;
    }
    if (!ours) {
      const body = 'forbidden';
      socket.end(`HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  const saved = loadSession(opts.dataDir);
  const listen = (p: number) =>
    new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(p, '127.0.0.1', () => {
        http.off('error', reject);
        resolve();
      });
    });
  if (opts.port === undefined && saved !== undefined) {
    // The last run's port, so an open page finds the host again; taken meanwhile: any free one.
    await listen(saved.port).catch(async (e: unknown) => {
      if (!(e instanceof Error && 'code' in e && e.code === 'EADDRINUSE')) throw e;
      await listen(0);
    });
  } else {
    await listen(opts.port ?? 0);
  }
  port = (http.address() as AddressInfo).port;
  secret = sessionSecret(opts.dataDir, port, saved);
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

const headerOf = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};
