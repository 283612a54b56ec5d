/**
 * A 401 is not taken at its word: the outbox pauses, then probes the credentials with a cheap
 * request (GET /users/me) after a short backoff, or at once on a nudge, and resumes when they work,
 * without waiting for a long-poll to come back. Only a 401 the probe confirms stops for sign-in
 * (status `unauthorized`, the outbox stays paused). The event stream is held in these tests, so
 * no successful poll can be what resumes the queue.
 */
import { userSettingsUpdate } from '../../../sync/outbox/mutations/user-settings-update.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUndiciTransport, type HttpRequest, type Transport } from '../../../sync/api/index.js';
import { SleepAborted, type Sleep } from '../../../sync/base/seams.js';
import { startTestServer, type TestServer } from '../../server/harness.js';
import { quickSleep, until } from '../engine/session-helpers.js';
import { sessionEnv } from './session-support.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const REFUSED = { status: 401, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ result: 'error', msg: 'Invalid API key', code: 'UNAUTHORIZED' }) };

/** Holds every GET /events once `hold` is set (until aborted); answers 401 as `refuse` says. */
function scripted(refuse: (req: HttpRequest) => boolean) {
  const inner = createUndiciTransport();
  const state = { hold: false, paths: [] as string[] };
  const transport: Transport = async (req) => {
    const path = `${req.method} ${new URL(req.url).pathname.replace('/api/v1', '')}`;
    state.paths.push(path);
    if (refuse(req)) return REFUSED;
    if (state.hold && path === 'GET /events') {
      return new Promise((_resolve, reject) => req.signal.addEventListener('abort', () => reject(req.signal.reason), { once: true }));
    }
    return inner.transport(req);
  };
  return { transport, state, close: () => inner.close() };
}

/** Short waits pass (shortened), long ones (over 500 ms) only end when aborted. */
const shortOnly: Sleep = (ms, signal) => (ms <= 500 ? quickSleep(ms, signal) : new Promise((_r, reject) => signal?.addEventListener('abort', () => reject(new SleepAborted()), { once: true })));

describe('a 401 is probed, not taken at its word', () => {
  it('a transient 401: the probe resumes the outbox after a short backoff, with the long-poll still out', async () => {
    let refuse = 1;
    const s1 = scripted((req) => req.method === 'PATCH' && refuse-- > 0);
    const env = await sessionEnv(t, 'hamlet', { transport: s1.transport });
    const { s } = env;
    try {
      s1.state.hold = true;
      s.nudge('network'); // the current poll is cut; the next one is held
      const r = s.outbox.enqueue(userSettingsUpdate, { enter_sends: true }, null);
      await until(() => s.outbox.store.get(r.id)?.state === 'done', 10_000, 'resumed by the probe and sent');
      expect(s1.state.paths).toContain('GET /users/me');
      expect(s.outbox.pusher.status).toBe('running');
      expect(s.status.state).not.toBe('unauthorized');
    } finally {
      await env.close();
      await s1.close();
    }
  });

  it('a nudge probes at once: the outbox resumes without waiting out the probe backoff', async () => {
    let refuse = 1;
    const s1 = scripted((req) => req.method === 'PATCH' && refuse-- > 0);
    const env = await sessionEnv(t, 'hamlet', { transport: s1.transport, seams: { sleep: shortOnly } });
    const { s } = env;
    try {
      s1.state.hold = true;
      s.nudge('network');
      const r = s.outbox.enqueue(userSettingsUpdate, { enter_sends: false }, null);
      await until(() => s.outbox.pusher.status === 'paused_unauthorized', 5_000, 'paused');
      // The first probe waits 1 s, which this sleep never ends: only the nudge can resume it.
      await new Promise((res) => setTimeout(res, 200));
      expect(s.outbox.store.get(r.id)?.state).toBe('retry_wait');
      expect(s1.state.paths).not.toContain('GET /users/me');
      s.nudge('network');
      await until(() => s.outbox.store.get(r.id)?.state === 'done', 5_000, 'resumed by the nudge');
      expect(s1.state.paths.filter((p) => p === 'GET /users/me')).toHaveLength(1);
    } finally {
      await env.close();
      await s1.close();
    }
  });

  it('a confirmed 401 stops for sign-in: status unauthorized, the outbox stays paused, nothing resent', async () => {
    let revoked = false;
    const s1 = scripted(() => revoked);
    const env = await sessionEnv(t, 'hamlet', { transport: s1.transport });
    const { s } = env;
    try {
      s1.state.hold = true;
      s.nudge('network');
      revoked = true;
      const r = s.outbox.enqueue(userSettingsUpdate, { enter_sends: true }, null);
      await until(() => s.status.state === 'unauthorized', 10_000, 'unauthorized');
      expect(s1.state.paths).toContain('GET /users/me');
      expect(s.outbox.pusher.status).toBe('paused_unauthorized');
      expect(s.outbox.store.get(r.id)?.state).toBe('retry_wait');
      const patches = s1.state.paths.filter((p) => p.startsWith('PATCH')).length;
      await new Promise((res) => setTimeout(res, 300));
      expect(s1.state.paths.filter((p) => p.startsWith('PATCH')).length).toBe(patches);
    } finally {
      await env.close();
      await s1.close();
    }
  });

  it('the event stream too: a single 401 on a poll is probed and the stream stays up', async () => {
    let refuse = 1;
    const s1 = scripted((req) => req.method === 'GET' && req.url.includes('/events') && refuse-- > 0);
    const env = await sessionEnv(t, 'hamlet', { transport: s1.transport });
    const { s } = env;
    const states: string[] = [];
    s.onStatus((st) => states.push(st.state));
    try {
      s.nudge('network'); // the next poll is refused once
      await until(() => s1.state.paths.includes('GET /users/me'), 10_000, 'probed');
      await until(() => s.status.state === 'live' && refuse < 0, 10_000, 'live again');
      expect(states).not.toContain('unauthorized');
    } finally {
      await env.close();
      await s1.close();
    }
  });
});
