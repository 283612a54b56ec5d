/**
 * Helpers for the browser-host tests: raw HTTP requests with full control of Host, Origin and the
 * path as sent (fetch normalises `..` and forbids Host), and WebSocket clients that report the
 * handshake's refusal status or the close code.
 */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { hostFrameSchema, type HostFrame } from '../../sync/protocol/rpc.js';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function get(port: number, rawPath: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: rawPath, method, headers: { host: `127.0.0.1:${port}`, ...headers }, timeout: 5_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end();
  });
}

/** A renderer directory with an index page and an asset, beside a file that must stay unreachable. */
export function fakeRenderer(): { root: string; rendererDir: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'zod-bhost-'));
  const rendererDir = path.join(root, 'renderer');
  mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>app</title><script type="module" src="/assets/app.js"></script>');
  writeFileSync(path.join(rendererDir, 'assets', 'app.js'), 'console.log("app");');
  writeFileSync(path.join(root, 'secret.txt'), 'TOP SECRET');
  symlinkSync(path.join(root, 'secret.txt'), path.join(rendererDir, 'assets', 'link.txt'));
  return { root, rendererDir };
}

/** What a sign-in link's landing page hands the tab: the secret and the uploads key (never a cookie). */
export interface SignedIn {
  readonly secret: string;
  readonly uploadKey: string;
  /** The landing response, for checks on its headers. */
  readonly landing: RawResponse;
}

/** Visit a sign-in link as a browser would; what its landing page carries. */
export async function signIn(url: string): Promise<SignedIn> {
  const u = new URL(url);
  const landing = await get(Number(u.port), `${u.pathname}${u.search}`);
  const m = /<meta name="zulip-offline-host" content="([0-9a-f]{64}) ([0-9a-f]{64})">/.exec(landing.body);
  if (landing.status !== 200 || !m) throw new Error(`no landing page: ${landing.status} ${landing.body.slice(0, 200)}`);
  return { secret: m[1]!, uploadKey: m[2]!, landing };
}

/** The subprotocols a signed-in page offers (sync/protocol/browser-host.ts). */
export const pageProtocols = (secret: string) => ['zulip-offline', `zulip-offline.${secret}`];

export type WsOutcome = { kind: 'open'; ws: WebSocket } | { kind: 'refused'; status: number };

/** Open a WebSocket to the host; resolves with the socket, or with the refusal's HTTP status. */
export function openWs(port: number, headers: Record<string, string>, wsPath = '/ws', protocols: string[] = []): Promise<WsOutcome> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${wsPath}`, protocols, { headers, handshakeTimeout: 5_000 });
    ws.once('open', () => resolve({ kind: 'open', ws }));
    ws.once('unexpected-response', (_req, res) => {
      resolve({ kind: 'refused', status: res.statusCode ?? 0 });
      res.resume();
      ws.terminate();
    });
    ws.once('error', reject);
  });
}

/** A connected page: invoke by name, collect pushed events, see how the socket closed. */
export class TestPage {
  readonly events: Extract<HostFrame, { type: 'event' }>['event'][] = [];
  closeCode: number | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, (f: Extract<HostFrame, { type: 'result' }>) => void>();

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data: WebSocket.RawData) => {
      const frame = hostFrameSchema.parse(JSON.parse(String(data)));
      if (frame.type === 'event') this.events.push(frame.event);
      else this.waiting.get(frame.id)?.(frame);
    });
    ws.on('close', (code) => (this.closeCode = code));
  }

  /** Send a raw text or binary frame. */
  send(data: string | Buffer): void {
    this.ws.send(data);
  }

  /** Send a raw frame and wait for the result frame with `id`. */
  raw(data: string, id: number): Promise<Extract<HostFrame, { type: 'result' }>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no result for ${id}`)), 5_000);
      this.waiting.set(id, (f) => {
        clearTimeout(timer);
        resolve(f);
      });
      this.ws.send(data);
    });
  }

  async invoke(name: string, request: unknown = {}): Promise<Extract<HostFrame, { type: 'result' }>['result']> {
    const id = this.nextId++;
    const frame = await this.raw(JSON.stringify({ type: 'invoke', id, name, request }), id);
    return frame.result;
  }

  closed(ms = 5_000): Promise<number> {
    if (this.closeCode !== undefined) return Promise.resolve(this.closeCode);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('socket did not close')), ms);
      this.ws.once('close', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  }
}
