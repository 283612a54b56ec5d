/**
 * A fault-injecting loopback HTTP proxy for outbox tests: the client talks to the proxy, the proxy
 * forwards to the reference server, and on the way it breaks things the way real networks do.
 *
 *   reset       the connection is reset before anything is forwarded (nothing applied)
 *   drop        forwarded, the server applied it, then the answer is lost (socket destroyed):
 *               the case that makes naive clients post duplicates
 *   error500    a 500 JSON envelope without forwarding (nothing applied)
 *   rate_limit  429 with a fractional `Retry-After` header and `retry-after` body field; drawn by the
 *               plan it starts a burst: the next `burst - 1` requests are rate limited too
 *   stall       the answer is held until the client gives up (or `maxStallMs`, or close()); with
 *               `apply` the request is forwarded first, so the server applied it anyway
 *   answer      a canned answer (status, body, content type) in place of the server's: with
 *               `apply` the request is forwarded first (a gateway's 502/504 or an HTML page after
 *               the server committed), without it nothing is applied (the app's own 503 envelope)
 *   truncate    forwarded and applied; the server's answer is cut to its first half (a complete
 *               HTTP message with a short content-length: the client sees truncated JSON)
 *   endless     forwarded and applied; then a 200 JSON answer that never ends (chunked, written as
 *               fast as the client reads) until the client hangs up or the proxy closes;
 *               `endlessBytes` counts what was written
 *
 * Faults come from per-request rules first (in the order added, each used `times` times), then
 * from a seeded plan, else the request passes through. `pause()` simulates going offline: the port
 * stops listening (connections are refused) and open connections are destroyed.
 *
 * Requests and answers are buffered whole: test traffic is small and a whole body makes "forward,
 * then drop" exact. Every timer and socket is tracked and released by `close()`.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { seededRandom, type Random } from '../../sync/base/seams.js';

export type Fault =
  | { readonly kind: 'reset' }
  | { readonly kind: 'drop' }
  | { readonly kind: 'error500' }
  | { readonly kind: 'rate_limit'; readonly retryAfterSeconds: number }
  | { readonly kind: 'stall'; readonly apply: boolean }
  | { readonly kind: 'answer'; readonly apply: boolean; readonly status: number; readonly body: string; readonly headers?: Readonly<Record<string, string>> }
  | { readonly kind: 'truncate' }
  | { readonly kind: 'endless' }
  /** The server applied it, then a gateway answered 502 or 504 with an HTML page (planned). */
  | { readonly kind: 'gateway'; readonly status: 502 | 504 };

export type FaultKind = Fault['kind'];
/** The kinds a seeded plan draws (the others need a rule saying what to answer). */
export type PlannedKind = Exclude<FaultKind, 'answer' | 'endless'>;
export type Outcome = FaultKind | 'pass';

export interface RequestInfo {
  readonly method: string;
  /** Path and query as received, e.g. `/api/v1/messages/42`. */
  readonly path: string;
}

export type Match = ((req: RequestInfo) => boolean) | { readonly method?: string; readonly path?: string | RegExp };

export interface PlanOptions {
  /** Length of a 429 burst started by the plan. Default 3. */
  readonly burst?: number;
  /** `Retry-After` of planned 429s, in seconds (fractional on purpose). Default 0.05. */
  readonly retryAfterSeconds?: number;
  /** Whether planned stalls forward the request first. Default true (the harder case). */
  readonly stallApplies?: boolean;
}

export interface ProxyLogEntry extends RequestInfo {
  readonly outcome: Outcome;
  /** The request body as text, once read (tests check what a retry actually sent). */
  body?: string;
}

export interface FaultProxyOptions {
  /** Upper bound on a stall, so a client without a deadline cannot hang a test. Default 10 s. */
  readonly maxStallMs?: number;
}

interface Rule {
  readonly match: Match;
  readonly fault: Fault;
  remaining: number;
}

// Headers that describe one hop, not the message; the proxy sets its own.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade', 'proxy-connection']);

