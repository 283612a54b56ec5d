/**
 * The outbox follows the event stream: a 401 pauses it (nothing more is sent with credentials the
 * server refused) and the next successful poll proves they work again; a successful poll after a
 * failed one means the network is back, so rows waiting out a long backoff go at once.
 */
import { userSettingsUpdate } from '../../../sync/outbox/mutations/user-settings-update.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUndiciTransport, type Transport } from '../../../sync/api/index.js';
import { SleepAborted, type Sleep } from '../../../sync/base/seams.js';
import { post } from '../../server/edit-helpers.js';
import { startTestServer, type TestServer } from '../../server/harness.js';
import { quickSleep, until } from '../engine/session-helpers.js';
import { sessionEnv } from './session-support.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/**
 * Time for the second test: waits under 5 s pass at once and move the session's clock forward by
 * what they waited (so backoffs elapse without real waiting); longer ones (a row's long backoff)
 * only end when aborted.
 */
function skippingTime(base: number): { clock: { now: () => number }; sleep: Sleep } {
  let skipped = 0;
  const started = Date.now();
  return {
    clock: { now: () => base + (Date.now() - started) + skipped },
    sleep: (ms, signal) =>
      ms < 5_000
        ? quickSleep(1, signal).then(() => {
            skipped += Math.max(0, ms);
          })
        : new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(new SleepAborted()), { once: true })),
  };
}

describe('the outbox and the event stream', () => {
  it('pauses on a refused key and resumes once a poll succeeds', async () => {
    const inner = createUndiciTransport();
    let refuse = 1;
    const transport: Transport = async (req) => {
      if (req.method === 'PATCH' && refuse > 0) {
        refuse--;
        return { status: 401, headers: { 'content-type': 'application/json', 'www-authenticate': 'Basic realm="zulip"' }, body: JSON.stringify({ result: 'error', msg: 'Invalid API key', code: 'UNAUTHORIZED' }) };
      }
      return inner.transport(req);
    };
    const env = await sessionEnv(t, 'hamlet', { transport });
    const { s } = env;
    const r = s.outbox.enqueue(userSettingsUpdate, { enter_sends: true }, null);
    await until(() => s.outbox.pusher.status === 'paused_unauthorized', 5_000, 'paused');
    expect(s.outbox.store.get(r.id)?.state).toBe('retry_wait');
    // Any event (a new message) means a poll succeeded with our credentials.
    post(t, 'othello', 'Verona', 'wake the poll', 'hello');
    await until(() => s.outbox.store.get(r.id)?.state === 'done', 10_000, 'resumed and sent');
    expect(s.outbox.pusher.status).toBe('running');
    await env.close();
    await inner.close();
  });

  it('a successful poll after a failed one sends rows waiting out a long backoff at once', async () => {
    const env = await sessionEnv(t, 'hamlet', { seams: { ...skippingTime(t.clock.now()), random: () => 0.999 } });
    const { s, proxy } = env;
    proxy.rule({ method: 'PATCH' }, { kind: 'error500' });
    const r = s.outbox.enqueue(userSettingsUpdate, { enter_sends: false }, null);
    // Backoff bounds double from 0.5 s: after a few failures the next try is seconds away.
    await until(() => {
      const row = s.outbox.store.get(r.id);
      return row?.state === 'retry_wait' && (row.nextAttemptAt ?? 0) - s.outbox.now() >= 5_000;
    }, 10_000, 'a long backoff');
    proxy.clearRules();
    const patches = () => proxy.log.filter((l) => l.method === 'PATCH').length;
    const before = patches();
    // One poll fails (reported offline), the next succeeds: back live, the waiting row goes at once.
    proxy.rule({ method: 'GET', path: /^\/api\/v1\/events/ }, { kind: 'reset' }, 1);
    await until(() => s.outbox.store.get(r.id)?.state === 'done', 10_000, 'sent after the poll came back');
    expect(proxy.counts.reset).toBe(1);
    expect(patches()).toBe(before + 1);
    await env.close();
  });
});
