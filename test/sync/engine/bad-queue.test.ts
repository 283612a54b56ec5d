/**
 * A server (or a proxy) that answers BAD_EVENT_QUEUE_ID to every poll must not make the session
 * re-register in a tight loop: the first re-register is immediate, the next ones back off. Real
 * session, fault proxy, reference server; registers counted over a bounded real window (sleeps are
 * the session helpers' 50x-shortened real ones).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionStatus } from '../../../sync/protocol/index.js';
import { FaultProxy } from '../../support/fault-proxy.js';
import { startTestServer, type TestServer } from '../../server/harness.js';
import { openSession, tempDir, until } from './session-helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const WINDOW_MS = 2_000;

describe('BAD_EVENT_QUEUE_ID forever', () => {
  it('re-registers a bounded number of times, says so in the status, and recovers when polls work again', async () => {
    const proxy = await FaultProxy.start(t.url);
    const d = tempDir();
    const s = openSession({ url: proxy.url, server: t.server }, d.dir);
    const statuses: unknown[] = [];
    s.onStatus((st) => statuses.push(st));
    try {
      s.start();
      await until(() => s.status.state === 'live', 10_000, 'live');
      const body = JSON.stringify({ result: 'error', msg: 'Bad event queue ID', code: 'BAD_EVENT_QUEUE_ID' });
      proxy.rule({ method: 'GET', path: '/api/v1/events' }, { kind: 'answer', apply: false, status: 400, body, headers: { 'content-type': 'application/json' } });
      const registersBefore = proxy.log.filter((l) => l.path.startsWith('/api/v1/register')).length;
      s.nudge('network'); // cut the current long-poll: the next poll meets the rule
      await new Promise((r) => setTimeout(r, WINDOW_MS));
      const registers = proxy.log.filter((l) => l.path.startsWith('/api/v1/register')).length - registersBefore;
      // 50x-shortened backoff 1.5, 2.1, 3, 4.2, 6, 8.5, 12 ... s: about 10 in 2 s; a tight loop makes hundreds.
      expect(registers).toBeGreaterThanOrEqual(2);
      expect(registers).toBeLessThanOrEqual(15);
      // Between two re-registers the status says so (during one it says syncing: wait for the gap,
      // which a loaded machine may reach later).
      await until(() => s.status.state === 'error', 10_000, 'the error status between re-registers');
      expect(s.status).toMatchObject({ state: 'error', error: expect.stringContaining('BAD_EVENT_QUEUE_ID') });
      proxy.clearRules();
      s.nudge('network');
      await until(() => s.status.state === 'live', 10_000, 'live again');
      for (const st of statuses) expect(sessionStatus.safeParse(st).success).toBe(true);
    } finally {
      await s.close();
      await proxy.close();
      d.cleanup();
    }
  }, 20_000);
});
