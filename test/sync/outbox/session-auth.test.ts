/**
 * A 401 pauses the session's outbox (nothing more is sent with credentials the server refused);
 * the next successful poll proves they work again and the queue resumes on its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUndiciTransport, type Transport } from '../../../sync/api/index.js';
import { post } from '../../server/edit-helpers.js';
import { startTestServer, type TestServer } from '../../server/harness.js';
import { until } from '../engine/session-helpers.js';
import { sessionEnv } from './session-support.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('401 and the outbox', () => {
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
    const r = s.outbox.enqueue('user_settings_update', { enter_sends: true });
    await until(() => s.outbox.pusher.status === 'paused_unauthorized', 5_000, 'paused');
    expect(s.outbox.store.get(r.id)?.state).toBe('retry_wait');
    // Any event (a new message) means a poll succeeded with our credentials.
    post(t, 'othello', 'Verona', 'wake the poll', 'hello');
    await until(() => s.outbox.store.get(r.id)?.state === 'done', 10_000, 'resumed and sent');
    expect(s.outbox.pusher.status).toBe('running');
    await env.close();
    await inner.close();
  });
});
