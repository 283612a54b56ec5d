/**
 * How the engine reaches servers (issue #22 item 4): through which proxy, and which certificates
 * it trusts beyond the system's.
 *
 *   proxy  `direct`; `system`: in Electron the operating system's settings (`useSystemProxyResolver`),
 *          elsewhere the environment's HTTPS_PROXY / HTTP_PROXY / NO_PROXY; `manual`: one
 *          proxy URL (http:// or https://, credentials in the URL) with hosts that bypass it;
 *          `pac`: a proxy auto-config file fetched from its URL and run in a sandbox for each
 *          origin (`FindProxyForURL`), its first answer used (PROXY / HTTPS / DIRECT).
 *   certificates  PEM certificates trusted on top of the system's roots: an organisation's own
 *          CA, or one server's self-signed certificate the person agreed to trust after seeing its
 *          SHA-256 fingerprint (`peekCertificate`). Host names are still checked.
 *
 * `describeConnectFailure` turns what a failed connection threw into the cause in words
 * ("certificate not trusted", "proxy refused"), so no one is told only that a server could not be
 * reached when it was the certificate or the proxy.
 */
import { X509Certificate } from 'node:crypto';
import net from 'node:net';
import tls from 'node:tls';
import vm from 'node:vm';
import type { Dispatcher } from 'undici';
import { DEFAULT_NETWORK, type CertificateInfo, type NetworkSettings, type TrustedCertificate } from '../../common/network-settings.js';

export { DEFAULT_NETWORK, type CertificateInfo, type NetworkSettings, type TrustedCertificate };

/**
 * undici, loaded on the first request rather than with the engine: its modules are a fifth of a
 * cold start's work before the first page, which needs no network (bench/cold-start.bench.ts).
 * Imported by name (not bundled), so the app's main bundle keeps the import lazy too.
 */
export type Undici = typeof import('undici');
export const loadUndici = (): Promise<Undici> => import('undici');

/** Parse PEM text (one certificate); throws with a reason a person can act on. */
export function certificateFromPem(pem: string, origin: string | null): TrustedCertificate {
  let x: X509Certificate;
  try {
    x = new X509Certificate(pem);
  } catch {
    throw new Error('this is not a PEM certificate (-----BEGIN CERTIFICATE----- …)');
  }
  return { origin, pem: x.toString(), fingerprint: x.fingerprint256, subject: x.subject.replace(/\n/g, ', ') };
}

export interface DispatcherOptions {
  readonly connections: number;
  readonly keepAliveTimeout: number;
  readonly keepAliveMaxTimeout: number;
  readonly headersTimeout: number;
  readonly bodyTimeout: number;
}

/**
 * How this process asks the system's own proxy settings, when it can: Electron's
 * `session.resolveProxy(url)`, which answers in PAC form ("PROXY host:port; DIRECT") from the OS
 * settings (macOS and Windows network preferences, GNOME/KDE, or a system PAC file). Without one
 * (browser-mode host, tests), `system` means the environment's HTTPS_PROXY / NO_PROXY.
 */
let systemProxyResolver: ((url: string) => Promise<string>) | undefined;

/** Set (or clear) how `system` proxy mode asks the operating system; read at each new origin's first request. */
export function useSystemProxyResolver(resolve: ((url: string) => Promise<string>) | undefined): void {
  systemProxyResolver = resolve;
}

/** Loopback servers are reached directly without a system resolver (the environment's proxy would not know them). */
const isLoopback = (host: string) => /^(localhost|127(?:\.\d+){3}|\[?::1\]?)$/i.test(host);

