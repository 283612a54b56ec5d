/**
 * A damaged page under the pusher: reading the queue fails with SQLITE_CORRUPT. The pump runs from
 * promise callbacks, so a throw there would be an unhandled rejection that ends the process; it
 * stops looking instead, logs, and hands the error to its owner (which rebuilds the file).
 */
import { describe, expect, it } from 'vitest';
import { defaultSeams, type EngineLogger } from '../../../sync/base/seams.js';
import { openLocalDb } from '../../../sync/db/open.js';
import { OutboxPusher } from '../../../sync/outbox/pusher.js';
import { fixture } from './helpers.js';

const turn = () => new Promise((r) => setTimeout(r, 5));

function corrupt(): Error {
  return Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' });
}

describe('outbox pusher over a damaged queue', () => {
  it('a failed read of the heads stops the pump without an unhandled rejection and tells the owner', async () => {
    const f = fixture(openLocalDb(':memory:'));
    const lines: string[] = [];
    const logger: EngineLogger = { info: () => undefined, warn: () => undefined, error: (m) => void lines.push(m) };
    const seen: unknown[] = [];
    const pusher = new OutboxPusher({ store: f.store, conn: f.conn, seams: { ...defaultSeams, ...f.time.seams, logger }, onStoreError: (e) => seen.push(e) });
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => void unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      f.store.enqueue(f.kinds.edit, { messageId: 1, content: 'first' }, { content: '' });
      f.store.enqueue(f.kinds.edit, { messageId: 2, content: 'second' }, { content: '' });
      let broken = false;
      const heads = f.store.runnableHeads.bind(f.store);
      f.store.runnableHeads = (now, limit) => {
        if (broken) throw corrupt();
        return heads(now, limit);
      };
      pusher.start();
      await turn();
      // The page breaks while the first requests are in flight: the pump after them reads again.
      broken = true;
      for (let i = 0; i < 10; i++) await turn();
      pusher.kick();
      await turn();
      expect(unhandled).toEqual([]);
      expect(seen.length).toBeGreaterThanOrEqual(1);
      expect((seen[0] as { code?: string }).code).toBe('SQLITE_CORRUPT');
      expect(lines.every((l) => l === 'outbox: the queue could not be read')).toBe(true);
      // Readable again: the queue drains.
      broken = false;
      pusher.kick();
      await pusher.idle();
      expect(f.store.all().every((r) => r.state === 'done')).toBe(true);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await pusher.stop();
    }
  });
});
