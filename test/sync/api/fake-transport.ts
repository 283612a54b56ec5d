/**
 * A recording fake transport for route tests: every request is captured with its method, path,
 * query and body parameters decoded, and answered from a queue of canned responses.
 */
import { ApiConnection, type ConnectionOptions } from '../../../sync/api/core.js';
import type { HttpRequest, HttpResponse, Transport } from '../../../sync/api/transport.js';

export interface RecordedRequest {
  readonly method: string;
  /** Path below `/api/v1`, still percent-encoded. */
  readonly path: string;
  /** Decoded query-string parameters (raw strings, as the server would read them). */
  readonly query: Record<string, string>;
  /** Decoded form-body parameters. */
  readonly body: Record<string, string>;
  readonly headers: Readonly<Record<string, string>>;
  readonly rawBody: string | undefined;
}

export type CannedResponse =
  | { status?: number; json: unknown; headers?: Record<string, string> }
  | { status: number; text: string; headers?: Record<string, string> };

export interface FakeServer {
  readonly conn: ApiConnection;
  readonly calls: RecordedRequest[];
  /** Queue the next answer (FIFO). Without a queued answer the fake replies `{result:"success",msg:""}`. */
  reply(r: CannedResponse): void;
  /** The single request made so far (fails the test if there were none or several). */
  only(): RecordedRequest;
}

export const REALM = 'https://chat.example.com';

function decode(s: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(s)) out[k] = v;
  return out;
}

export function recordRequest(req: HttpRequest): RecordedRequest {
  const url = new URL(req.url);
  const prefix = '/api/v1';
  const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname;
  return {
    method: req.method,
    path,
    query: decode(url.search),
    body: typeof req.body === 'string' ? decode(req.body) : {},
    headers: req.headers,
    rawBody: typeof req.body === 'string' || req.body === undefined ? req.body : req.body.toString('latin1'),
  };
}

export function fakeServer(opts: Partial<ConnectionOptions> = {}): FakeServer {
  const calls: RecordedRequest[] = [];
  const queue: CannedResponse[] = [];
  const transport: Transport = async (req): Promise<HttpResponse> => {
    calls.push(recordRequest(req));
    const r = queue.shift() ?? { json: { result: 'success', msg: '' } };
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(r.headers ?? {})) headers[k.toLowerCase()] = v;
    if ('json' in r) {
      return { status: r.status ?? 200, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(r.json) };
    }
    return { status: r.status, headers, body: r.text };
  };
  const conn = new ApiConnection({
    realmUrl: REALM,
    email: 'hamlet@example.com',
    apiKey: 'key123',
    transport,
    logger: { warn: () => undefined },
    ...opts,
  });
  return {
    conn,
    calls,
    reply: (r) => queue.push(r),
    only: () => {
      if (calls.length !== 1) throw new Error(`expected exactly one request, saw ${calls.length}`);
      return calls[0]!;
    },
  };
}

/** `{result:"success",msg:"",...extra}` */
export function ok(extra: Record<string, unknown> = {}): CannedResponse {
  return { json: { result: 'success', msg: '', ...extra } };
}
