/**
 * Offline: with the server stopped, every cached narrow still reads from the store and says where
 * it is incomplete (its newest end: nothing vouches for it while the stream is down), a fetch
 * serves the cached page marked offline, and the status is `offline` with the next retry time.
 */
import { describe, expect, it } from 'vitest';
import { fetchNarrowPage } from '../../../sync/engine/narrow/fetcher.js';
import { readNarrowPage } from '../../../sync/engine/narrow/reader.js';
import { startTestServer } from '../../server/harness.js';
import { openSession, tempDir, until } from './session-helpers.js';

const NARROWS = [
  [],
  [{ operator: 'channel', operand: 'Verona' }],
  [{ operator: 'channel', operand: 'Denmark' }, { operator: 'topic', operand: 'castle' }],
  [{ operator: 'is', operand: 'dm' }],
  [{ operator: 'is', operand: 'starred' }],
];
const PAGE = { anchor: 'newest' as const, before: 100, after: 0 };

describe('offline', () => {
  it('cached narrows read and mark their incomplete side; status offline with the next retry', async () => {
    const t = await startTestServer();
    const d = tempDir();
    const s = openSession(t, d.dir, 'hamlet', { failuresBeforeStatus: 2 });
    try {
      s.start();
      await until(() => s.status.state === 'live', 10_000, 'live');
      const self = s.selfUserId!;
      const online = [];
      for (const n of NARROWS) {
        const p = await fetchNarrowPage(s.db, n, PAGE, { conn: s.conn, selfUserId: self });
        expect(p.before.complete, JSON.stringify(n)).toBe(true);
        online.push(p.messages.map((m) => m.id));
      }
      // A narrow never loaded: nothing cached vouches for it.
      const never = [{ operator: 'sender', operand: t.userId('othello') }];

      await t.close();
      await until(() => s.status.state === 'offline', 15_000, 'offline status');
      const st = s.status;
      expect(st.state).toBe('offline');
      if (st.state === 'offline') {
        expect(st.failures).toBeGreaterThanOrEqual(2);
        expect(st.nextRetryAt).toBeGreaterThan(Date.now() - 1000);
        // The last failure is the refused connection, or the 503 of a server that is shutting down.
        expect(st.error).toMatch(/network|ECONNREFUSED|fetch|SERVER_NOT_READY/i);
      }

      for (const [i, n] of NARROWS.entries()) {
        const page = readNarrowPage(s.db, n, PAGE, self);
        expect(page.messages.map((m) => m.id), JSON.stringify(n)).toEqual(online[i]);
        // The newest end is no longer vouched for; what was loaded is still whole below it.
        expect(page.before.complete, JSON.stringify(n)).toBe(false);
        expect(page.after.found_end).toBe(false);
        if (page.messages.length > 1) {
          const older = readNarrowPage(s.db, n, { anchor: page.messages.at(-1)!.id, before: 100, after: 10 }, self);
          expect(older.before.complete, JSON.stringify(n)).toBe(true);
          expect(older.after.complete, JSON.stringify(n)).toBe(false);
        }
        const fetched = await fetchNarrowPage(s.db, n, PAGE, { conn: s.conn, selfUserId: self });
        expect(fetched.offline).toBe(true);
        expect(fetched.messages.map((m) => m.id)).toEqual(online[i]);
      }
      const unknown = readNarrowPage(s.db, never, PAGE, self);
      expect(unknown.before.complete).toBe(false);
      expect(s.queries.channels().length).toBeGreaterThan(0);
      expect(s.queries.users().length).toBeGreaterThan(0);
    } finally {
      await s.close();
      d.cleanup();
    }
  }, 30_000);
});