/** The undici dispatcher these settings describe. */
export function networkDispatcher(u: Undici, settings: NetworkSettings, base: DispatcherOptions): Dispatcher {
  const { Agent, EnvHttpProxyAgent, ProxyAgent } = u;
  const RoutingDispatcher = routingDispatcherOf(u);
  const ca = settings.certificates.length > 0 ? [...tls.rootCertificates, ...settings.certificates.map((c) => c.pem)] : undefined;
  const tlsOpts = ca ? { ca } : {};
  // Routes: DIRECT, ENV (the environment's proxy), or a proxy URL.
  const make = (route: string): Dispatcher =>
    route === 'DIRECT'
      ? new Agent({ ...base, connect: tlsOpts })
      : route === 'ENV'
        ? new EnvHttpProxyAgent({ ...base, connect: tlsOpts, requestTls: tlsOpts, proxyTls: tlsOpts })
        : // Plain http:// requests are forwarded (many proxies allow CONNECT to port 443 only); TLS is tunnelled.
          new ProxyAgent({ ...base, uri: route, proxyTunnel: false, requestTls: tlsOpts, proxyTls: tlsOpts });
  const p = settings.proxy;
  const hostOf = (origin: string) => new URL(origin).hostname;
  switch (p.mode) {
    case 'direct':
      return make('DIRECT');
    case 'system':
      return new RoutingDispatcher(async (origin) => {
        // The system's own answer already leaves out what it bypasses (loopback included).
        if (systemProxyResolver) return firstRoute(await systemProxyResolver(`${origin}/`), new URL(origin).protocol);
        return isLoopback(hostOf(origin)) ? 'DIRECT' : 'ENV';
      }, make);
    case 'manual': {
      const bypass = bypassList(p.bypass);
      return new RoutingDispatcher((origin) => (bypasses(bypass, hostOf(origin)) ? 'DIRECT' : p.url), make);
    }
    case 'pac': {
      const pac = new PacScript(p.url);
      return new RoutingDispatcher((origin) => pac.route(origin), make);
    }
  }
}

function bypassList(text: string): string[] {
  return text
    .split(/[,;\s]+/)
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '');
}

/** `example.com` matches it and its subdomains; `*.example.com` and `.example.com` the subdomains; `<local>` plain host names. */
function bypasses(list: readonly string[], host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return list.some((p) => (p === '<local>' ? !h.includes('.') : p.startsWith('*.') || p.startsWith('.') ? h.endsWith(p.replace(/^\*/, '')) : h === p || h.endsWith(`.${p}`)));
}

/** The class below, made once undici is loaded (it extends undici's `Dispatcher`). */
const routingDispatcherOf = (u: Undici) => (routingDispatcher ??= routingDispatcherClass(u));
let routingDispatcher: ReturnType<typeof routingDispatcherClass> | undefined;
/**
 * Sends each request through the dispatcher its origin's route names (looked up once per origin;
 * a failed lookup is asked again). Dispatchers are made once per route and kept.
 */
const routingDispatcherClass = (u: Undici) =>
class RoutingDispatcher extends u.Dispatcher {
  private readonly made = new Map<string, Dispatcher>();
  private readonly routes = new Map<string, Promise<string>>();
  constructor(
    private readonly routeOf: (origin: string) => string | Promise<string>,
    private readonly make: (route: string) => Dispatcher,
  ) {
    super();
  }

  private dispatcherFor(route: string): Dispatcher {
    let d = this.made.get(route);
    if (!d) {
      d = this.make(route);
      this.made.set(route, d);
    }
    return d;
  }

  override dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const origin = String(opts.origin ?? '');
    let route = this.routes.get(origin);
    if (!route) {
      route = Promise.resolve().then(() => this.routeOf(origin));
      this.routes.set(origin, route);
      // A failed lookup (a PAC file that cannot be read) is asked again next time.
      route.catch(() => this.routes.delete(origin));
    }
    route.then(
      (r) => this.dispatcherFor(r).dispatch(opts, handler),
      // No request was made: the (legacy) error callback undici's request() listens on.
      (e: unknown) => handler.onError?.(e instanceof Error ? e : new Error(String(e))),
    );
    return true;
  }

  override async close(): Promise<void> {
    await Promise.all([...this.made.values()].map((d) => d.close()));
  }

  override async destroy(): Promise<void> {
    await Promise.all([...this.made.values()].map((d) => d.destroy()));
  }
};

