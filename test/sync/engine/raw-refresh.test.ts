/**
 * The session keeps the raw text of own messages the user's role lets them edit: an owner's own
 * message older than the edit window and older than the backfill reached gets its raw text once
 * a view fetches the page holding it, so it can be edited offline afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/harness.js';
import { post } from '../../server/edit-helpers.js';
import { openSession, tempDir, until } from './session-helpers.js';

let t: TestServer;
const tmp = tempDir();

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
  tmp.cleanup();
});

describe('raw-text refresh', () => {
  it("fetches an owner's old message's raw text when a view brings the message in", async () => {
    const old = post(t, 'desdemona', 'Denmark', 'old plans', 'planned **long ago**', 6 * 3600);
    // Enough newer messages that a shallow backfill stops before the old one.
    for (let i = 0; i < 30; i++) post(t, 'iago', 'Verona', 'chatter', `newer ${i}`);
    const s = openSession(t, tmp.dir, 'desdemona', { backfillDepth: 10 });
    try {
      s.start();
      await until(() => s.status.state === 'live', 10_000, 'live');
      const cached = () => s.db.prepare('SELECT count(*) FROM messages WHERE id = ?').pluck().get(old);
      const raw = () => s.db.prepare('SELECT raw FROM message_raw WHERE message_id = ?').pluck().get(old);
      expect(cached()).toBe(0);
      expect(raw()).toBeUndefined();

      const view = s.openNarrow({ narrow: [{ operator: 'channel', operand: 'Denmark' }, { operator: 'topic', operand: 'old plans' }], anchor: 'newest', before: 50, after: 0 }, () => undefined);
      try {
        await until(() => raw() !== undefined, 10_000, 'the raw text of the fetched own message');
        expect(raw()).toBe('planned **long ago**');
      } finally {
        view.close();
      }
    } finally {
      await s.close();
    }
  });
});
