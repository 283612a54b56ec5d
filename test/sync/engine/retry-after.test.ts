/**
 * Absurd Retry-After values end to end, with the real sleep (the one that once handed 10^11 ms to
 * setTimeout, which fires at once: a request spin): the stream waits at most 90 s and says what the
 * server asked, the outbox waits at most 60 s; in a bounded real window the session sends one
 * rate-limited poll and one rate-limited send, not a spin. Fault proxy, reference server.
 */
import { savedSnippetCreate } from '../../../sync/outbox/mutations/saved-snippet-create.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realSleep, type Sleep } from '../../../sync/base/seams.js';
import { sessionStatus } from '../../../sync/protocol/index.js';
import { FaultProxy } from '../../support/fault-proxy.js';
import { startTestServer, type TestServer } from '../../server/harness.js';
import { openSession, tempDir, until } from './session-helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('absurd Retry-After', () => {
  it('10^8 s on polls and sends: capped waits, the status says what was asked, no spin', async () => {
    const proxy = await FaultProxy.start(t.url);
    const d = tempDir();
    let sleeps = 0;
    const counting: Sleep = (ms, signal) => {
      sleeps++;
      return realSleep(ms, signal);
    };
    const s = openSession({ url: proxy.url, server: t.server }, d.dir, 'hamlet', { seams: { sleep: counting } });
    try {
      s.start();
      await until(() => s.status.state === 'live', 10_000, 'live');
      proxy.rule({ method: 'GET', path: '/api/v1/events' }, { kind: 'rate_limit', retryAfterSeconds: 1e8 });
      proxy.rule({ method: 'POST', path: '/api/v1/saved_snippets' }, { kind: 'rate_limit', retryAfterSeconds: 86_400 });
      const started = Date.now();
      s.nudge('network');
      const r = s.outbox.enqueue(savedSnippetCreate, { tmp_id: s.outbox.newTempId(), title: 'patient', content: 'x' }, { enqueued_at: Math.floor(Date.now() / 1000) });
      await until(() => s.status.state === 'offline', 5_000, 'offline');
      await until(() => s.outbox.store.get(r.id)?.state === 'retry_wait', 5_000, 'the send rate limited');
      const limited = (path: (p: string) => boolean) => proxy.log.filter((l) => path(l.path) && l.outcome === 'rate_limit').length;
      const polls = () => limited((p) => p.startsWith('/api/v1/events'));
      const sends = () => limited((p) => p === '/api/v1/saved_snippets');
      const [pollsBefore, sendsBefore, sleepsBefore] = [polls(), sends(), sleeps];
      // (The nudge may race a poll already on its way: one or two were refused so far.)
      expect(pollsBefore).toBeLessThanOrEqual(2);
      expect(sendsBefore).toBe(1);
      // A bounded real window: waiting, not retrying (a 10^11 ms timer fires at once: a spin).
      await new Promise((res) => setTimeout(res, 1_000));
      expect(polls() - pollsBefore).toBe(0);
      expect(sends() - sendsBefore).toBe(0);
      expect(sleeps - sleepsBefore).toBe(0);
      const st = s.status;
      expect(sessionStatus.safeParse(st).success).toBe(true);
      expect(st).toMatchObject({ state: 'offline', serverAskedRetryAfterMs: 1e11 });
      if (st.state === 'offline') expect(st.nextRetryAt).toBeLessThanOrEqual(started + 90_000 + 1_000);
      const row = s.outbox.store.get(r.id)!;
      expect(row.state).toBe('retry_wait');
      expect(row.nextAttemptAt! - Date.now()).toBeLessThanOrEqual(60_000);
      expect(row.lastError).toMatchObject({ kind: 'rate_limited', retryAfterMs: 86_400_000 });
    } finally {
      await s.close();
      await proxy.close();
      d.cleanup();
    }
  }, 20_000);
});
