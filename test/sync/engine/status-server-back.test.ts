/**
 * The server comes back while the event stream sleeps out its backoff: the first outbox request
 * that gets the server's answer makes the status say the changes are being sent (not Offline),
 * cuts the stream's backoff short and sends the other waiting rows, so the status is live again
 * without waiting for the backoff. A refused connection makes rows wait, never fail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { savedSnippetCreate } from '../../../sync/outbox/mutations/saved-snippet-create.js';
import { createUndiciTransport, type Transport } from '../../../sync/api/index.js';
import { SleepAborted, type Sleep } from '../../../sync/base/seams.js';
import { sessionStatus, type SessionStatus } from '../../../sync/protocol/index.js';
import { startTestServer, type TestServer } from '../../server/harness.js';
import { composeStatus } from '../../../sync/engine/session.js';
import { openSession, quickSleep, tempDir, until } from './session-helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

/** Waits of a second or more end only when aborted (a nudge): nothing comes back by its timer. */
const stuckSleep: Sleep = (ms, signal) =>
  ms < 1000
    ? quickSleep(ms, signal)
    : new Promise<void>((_resolve, reject) => signal?.addEventListener('abort', () => reject(new SleepAborted()), { once: true }));

describe('composing the status from an answered outbox request', () => {
  const offline = { state: 'offline' as const, failures: 3, nextRetryAt: 5, error: 'GET /events: network error (ECONNREFUSED)', cause: 'network' as const };
  const drain = { done: 1, total: 3 };
  const sending = { state: 'syncing', progress: { phase: 'outbox', done: 1, total: 3 } };

  it('says Sending on a stream still down or reconnecting once the server answered the drain', () => {
    expect(composeStatus(offline, undefined, drain, undefined, true)).toEqual(sending);
    expect(composeStatus({ state: 'connecting' }, { phase: 'gap', done: 4, total: null }, drain, undefined, true)).toEqual(sending);
    expect(composeStatus({ ...offline, state: 'error' }, undefined, drain, undefined, true)).toEqual(sending);
  });

  it('says Offline while nothing answered; stopped and signed out stay so', () => {
    expect(composeStatus(offline, undefined, drain, undefined, false)).toEqual(offline);
    // Answered, with nothing in flight: the nudged stream is reconnecting, not offline.
    expect(composeStatus(offline, undefined, undefined, undefined, true)).toEqual({ state: 'connecting' });
    expect(composeStatus({ state: 'stopped' }, undefined, drain, undefined, true)).toEqual({ state: 'stopped' });
    expect(composeStatus({ state: 'unauthorized', error: 'x' }, undefined, drain, undefined, true)).toEqual({ state: 'unauthorized', error: 'x' });
    expect(composeStatus({ state: 'live' }, undefined, drain)).toEqual(sending);
  });
});

describe('the server coming back shows at once', () => {
  it('an answered outbox request says Sending while the stream is down, and brings the stream back without its backoff', async () => {
    const inner = createUndiciTransport();
    let down = false;
    const transport: Transport = async (req) => {
      if (down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
      return inner.transport(req);
    };
    const d = tempDir();
    const s = openSession(t, d.dir, 'hamlet', { transport, seams: { sleep: stuckSleep } });
    const statuses: SessionStatus[] = [];
    s.onStatus((st) => statuses.push(st));
    const snippet = (title: string) => s.outbox.enqueue(savedSnippetCreate, { tmp_id: s.outbox.newTempId(), title, content: `${title} body` }, { enqueued_at: Math.floor(Date.now() / 1000) });
    try {
      s.start();
      await until(() => s.status.state === 'live', 10_000, 'live');

      // The server goes away: the stream fails and sleeps out a backoff that only a nudge ends.
      down = true;
      s.nudge('network');
      await until(() => s.status.state === 'offline', 10_000, 'offline');
      expect(s.status).toMatchObject({ state: 'offline', cause: 'network' });
      const first = snippet('one');
      await until(() => s.outbox.store.get(first.id)?.state === 'retry_wait', 5_000, 'the row waits');
      expect(s.outbox.store.get(first.id)?.lastError).toMatchObject({ kind: 'network' });
      expect(s.status.state).toBe('offline');

      // Back: a new change is sent at once and answered; the first row waits out a long backoff.
      down = false;
      const from = statuses.length;
      snippet('two');
      await until(() => s.status.state === 'live', 10_000, 'live without waiting for the backoff');
      await until(() => s.outbox.counts().pending === 0, 10_000, 'both landed');
      const after = statuses.slice(from);
      // Sending showed before live, while the stream was still down.
      const sendingAt = after.findIndex((st) => st.state === 'syncing' && st.progress.phase === 'outbox');
      expect(sendingAt).toBeGreaterThanOrEqual(0);
      expect(after.slice(0, sendingAt).map((st) => st.state)).not.toContain('live');
      for (const st of statuses) expect(sessionStatus.safeParse(st).success).toBe(true);
      const titles = (await t.as('hamlet').get('/saved_snippets')).json['saved_snippets'] as Array<{ title: string }>;
      expect(titles.map((x) => x.title)).toEqual(expect.arrayContaining(['one', 'two']));
    } finally {
      await s.close();
      await inner.close();
      d.cleanup();
    }
  }, 30_000);
});