/** A proxy auto-config file: fetched once (direct), run in a fresh V8 context with Netscape's helper functions. */
class PacScript {
  private fn: Promise<(url: string, host: string) => unknown> | undefined;
  constructor(private readonly url: string) {}

  async route(origin: string): Promise<string> {
    this.fn ??= this.load().catch((e: unknown) => {
      this.fn = undefined;
      throw e;
    });
    const find = await this.fn;
    const u = new URL(origin);
    return firstRoute(String(find(`${origin}/`, u.hostname)), u.protocol);
  }

  private async load(): Promise<(url: string, host: string) => unknown> {
    const text = await readPac(this.url);
    return compilePac(text);
  }
}

async function readPac(url: string): Promise<string> {
  if (url.startsWith('file://')) {
    const { readFile } = await import('node:fs/promises');
    return readFile(new URL(url), 'utf8');
  }
  const { Agent, request } = await loadUndici();
  const agent = new Agent({ connections: 1 });
  try {
    const res = await request(url, { dispatcher: agent, signal: AbortSignal.timeout(10_000) });
    const body = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`the PAC file answered HTTP ${res.statusCode}`);
    if (body.length > 1_000_000) throw new Error('the PAC file is over 1 MB');
    return body;
  } finally {
    await agent.close();
  }
}

/** The PAC file's `FindProxyForURL`, run with the standard helpers and nothing else (no require, no network but `dnsResolve`). */
export function compilePac(text: string): (url: string, host: string) => unknown {
  const sandbox: Record<string, unknown> = {
    isPlainHostName: (h: string) => !h.includes('.'),
    dnsDomainIs: (h: string, d: string) => h.toLowerCase().endsWith(d.toLowerCase()),
    localHostOrDomainIs: (h: string, d: string) => h === d || (!h.includes('.') && d.startsWith(`${h}.`)),
    isResolvable: () => true,
    isInNet: (h: string, pattern: string, mask: string) => ipInNet(h, pattern, mask),
    dnsResolve: (h: string) => (/^\d+\.\d+\.\d+\.\d+$/.test(h) ? h : null),
    myIpAddress: () => '127.0.0.1',
    dnsDomainLevels: (h: string) => h.split('.').length - 1,
    shExpMatch: (s: string, p: string) => new RegExp(`^${p.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`).test(s),
    weekdayRange: () => true,
    dateRange: () => true,
    timeRange: () => true,
  };
  const ctx = vm.createContext(sandbox, { codeGeneration: { strings: false, wasm: false } });
  vm.runInContext(text, ctx, { timeout: 1_000, filename: 'proxy.pac' });
  const find = sandbox['FindProxyForURL'];
  if (typeof find !== 'function') throw new Error('the PAC file defines no FindProxyForURL');
  return (url, host) => vm.runInContext('FindProxyForURL(__url, __host)', Object.assign(ctx, { __url: url, __host: host }), { timeout: 1_000 });
}

function ipInNet(host: string, pattern: string, mask: string): boolean {
  const n = (s: string) => s.split('.').reduce((a, b) => (a << 8) + (Number(b) & 255), 0) >>> 0;
  if (!/^\d+\.\d+\.\d+\.\d+$/.test(host)) return false;
  return (n(host) & n(mask)) >>> 0 === (n(pattern) & n(mask)) >>> 0;
}

/** The first usable entry of a PAC answer ("PROXY a:1; DIRECT") as a route. */
export function firstRoute(answer: string, _protocol: string): string {
  for (const part of answer.split(';')) {
    const [kind = '', where = ''] = part.trim().split(/\s+/);
    const k = kind.toUpperCase();
    if (k === 'DIRECT') return 'DIRECT';
    if ((k === 'PROXY' || k === 'HTTP') && where !== '') return `http://${where}`;
    if (k === 'HTTPS' && where !== '') return `https://${where}`;
  }
  return 'DIRECT';
}

