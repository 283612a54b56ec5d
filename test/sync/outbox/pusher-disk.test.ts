/**
 * A full disk under the pusher (docs/sync-design.md "A full disk"): a refused write stops the
 * drain instead of picking the same row again at once, logs once per change of state, and the
 * drain resumes on the storage's retry ticks; an outcome the disk refused after the request
 * landed is written later, and the request is never sent twice.
 */
import { describe, expect, it } from 'vitest';
import { openLocalDb } from '../../../sync/db/open.js';
import { StorageHealth } from '../../../sync/db/storage.js';
import { OutboxPusher } from '../../../sync/outbox/pusher.js';
import { defaultSeams, type EngineLogger } from '../../../sync/base/seams.js';
import { injectDiskFaults, type DiskFaultCode } from '../../support/disk-faults.js';
import { fixture } from './helpers.js';

/** Let timers and promise chains run: a spinning drain would never get here. */
const turn = () => new Promise((r) => setTimeout(r, 5));

function countingLogger() {
  const lines: string[] = [];
  const logger: EngineLogger = {
    info: (m) => void lines.push(`info ${m}`),
    warn: (m) => void lines.push(`warn ${m}`),
    error: (m) => void lines.push(`error ${m}`),
  };
  return { lines, logger };
}

/** An outbox database whose writes are refused while `disk.full` holds (at most `budget` times). */
function fullDiskFixture(code: DiskFaultCode = 'SQLITE_FULL', budget = 1_000) {
  const db = openLocalDb(':memory:');
  const disk = { full: false, asked: 0 };
  const faults = injectDiskFaults(db, () => {
    if (!disk.full) return undefined;
    // On the old drain a refused first write looped without end: the budget ends the loop, so
    // the test fails on the count instead of hanging.
    if (++disk.asked > budget) return undefined;
    return code;
  });
  const f = fixture(db);
  const log = countingLogger();
  const seams = { ...defaultSeams, ...f.time.seams, logger: log.logger };
  const storage = new StorageHealth({ seams });
  const pusher = new OutboxPusher({ store: f.store, conn: f.conn, seams, storage });
  return { f, disk, faults, log, storage, pusher };
}

describe('outbox pusher on a full disk', () => {
  for (const code of ['SQLITE_FULL', 'SQLITE_IOERR_WRITE'] as const) {
    it(`${code}: a row whose first write is refused waits (no spin, one log line), then lands once when writes work`, async () => {
      const { f, disk, log, storage, pusher } = fullDiskFixture(code);
      f.store.enqueue(f.kinds.edit, { messageId: 1, content: 'hello' }, { content: '' });
      disk.full = true;
      pusher.start();
      for (let i = 0; i < 5; i++) await turn();
      expect(disk.asked).toBeLessThanOrEqual(2);
      expect(f.api.calls).toEqual([]);
      expect(pusher.waitingForDisk).toBe(true);
      expect(storage.state.state).toBe(code === 'SQLITE_FULL' ? 'full' : 'io');
      expect(log.lines).toHaveLength(1);
      // Retry ticks back off (1 s, 2 s, 4 s ...) while the disk stays full: one try each, no log.
      for (const step of [1_000, 2_000, 4_000]) {
        f.time.advance(step);
        await turn();
      }
      expect(disk.asked).toBeLessThanOrEqual(5);
      expect(f.time.requested.slice(0, 4)).toEqual([1_000, 2_000, 4_000, 8_000]);
      expect(log.lines).toHaveLength(1);
      // Space again: the next tick finds it and the row lands, once.
      disk.full = false;
      f.time.advance(8_000);
      for (let i = 0; i < 5; i++) await turn();
      await pusher.idle();
      expect(f.api.calls).toEqual(['edit message:1']);
      expect(f.api.messages.get(1)).toBe('hello');
      expect(f.store.all().map((r) => r.state)).toEqual(['done']);
      expect(storage.refused).toBe(false);
      expect(log.lines).toEqual([`warn ${code === 'SQLITE_FULL' ? 'the disk is full: changes are refused and syncing waits until there is room' : 'the disk refuses writes: changes are refused and syncing waits'}`, 'info the disk takes writes again; resuming']);
      await pusher.stop();
    });
  }

  it('an outcome the disk refused after the request landed is recorded when writes work, never sent again', async () => {
    const { f, disk, log, storage, pusher } = fullDiskFixture();
    f.store.enqueue(f.kinds.edit, { messageId: 1, content: 'one' }, { content: '' });
    f.store.enqueue(f.kinds.star, { messageId: 2, starred: true }, null);
    // The disk fills once both requests are in flight: their outcomes cannot be written.
    f.api.hook = () => {
      if (f.api.calls.length === 2) disk.full = true;
    };
    pusher.start();
    for (let i = 0; i < 5; i++) await turn();
    expect(f.api.calls.sort()).toEqual(['edit message:1', 'star star:2']);
    expect(f.store.all().map((r) => r.state)).toEqual(['sending', 'sending']);
    expect(pusher.waitingForDisk).toBe(true);
    // A tick while still full changes nothing and sends nothing.
    f.time.advance(1_000);
    for (let i = 0; i < 3; i++) await turn();
    expect(f.api.calls).toHaveLength(2);
    disk.full = false;
    f.api.hook = () => undefined;
    // The user's next write works: that alone resumes everything, before any tick.
    storage.write(() => f.store.enqueue(f.kinds.edit, { messageId: 3, content: 'three' }, { content: '' }));
    for (let i = 0; i < 5; i++) await turn();
    await pusher.idle();
    expect(f.store.all().map((r) => r.state)).toEqual(['done', 'done', 'done']);
    expect(f.api.calls.sort()).toEqual(['edit message:1', 'edit message:3', 'star star:2']);
    expect(f.store.all()[0]!.history.map((h) => Reflect.get(Object(h), 'event'))).toEqual(['enqueue', 'send', 'succeeded']);
    expect(log.lines).toHaveLength(2);
    await pusher.stop();
  });

  it('stopped while outcomes wait for the disk: the rows stay sending and the next start verifies them (no resend)', async () => {
    const { f, disk, pusher } = fullDiskFixture();
    f.store.enqueue(f.kinds.edit, { messageId: 1, content: 'one' }, { content: '' });
    f.api.hook = () => {
      disk.full = true;
    };
    pusher.start();
    for (let i = 0; i < 5; i++) await turn();
    await pusher.stop();
    disk.full = false;
    f.api.hook = () => undefined;
    expect(pusher.waitingForDisk).toBe(false);
    const again = new OutboxPusher({ store: f.store, conn: f.conn, seams: f.time.seams });
    again.start();
    await again.idle();
    expect(f.api.calls).toEqual(['edit message:1', 'read message:1']);
    expect(f.store.all().map((r) => r.state)).toEqual(['done']);
    await again.stop();
    // The same pusher started again does the same (nothing stale is replayed).
    f.store.enqueue(f.kinds.edit, { messageId: 2, content: 'two' }, { content: '' });
    f.api.hook = () => {
      disk.full = true;
    };
    pusher.start();
    for (let i = 0; i < 5; i++) await turn();
    await pusher.stop();
    disk.full = false;
    f.api.hook = () => undefined;
    pusher.start();
    await pusher.idle();
    expect(f.api.calls).toEqual(['edit message:1', 'read message:1', 'edit message:2', 'read message:2']);
    expect(f.store.all().map((r) => r.state)).toEqual(['done', 'done']);
    await pusher.stop();
  });
});
