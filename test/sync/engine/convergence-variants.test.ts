/**
 * Convergence variants (convergence-run.ts): the same seeded 1,000-action scenario, interrupted
 * half way by (1) the event queue expiring while the session is stopped, (2) the server
 * restarting on the same data file, (3) the client restarting on the same database.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AccountSession } from '../../../sync/engine/session.js';
import { startTestServer, type TestServer } from '../../server/harness.js';
import { caughtUp, compareNarrows, OpenViews, seededNarrows, type WireNarrow } from './convergence-run.js';
import { Scenario } from './scenario.js';
import { openSession, tempDir, until } from './session-helpers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

type Interruption = 'queue expired' | 'server restart' | 'client restart';

async function run(kind: Interruption, seed: number): Promise<void> {
  const d = tempDir();
  cleanups.push(d.cleanup);
  const dataPath = `${d.dir}/server.sqlite`;
  let t: TestServer = await startTestServer({ dataPath });
  const port = t.server.port;
  cleanups.push(() => t.close());
  let s: AccountSession = openSession(t, `${d.dir}/client`);
  cleanups.push(() => s.close());
  s.start();
  await until(() => s.status.state === 'live', 10_000, 'live');

  const scenario = new Scenario(t, seed);
  await scenario.learnExisting();
  const narrows: WireNarrow[] = seededNarrows(scenario, t);
  let views = new OpenViews(s, narrows);
  cleanups.push(() => views.close());
  await views.load();
  for (let i = 0; i < 500; i++) await scenario.step();

  if (kind === 'queue expired') {
    await s.stop();
    for (let i = 0; i < 250; i++) await scenario.step();
    t.clock.advance(700_000); // past the server's idle-queue timeout (600 s)
    s.start();
  } else if (kind === 'server restart') {
    await t.close();
    t = await startTestServer({ dataPath, port });
    scenario.t = t;
  } else {
    views.close();
    await s.close();
    for (let i = 0; i < 250; i++) await scenario.step();
    s = openSession(t, `${d.dir}/client`);
    s.start();
    views = new OpenViews(s, narrows);
    await until(() => s.status.state === 'live', 10_000, 'live again');
    await views.load();
  }
  const rest = kind === 'server restart' ? 500 : 250;
  for (let i = 0; i < rest; i++) await scenario.step();
  await caughtUp(t, s);

  const report = await compareNarrows(t, s, views);
  expect(report.narrows).toBe(50);
  expect(report.messagesCompared).toBeGreaterThan(500);
  console.info(`convergence (${kind}):`, JSON.stringify({ narrows: report.narrows, messagesCompared: report.messagesCompared, fetchedAfter: report.fetchedAfter }));
}

describe('convergence across interruptions', () => {
  it('the event queue expires mid-scenario while the session is stopped', () => run('queue expired', 7), 60_000);
  it('the server restarts mid-scenario on the same data file', () => run('server restart', 8), 60_000);
  it('the client restarts mid-scenario on the same database', () => run('client restart', 9), 60_000);
});