const CERT_CODES: Readonly<Record<string, string>> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'the certificate chain ends in a self-signed certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the certificate is signed by an authority this computer does not know',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the certificate is signed by an authority this computer does not know',
  UNABLE_TO_GET_ISSUER_CERT: 'the certificate is signed by an authority this computer does not know',
  CERT_HAS_EXPIRED: 'the certificate has expired',
  CERT_NOT_YET_VALID: 'the certificate is not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the certificate is for another host name',
  CERT_REVOKED: 'the certificate was revoked',
};

export type ConnectFailure = { readonly kind: 'certificate'; readonly code: string; readonly reason: string } | { readonly kind: 'proxy'; readonly reason: string };

/** What a failed connection's error (or its causes) says in words; undefined: neither the certificate nor the proxy. */
export function describeConnectFailure(e: unknown): ConnectFailure | undefined {
  const chain: Array<{ code: string; message: string }> = [];
  for (let cur: unknown = e, depth = 0; depth < 5 && typeof cur === 'object' && cur !== null; depth++) {
    chain.push({ code: 'code' in cur && typeof cur.code === 'string' ? cur.code : '', message: cur instanceof Error ? cur.message : '' });
    cur = 'cause' in cur ? cur.cause : undefined;
  }
  for (const { code, message } of chain) {
    const reason = CERT_CODES[code];
    if (reason !== undefined) return { kind: 'certificate', code, reason };
    const status = /Proxy response \((\d+)\)/.exec(message)?.[1];
    if (status !== undefined) return { kind: 'proxy', reason: status === '407' ? 'the proxy asks for a user name and password' : `the proxy refused the connection (HTTP ${status})` };
    if (/PAC file/.test(message)) return { kind: 'proxy', reason: message };
  }
  const deepest = chain.at(-1);
  if (chain.some((c) => c.code === 'UND_ERR_PRX_TLS' || /proxy/i.test(c.message))) return { kind: 'proxy', reason: `the proxy could not be used (${deepest?.message ?? ''})` };
  return undefined;
}

/** Connect to a server without trusting it and read its certificate, for the person to decide (direct, never through a proxy). */
export function peekCertificate(origin: string, settings: NetworkSettings = DEFAULT_NETWORK, timeoutMs = 10_000): Promise<CertificateInfo> {
  const u = new URL(origin);
  if (u.protocol !== 'https:') return Promise.reject(new Error('only an https:// server has a certificate'));
  const port = Number(u.port || 443);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const ca = settings.certificates.length > 0 ? [...tls.rootCertificates, ...settings.certificates.map((c) => c.pem)] : undefined;
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host, port, servername: /^[\d.:]+$/.test(host) ? undefined : host, rejectUnauthorized: false, ...(ca ? { ca } : {}) });
    const timer = setTimeout(() => socket.destroy(new Error(`no answer from ${origin} within ${timeoutMs} ms`)), timeoutMs);
    socket.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      const peer = socket.getPeerX509Certificate();
      const authError = socket.authorizationError;
      socket.end();
      if (!peer) return reject(new Error('the server sent no certificate'));
      const named = net.isIP(host) ? peer.checkIP(host) !== undefined : peer.checkHost(host) !== undefined;
      const problem = authError ? String(authError) : named ? null : 'ERR_TLS_CERT_ALTNAME_INVALID';
      resolve({ pem: peer.toString(), fingerprint: peer.fingerprint256, subject: peer.subject.replace(/\n/g, ', '), issuer: peer.issuer.replace(/\n/g, ', '), valid_from: peer.validFrom, valid_to: peer.validTo, problem });
    });
  });
}

/** Words for a `CertificateInfo.problem`. */
export function certificateProblemText(code: string): string {
  return CERT_CODES[code] ?? code;
}
