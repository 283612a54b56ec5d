/**
 * An outbox wired to the reference server through a fault proxy: a real store with the given kinds,
 * the real pusher on a fake clock, and an `ApiConnection` as the given demo user. The proxy's log
 * counts requests. Shared by every mutation-kind test.
 */
import { ALL_KINDS } from '../../../sync/outbox/registry.js';
import { ApiConnection } from '../../../sync/api/index.js';
import { openLocalDb, type LocalDb } from '../../../sync/db/open.js';
import { KindRegistry, type KindContext, type RuntimeKind } from '../../../sync/outbox/kinds.js';
import { OutboxPusher } from '../../../sync/outbox/pusher.js';
import { OutboxStore } from '../../../sync/outbox/store.js';
import { FaultProxy } from '../../support/fault-proxy.js';
import { startTestServer, type TestServer } from '../../server/harness.js';
import { fakeTime } from './helpers.js';

export interface Env {
  readonly t: TestServer;
  readonly proxy: FaultProxy;
  readonly conn: ApiConnection;
  readonly db: LocalDb;
  readonly store: OutboxStore;
  readonly time: ReturnType<typeof fakeTime>;
  /** Start a pusher, wait until nothing is runnable, stop it. */
  drain(): Promise<void>;
  /** Requests that went through the proxy to paths matching `re` (method included, e.g. `POST /api/v1/...`). */
  requests(re: RegExp): number;
  close(): Promise<void>;
}

export interface EnvOptions {
  readonly kinds: readonly RuntimeKind[];
  /** The demo user the client acts as. */
  readonly email: string;
  /** Reuse a running server (closed by its owner, not by the env). */
  readonly server?: TestServer;
  /** What the session would offer the kinds (none by default). */
  readonly context?: KindContext;
}

export async function outboxEnv(opts: EnvOptions): Promise<Env> {
  const t = opts.server ?? (await startTestServer());
  const proxy = await FaultProxy.start(t.url, { maxStallMs: 2_000 });
  const email = opts.email;
  const conn = new ApiConnection({ realmUrl: proxy.url, email, apiKey: t.server.apiKey(email), logger: { warn: () => undefined }, timeoutMs: 2_000 });
  const db = openLocalDb(':memory:');
  // The local clock starts at the server's (ManualClock) time, as a synchronized client would.
  const time = fakeTime(t.clock.now());
  const store = new OutboxStore(db, new KindRegistry(opts.kinds), { now: time.now });
  return {
    t,
    proxy,
    conn,
    db,
    store,
    time,
    async drain() {
      const p = new OutboxPusher({ store, conn, seams: time.seams, concurrency: 4, ...(opts.context ? { context: opts.context } : {}) });
      p.start();
      await p.idle();
      await p.stop();
    },
    requests: (re) => proxy.log.filter((l) => re.test(`${l.method} ${l.path}`)).length,
    async close() {
      await conn.close();
      await proxy.close();
      if (!opts.server) await t.close();
      db.close();
    },
  };
}

/** Every kind, acting as iago (an administrator, so group and realm kinds are allowed). */
export const personalEnv = () => outboxEnv({ kinds: ALL_KINDS, email: 'iago@example.com' });

/** The kind registered under `name`, for enqueue. */
export function kindOf(store: OutboxStore, name: string) {
  const k = store.kinds.get(name, 1);
  if (!k) throw new Error(`kind ${name} not registered`);
  return k;
}
