/**
 * The session's outbox on its own, with a fake clock and a scripted server: the intent and its
 * local effect commit together (or not at all), every change is announced as the `outbox` area,
 * `retryNow` sends waiting rows without waiting out their backoff, and finished rows are pruned at
 * start and then every hour.
 */
import { navigationViewAdd } from '../../../sync/outbox/mutations/navigation-view-add.js';
import { userSettingsUpdate } from '../../../sync/outbox/mutations/user-settings-update.js';
import { afterEach, describe, expect, it } from 'vitest';
import { openLocalDb, type LocalDb } from '../../../sync/db/open.js';
import { getUserSettings } from '../../../sync/db/queries/personal.js';
import type { StoreChanges } from '../../../sync/db/changes.js';
import { OutboxIntentError, PRUNE_EVERY_MS, SessionOutbox } from '../../../sync/engine/session-outbox.js';
import { DEFAULT_RETENTION_MS } from '../../../sync/outbox/store.js';
import { fakeServer, type FakeServer } from '../api/fake-transport.js';
import { fakeTime } from './helpers.js';

interface Rig {
  db: LocalDb;
  server: FakeServer;
  time: ReturnType<typeof fakeTime>;
  outbox: SessionOutbox;
  emitted: StoreChanges[];
}

const rigs: Rig[] = [];
afterEach(async () => {
  for (const r of rigs.splice(0)) {
    await r.outbox.stop();
    r.db.close();
  }
});

function rig(): Rig {
  const db = openLocalDb(':memory:');
  const server = fakeServer();
  const time = fakeTime();
  const emitted: StoreChanges[] = [];
  const seams = { clock: { now: time.now }, sleep: time.seams.sleep!, random: () => 0.5, logger: time.seams.logger! };
  const outbox = new SessionOutbox({ db, conn: server.conn, seams, queueId: () => undefined, isLive: () => true, emit: (c) => emitted.push(c) });
  const r = { db, server, time, outbox, emitted };
  rigs.push(r);
  return r;
}

/** Let the pusher's promise chains run (no timers involved: the fake sleep never fires by itself). */
const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('SessionOutbox', () => {
  it('writes the row and its local effect in one transaction and announces both at once', () => {
    const { db, outbox, emitted } = rig();
    const r = outbox.enqueue(userSettingsUpdate, { enter_sends: true }, null);
    expect(r.outcome).toBe('added');
    expect(getUserSettings(db)['enter_sends']).toBe(true);
    expect(outbox.store.get(r.id)?.state).toBe('queued');
    expect(emitted.at(-1)?.areas).toEqual(new Set(['user_settings', 'outbox']));
  });

  it('a refused intent writes nothing: no row, no effect', () => {
    const { db, outbox } = rig();
    expect(() => outbox.enqueue(userSettingsUpdate, { new_password: 'x' } as never, null)).toThrow(OutboxIntentError);
    expect(() => outbox.enqueue({ ...userSettingsUpdate, kind: 'no_such_kind' }, {}, null)).toThrow(OutboxIntentError);
    expect(outbox.store.all()).toEqual([]);
    expect(getUserSettings(db)['new_password']).toBeUndefined();
  });

  it('retryNow sends a row waiting out its backoff at once; each state change is announced', async () => {
    const { outbox, server, emitted } = rig();
    server.reply({ status: 503, json: { result: 'error', msg: 'down', code: 'BAD_REQUEST' } });
    outbox.start();
    const r = outbox.enqueue(userSettingsUpdate, { enter_sends: true }, null);
    await settle();
    const waiting = outbox.store.get(r.id);
    expect(waiting?.state).toBe('retry_wait');
    expect(waiting?.nextAttemptAt).toBeGreaterThan(outbox.now());
    const before = emitted.length;
    outbox.retryNow();
    await settle();
    expect(outbox.store.get(r.id)?.state).toBe('done');
    expect(server.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['PATCH /settings', 'PATCH /settings']);
    expect(emitted.slice(before).some((c) => c.areas.has('outbox'))).toBe(true);
    expect(outbox.counts()).toEqual({ pending: 0, failed: 0, conflict: 0 });
  });

  it('prunes finished rows at start, then every hour', async () => {
    const { outbox, time } = rig();
    const old = outbox.enqueue(userSettingsUpdate, { enter_sends: true }, null);
    outbox.store.apply({ id: old.id }, 'send');
    outbox.store.apply({ id: old.id }, 'succeeded');
    time.advance(DEFAULT_RETENTION_MS + 1);
    const recent = outbox.enqueue(navigationViewAdd, { fragment: 'narrow/channel/1', is_pinned: true }, null);
    outbox.store.apply({ id: recent.id }, 'discard');
    outbox.start();
    // At start: the old row goes, the recent one is kept for review.
    expect(outbox.store.all().map((r) => r.id)).toEqual([recent.id]);
    time.advance(DEFAULT_RETENTION_MS - PRUNE_EVERY_MS);
    await settle();
    expect(outbox.store.all().map((r) => r.id)).toEqual([recent.id]);
    // The next hourly pass finds it past retention.
    time.advance(PRUNE_EVERY_MS);
    await settle();
    time.advance(PRUNE_EVERY_MS);
    await settle();
    expect(outbox.store.all()).toEqual([]);
    expect(time.requested.filter((ms) => ms === PRUNE_EVERY_MS).length).toBeGreaterThanOrEqual(2);
  });
});
