/**
 * Electron's `net.request` as electron-updater uses it (builder-util-runtime's HttpExecutor: options
 * `protocol`, `hostname`, `port`, `path`, `headers`, then `response`, `error`, `end()`, `abort()`),
 * over Node's http/https. A failed connection errs as Chromium's does (`net::ERR_CONNECTION_REFUSED`,
 * no Node `code`). Not Chromium's network stack: no system proxy, no session cache, and a redirect
 * is a 3xx response (as with `redirect: 'manual'`).
 */
import http from 'node:http';
import https from 'node:https';

const CHROMIUM: Record<string, string> = {
  ECONNREFUSED: 'net::ERR_CONNECTION_REFUSED',
  ECONNRESET: 'net::ERR_CONNECTION_RESET',
  ENOTFOUND: 'net::ERR_NAME_NOT_RESOLVED',
  ETIMEDOUT: 'net::ERR_TIMED_OUT',
};

function asChromiumError(e: unknown): unknown {
  const code = e instanceof Error ? (e as Error & { code?: string }).code : undefined;
  const text = code === undefined ? undefined : CHROMIUM[code];
  return text === undefined ? e : new Error(text);
}

export function netRequest(options: Electron.ClientRequestConstructorOptions | string): http.ClientRequest {
  const o = typeof options === 'string' ? { url: options } : options;
  const url = o.url === undefined ? undefined : new URL(o.url);
  const target: http.RequestOptions = {
    protocol: o.protocol ?? url?.protocol,
    hostname: o.hostname ?? url?.hostname,
    port: o.port ?? url?.port,
    path: o.path ?? (url ? `${url.pathname}${url.search}` : '/'),
    method: o.method ?? 'GET',
    headers: o.headers,
  };
  const request = (target.protocol === 'https:' ? https : http).request(target);
  const emit = request.emit;
  request.emit = function (this: http.ClientRequest, event: string | symbol, ...args: unknown[]) {
    return emit.call(this, event, ...(event === 'error' ? [asChromiumError(args[0])] : args));
  } as typeof request.emit;
  return request;
}
