/**
 * Plain-HTTP test harness for the reference server (deliberately not the client in sync/api):
 * start a demo server, then act as a demo user with `as('hamlet')`.
 */
import { ManualClock } from '../../server/clock.js';
import { getRealm, setRealmSettings, type RealmSettings } from '../../server/model/realm.js';
import { startServer, type RunningServer, type StartOptions } from '../../server/index.js';

export interface HttpResult {
  readonly status: number;
  readonly headers: Headers;
  /** The parsed JSON body (every answer of the server is JSON). */
  readonly json: Record<string, unknown> & { result?: string; msg?: string; code?: string };
}

export type ParamValue = string | number | boolean | null | readonly unknown[] | Record<string, unknown>;

/** Zulip's encoding: strings raw, everything else JSON. */
export function encode(params: Record<string, ParamValue | undefined>): string {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    out.append(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  return out.toString();
}

export interface Client {
  readonly email: string;
  readonly apiKey: string;
  get(path: string, params?: Record<string, ParamValue | undefined>): Promise<HttpResult>;
  post(path: string, params?: Record<string, ParamValue | undefined>): Promise<HttpResult>;
  patch(path: string, params?: Record<string, ParamValue | undefined>): Promise<HttpResult>;
  delete(path: string, params?: Record<string, ParamValue | undefined>): Promise<HttpResult>;
}

export interface TestServer {
  readonly server: RunningServer;
  readonly clock: ManualClock;
  readonly url: string;
  /** A client for a demo user, by name (`'hamlet'`) or email. */
  as(who: string): Client;
  /** Raw request: full control of method, path, headers and body. */
  raw(method: string, path: string, init?: { headers?: Record<string, string>; body?: string | Buffer }): Promise<HttpResult>;
  userId(who: string): number;
  close(): Promise<void>;
}

export const emailOf = (who: string) => (who.includes('@') ? who : `${who}@example.com`);

export async function startTestServer(opts: StartOptions = {}): Promise<TestServer> {
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 0, 0));
  const server = await startServer({
    demo: true,
    clock,
    schedulerIntervalMs: 0,
    ...opts,
    config: { rateLimit: false, longPollSeconds: 2, ...opts.config },
  });
  const raw: TestServer['raw'] = async (method, path, init = {}) => {
    const res = await fetch(`${server.url}/api/v1${path}`, { method, headers: init.headers, body: init.body });
    const text = await res.text();
    let json: HttpResult['json'];
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error(`non-JSON answer ${res.status} to ${method} ${path}: ${text.slice(0, 200)}`);
    }
    return { status: res.status, headers: res.headers, json };
  };
  const as = (who: string): Client => {
    const email = emailOf(who);
    const apiKey = server.apiKey(email);
    const auth = `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}`;
    const call = (method: string) => (path: string, params: Record<string, ParamValue | undefined> = {}) => {
      const body = encode(params);
      if (method === 'GET' || method === 'DELETE') {
        return raw(method, body ? `${path}?${body}` : path, { headers: { authorization: auth } });
      }
      return raw(method, path, { headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' }, body });
    };
    return { email, apiKey, get: call('GET'), post: call('POST'), patch: call('PATCH'), delete: call('DELETE') };
  };
  return {
    server,
    clock,
    url: server.url,
    as,
    raw,
    userId: (who) => {
      const id = server.state.db.prepare('SELECT id FROM users WHERE email = ?').pluck().get(emailOf(who));
      if (typeof id !== 'number') throw new Error(`no user ${who}`);
      return id;
    },
    close: () => server.close(),
  };
}

/** A channel's id by name (throws when there is none). */
export function channelId(t: TestServer, name: string): number {
  const id = t.server.state.db.prepare('SELECT id FROM channels WHERE name = ?').pluck().get(name);
  if (typeof id !== 'number') throw new Error(`no channel ${name}`);
  return id;
}

/** Runs `fn` with some realm settings changed, restoring the previous values afterwards. */
export async function withRealm(t: TestServer, changes: Partial<RealmSettings>, fn: () => Promise<void>): Promise<void> {
  const before = getRealm(t.server.state);
  const restore: Record<string, unknown> = {};
  for (const k of Object.keys(changes)) restore[k] = before[k as keyof RealmSettings];
  setRealmSettings(t.server.state, changes);
  try {
    await fn();
  } finally {
    setRealmSettings(t.server.state, restore as Partial<RealmSettings>);
  }
}
