/**
 * While the outbox sends on a live stream, the status says so: `syncing`, phase `outbox`, with the
 * changes settled out of the total; back to `live` once nothing is in flight. The account stays
 * online meanwhile (online-only operations and narrows do not wait for the drain).
 */
import { savedSnippetCreate } from '../../../sync/outbox/mutations/saved-snippet-create.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUndiciTransport, type Transport } from '../../../sync/api/index.js';
import { sessionStatus, type SessionStatus } from '../../../sync/protocol/index.js';
import { startTestServer, type TestServer } from '../../server/harness.js';
import { openSession, tempDir, until } from './session-helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

describe('status while the outbox drains', () => {
  it('syncing (outbox) with progress while requests are in flight, then live', async () => {
    const inner = createUndiciTransport();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let held = 0;
    const transport: Transport = async (req) => {
      if (req.method === 'POST' && req.url.endsWith('/saved_snippets')) {
        held++;
        await gate;
      }
      return inner.transport(req);
    };
    const d = tempDir();
    const s = openSession(t, d.dir, 'hamlet', { transport });
    const statuses: SessionStatus[] = [];
    s.onStatus((st) => statuses.push(st));
    try {
      s.start();
      await until(() => s.status.state === 'live', 10_000, 'live');
      for (const title of ['one', 'two', 'three']) {
        s.outbox.enqueue(savedSnippetCreate, { tmp_id: s.outbox.newTempId(), title, content: `${title} body` }, { enqueued_at: Math.floor(Date.now() / 1000) });
      }
      await until(() => held === 3, 5_000, 'three sends in flight');
      await until(() => s.status.state === 'syncing', 5_000, 'syncing');
      expect(s.status).toEqual({ state: 'syncing', progress: { phase: 'outbox', done: 0, total: 3 } });
      expect(s.online).toBe(true);
      release();
      await until(() => s.status.state === 'live', 10_000, 'live after the drain');
      const drain = statuses.filter((st) => st.state === 'syncing' && st.progress.phase === 'outbox');
      expect(drain.at(-1)).toMatchObject({ progress: { phase: 'outbox', done: 3, total: 3 } });
      for (const st of statuses) expect(sessionStatus.safeParse(st).success).toBe(true);
      expect(s.outbox.counts()).toEqual({ pending: 0, failed: 0, conflict: 0 });
    } finally {
      await s.close();
      await inner.close();
      d.cleanup();
    }
  }, 30_000);
});