export class FaultProxy {
  private readonly server: http.Server;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly rules: Rule[] = [];
  private plan: { random: Random; probabilities: Partial<Record<PlannedKind, number>>; options: PlanOptions } | undefined;
  private burstLeft = 0;
  private burstRetryAfter = 0;
  private gatewayFlip = false;
  private port = 0;
  private paused = false;
  private closed = false;
  readonly counts: Record<Outcome, number> = { pass: 0, reset: 0, drop: 0, error500: 0, rate_limit: 0, stall: 0, answer: 0, truncate: 0, endless: 0, gateway: 0 };
  /** Bytes written by `endless` answers so far. */
  endlessBytes = 0;
  readonly log: ProxyLogEntry[] = [];

  private constructor(
    private readonly target: URL,
    private readonly maxStallMs: number,
  ) {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  /** Starts a proxy on 127.0.0.1 (a free port) forwarding to `targetBaseUrl`. */
  static async start(targetBaseUrl: string, opts: FaultProxyOptions = {}): Promise<FaultProxy> {
    const p = new FaultProxy(new URL(targetBaseUrl), opts.maxStallMs ?? 10_000);
    await p.listen(0);
    return p;
  }

  /** The base URL clients use instead of the target's. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Every request draws its fault with these probabilities (the rest pass), deterministically. */
  setPlan(seed: number, probabilities: Partial<Record<PlannedKind, number>>, options: PlanOptions = {}): void {
    const total = Object.values(probabilities).reduce((a, b) => a + b, 0);
    if (total > 1) throw new Error(`fault probabilities add up to ${total} > 1`);
    this.plan = { random: seededRandom(seed), probabilities, options };
    this.burstLeft = 0;
  }

  clearPlan(): void {
    this.plan = undefined;
  }

  /** The next `times` requests matching `match` get `fault` (before the plan is consulted). */
  rule(match: Match, fault: Fault, times = Number.POSITIVE_INFINITY): void {
    this.rules.push({ match, fault, remaining: times });
  }

  clearRules(): void {
    this.rules.length = 0;
  }

  /** Offline: stop listening (new connections are refused) and cut the open ones. */
  async pause(): Promise<void> {
    if (this.paused || this.closed) return;
    this.paused = true;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.cutEverything();
    await closed;
  }

  /** Back online on the same port, so clients keep their base URL. */
  async resume(): Promise<void> {
    if (!this.paused || this.closed) return;
    await this.listen(this.port);
    this.paused = false;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const closed = this.paused ? Promise.resolve() : new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.cutEverything();
    this.agent.destroy();
    await closed;
  }

  private listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.server.off('error', reject);
        this.port = (this.server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  private cutEverything(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  private choose(info: RequestInfo): Fault | undefined {
    for (const r of this.rules) {
      if (r.remaining > 0 && matches(r.match, info)) {
        r.remaining--;
        return r.fault;
      }
    }
    if (!this.plan) return undefined;
    const { random, probabilities, options } = this.plan;
    if (this.burstLeft > 0) {
      this.burstLeft--;
      return { kind: 'rate_limit', retryAfterSeconds: this.burstRetryAfter };
    }
    // One draw per request whatever the outcome, so a seed replays the same sequence.
    let x = random();
    for (const kind of ['reset', 'drop', 'error500', 'rate_limit', 'stall', 'gateway', 'truncate'] as const) {
      const p = probabilities[kind] ?? 0;
      if (x < p) return this.planned(kind, options);
      x -= p;
    }
    return undefined;
  }

  private planned(kind: PlannedKind, options: PlanOptions): Fault {
    switch (kind) {
      case 'rate_limit':
        this.burstRetryAfter = options.retryAfterSeconds ?? 0.05;
        this.burstLeft = Math.max(0, (options.burst ?? 3) - 1);
        return { kind, retryAfterSeconds: this.burstRetryAfter };
      case 'stall':
        return { kind, apply: options.stallApplies ?? true };
      case 'gateway':
        return { kind, status: (this.gatewayFlip = !this.gatewayFlip) ? 502 : 504 };
      default:
        return { kind };
    }
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const info: RequestInfo = { method: req.method ?? 'GET', path: req.url ?? '/' };
    const fault = this.choose(info);
    const outcome: Outcome = fault?.kind ?? 'pass';
    this.counts[outcome]++;
    const entry: ProxyLogEntry = { ...info, outcome };
    this.log.push(entry);
    try {
      const body = await readAll(req);
      entry.body = body.toString('utf8');
      switch (fault?.kind) {
        case 'reset':
          req.socket.resetAndDestroy();
          return;
        case 'error500':
          return sendJson(res, 500, { result: 'error', msg: 'Internal server error (injected by the fault proxy)' });
        case 'rate_limit': {
          const s = fault.retryAfterSeconds;
          const envelope = { result: 'error', code: 'RATE_LIMIT_HIT', msg: 'API usage exceeded rate limit', 'retry-after': s };
          return sendJson(res, 429, envelope, { 'retry-after': String(s) });
        }
        case 'stall':
          if (fault.apply) await this.forward(req, body);
          return this.hold(res);
        case 'answer': {
          if (fault.apply) await this.forward(req, body);
          res.writeHead(fault.status, { 'content-type': 'text/html; charset=utf-8', ...fault.headers, 'content-length': Buffer.byteLength(fault.body) });
          return void res.end(fault.body);
        }
        case 'gateway': {
          await this.forward(req, body);
          const page = `<html><body><h1>${fault.status} ${fault.status === 502 ? 'Bad Gateway' : 'Gateway Timeout'}</h1></body></html>`;
          res.writeHead(fault.status, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(page) });
          return void res.end(page);
        }
        case 'endless':
          await this.forward(req, body);
          return this.endless(res);
        case 'truncate': {
          const up = await this.forward(req, body);
          const cut = up.body.subarray(0, Math.floor(up.body.length / 2));
          res.writeHead(up.status, { ...up.headers, 'content-length': cut.length });
          return void res.end(cut);
        }
      }
      const upstream = await this.forward(req, body);
      // Drop: the server applied the request; only the answer is lost.
      if (fault?.kind === 'drop') return void req.socket.destroy();
      res.writeHead(upstream.status, upstream.headers);
      res.end(upstream.body);
    } catch (e) {
      // The upstream failed or the client went away: the client sees a cut connection, as it would.
      if (!this.closed) req.socket.destroy(e instanceof Error ? e : undefined);
    }
  }

  /** A 200 that never ends: written as fast as the client reads, until it hangs up or close(). */
  private endless(res: http.ServerResponse): void {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 'x');
    res.write('{"result":"success","msg":"","padding":"');
    const pump = () => {
      while (!res.destroyed && !this.closed) {
        this.endlessBytes += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
    };
    pump();
  }

  /** Keeps the response open until the client gives up, `maxStallMs` passes or the proxy closes. */
  private hold(res: http.ServerResponse): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      res.socket?.destroy();
    }, this.maxStallMs);
    this.timers.add(timer);
    res.on('close', () => {
      clearTimeout(timer);
      this.timers.delete(timer);
    });
  }

  /** The target base URL's own path (if any) prefixed to the request's. */
  private targetPath(url: string | undefined): string {
    return `${this.target.pathname.replace(/\/+$/, '')}${url ?? '/'}`;
  }

  private forward(req: http.IncomingMessage, body: Buffer): Promise<{ status: number; headers: http.OutgoingHttpHeaders; body: Buffer }> {
    const headers: http.OutgoingHttpHeaders = {};
    for (const [k, v] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(k) && k !== 'host') headers[k] = v;
    headers.host = this.target.host;
    headers['content-length'] = body.length;
    return new Promise((resolve, reject) => {
      const up = http.request(
        { host: this.target.hostname, port: this.target.port, method: req.method, path: this.targetPath(req.url), headers, agent: this.agent },
        (r) => {
          readAll(r).then((b) => {
            const out: http.OutgoingHttpHeaders = {};
            for (const [k, v] of Object.entries(r.headers)) if (!HOP_BY_HOP.has(k) && v !== undefined) out[k] = v;
            out['content-length'] = b.length;
            resolve({ status: r.statusCode ?? 502, headers: out, body: b });
          }, reject);
        },
      );
      up.on('error', reject);
      up.end(body);
    });
  }
}

function matches(m: Match, info: RequestInfo): boolean {
  if (typeof m === 'function') return m(info);
  if (m.method !== undefined && m.method.toUpperCase() !== info.method) return false;
  if (m.path === undefined) return true;
  return typeof m.path === 'string' ? info.path.split('?')[0] === m.path : m.path.test(info.path);
}

async function readAll(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c);
  return Buffer.concat(chunks);
}

function sendJson(res: http.ServerResponse, status: number, body: Record<string, unknown>, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...extra });
  res.end(text);
}
