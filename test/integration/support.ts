/**
 * The suite of an integration test file: one reference server, and the `sync/api` connections the
 * tests open on it, closed before the server. `t` is a live binding set by the suite's first hook;
 * files run one after another in a worker share this module (vitest.config.ts), so each suite
 * closes and forgets its own connections.
 */
import { afterAll, beforeAll } from 'vitest';
import { ApiConnection } from '../../sync/api/index.js';
import { startTestServer, type TestServer } from '../server/harness.js';

export let t: TestServer;
/** Connections to close with the suite (tests may add their own). */
export const conns: ApiConnection[] = [];

export function apiSuite(): void {
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    for (const c of conns.splice(0)) await c.close();
    await t.close();
  });
}

/** A connection as a demo user, closed with the suite. */
export function connect(who: string): ApiConnection {
  const email = `${who}@example.com`;
  const c = new ApiConnection({ realmUrl: t.url, email, apiKey: t.server.apiKey(email), logger: { warn: () => undefined }, timeoutMs: 10_000 });
  conns.push(c);
  return c;
}
