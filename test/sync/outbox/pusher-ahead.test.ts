/**
 * The pusher takes the next row from heads fetched ahead when a row completes (one pass over the
 * live rows per batch instead of per row). Those ids can go stale while earlier rows are in
 * flight: each must be re-read, so a merge made meanwhile is what gets sent, a discarded row is
 * never sent, and rows that became runnable meanwhile are found once the batch runs out.
 */
import { describe, expect, it } from 'vitest';
import { OutboxPusher } from '../../../sync/outbox/pusher.js';
import { deferred, fixture } from './helpers.js';

describe('outbox pusher: heads fetched ahead', () => {
  it('re-reads each one: merged args are sent, discarded rows are not, later rows of an entity follow', async () => {
    const f = fixture();
    const first = deferred();
    f.api.hook = (_op, key) => (key === 'star:1' ? first.promise : undefined);
    for (let m = 1; m <= 6; m++) f.store.enqueue(f.kinds.star, { messageId: m, starred: true }, null);
    const p = new OutboxPusher({ store: f.store, conn: f.conn, seams: f.time.seams, concurrency: 1 });
    p.start();
    // Row 1 is in flight; rows 2..6 were fetched ahead. Change them behind the pusher's back
    // (no kick: a kick would drop the list and hide the case).
    expect(f.api.calls).toEqual(['star star:1']);
    expect(f.store.enqueue(f.kinds.star, { messageId: 3, starred: false }, null).outcome).toBe('merged');
    f.store.discard(f.store.all().find((r) => r.entityKey === 'star:4')!.id);
    // A second row of entity 1 (appended: row 1 is sending), runnable only once row 1 is done.
    expect(f.store.enqueue(f.kinds.star, { messageId: 1, starred: false }, null).outcome).toBe('added');
    first.resolve();
    // Let the drain run on by itself: idle() would look afresh and drop the list.
    for (let i = 0; i < 20 && f.store.all().some((r) => r.state !== 'done' && r.state !== 'discarded'); i++) await new Promise((r) => setTimeout(r, 1));
    await p.idle();
    await p.stop();
    expect(f.api.calls).toEqual(['star star:1', 'star star:2', 'star star:3', 'star star:5', 'star star:6', 'star star:1']);
    expect(f.api.stars.get(3)).toBe(false);
    expect(f.api.stars.has(4)).toBe(false);
    expect(f.api.stars.get(1)).toBe(false);
    expect(f.store.all().map((r) => [r.entityKey, r.state])).toEqual([
      ['star:1', 'done'],
      ['star:2', 'done'],
      ['star:3', 'done'],
      ['star:4', 'discarded'],
      ['star:5', 'done'],
      ['star:6', 'done'],
      ['star:1', 'done'],
    ]);
  });
});
