/**
 * The engine service signed in to the reference server through a fault proxy, as the UI uses it:
 * the engine's clock runs from the server's (the realm's edit limits compare the two).
 */
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { silentEngineLogger, type EngineLogger } from '../../../sync/base/seams.js';
import type { EngineEvent, RpcResult } from '../../../sync/protocol/index.js';
import { EngineService, MemorySecretStore } from '../../../sync/service/index.js';
import { FaultProxy } from '../../support/fault-proxy.js';
import { startTestServer, type TestServer } from '../../server/harness.js';
import { quickSleep, until } from '../engine/session-helpers.js';

export async function signedInService(t: TestServer, who: string, logger: EngineLogger = silentEngineLogger) {
  const proxy = await FaultProxy.start(t.url, { maxStallMs: 2_000 });
  const base = t.clock.now();
  const started = Date.now();
  const seams = { logger, sleep: quickSleep, clock: { now: () => base + (Date.now() - started) } };
  const svc = new EngineService({ dataDir: ':memory:', secrets: new MemorySecretStore(), seams, timeoutMs: 3_000 });
  const events: EngineEvent[] = [];
  const client = svc.connect((e) => events.push(e));
  expect((await client.invoke('signIn', { realm_url: proxy.url, email: `${who}@example.com`, credentials: { password: 'sandbox' } })).ok).toBe(true);
  await until(() => svc.activeSession?.status.state === 'live', 10_000, 'live');
  const invoke = (name: string, payload: unknown = {}): Promise<RpcResult> => client.invoke(name, payload);
  const call = async (name: string, payload: unknown = {}): Promise<unknown> => {
    const r = await invoke(name, payload);
    if (!r.ok) throw new Error(`${name}: ${r.error.code} ${r.error.message}`);
    return r.value;
  };
  return { svc, client, events, proxy, invoke, call };
}

/**
 * A test file's server and the proxy of its current test's service. Live bindings: they change as
 * serviceSuite's hooks and signedIn run, and every test file has its own (vitest isolates modules).
 */
export let t: TestServer;
export let proxy: FaultProxy;

/** One reference server for the test file, and each test's proxy closed after it. */
export function serviceSuite(): void {
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());
  afterEach(() => proxy?.close());
}

/** The service signed in as a demo user on the suite's server; its proxy becomes `proxy`. */
export async function signedIn(who: string, logger?: EngineLogger) {
  const s = await signedInService(t, who, logger);
  proxy = s.proxy;
  return s;
}
