/**
 * `update_message_move` end to end: topic edits, channel moves, resolve / unresolve, a lost answer, and the
 * partial move after MOVE_MESSAGES_TIME_LIMIT_EXCEEDED (realm limit, server ManualClock).
 */
import { ALL_KINDS } from '../../../sync/outbox/registry.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KindRegistry } from '../../../sync/outbox/kinds.js';
import { moveLimitDetailsOf, partialMoveFrom, type MoveArgs } from '../../../sync/outbox/mutations/message-move.js';
import type { OutboxStore } from '../../../sync/outbox/store.js';
import type { FaultProxy } from '../../support/fault-proxy.js';
import { post } from '../../server/edit-helpers.js';
import { channelId, startTestServer, withRealm, type TestServer } from '../../server/harness.js';
import { outboxEnv, type Env } from './outbox-env.js';

let t: TestServer;
let proxy: FaultProxy;
let store: OutboxStore;
let env: Env;
const kind = new KindRegistry(ALL_KINDS).get('update_message_move', 1)!;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());
beforeEach(async () => {
  env = await outboxEnv({ kinds: ALL_KINDS, email: 'hamlet@example.com', server: t });
  ({ proxy, store } = env);
});
afterEach(() => env.close());

async function where(id: number): Promise<{ subject: string; stream_id: number }> {
  const r = await t.as('hamlet').get(`/messages/${id}`);
  return r.json['message'] as { subject: string; stream_id: number };
}
const drain = () => env.drain();
const move = (message_id: number, m: Partial<MoveArgs>): MoveArgs => ({
  message_id,
  propagate_mode: 'change_one',
  send_notification_to_old_thread: false,
  send_notification_to_new_thread: false,
  ...m,
});

describe('update_message_move against the reference server', () => {
  it('a topic edit with change_all moves the whole topic', async () => {
    const ids = [1, 2, 3].map((i) => post(t, 'hamlet', 'Verona', 'old plans', `m${i}`));
    store.enqueue(kind, move(ids[1]!, { topic: 'new plans', propagate_mode: 'change_all' }), null);
    await drain();
    expect(store.all().map((r) => r.state)).toEqual(['done']);
    for (const id of ids) expect((await where(id)).subject).toBe('new plans');
  });

  it('a channel move with change_one moves only the target; both notification flags are sent', async () => {
    const a = post(t, 'hamlet', 'Verona', 'travel', 'stay');
    const b = post(t, 'hamlet', 'Verona', 'travel', 'go');
    const denmark = channelId(t, 'Denmark');
    store.enqueue(kind, move(b, { stream_id: denmark, send_notification_to_new_thread: true }), null);
    await drain();
    expect(store.all()[0]?.state).toBe('done');
    expect(await where(b)).toMatchObject({ stream_id: denmark, subject: 'travel' });
    expect((await where(a)).stream_id).toBe(channelId(t, 'Verona'));
  });

  it('resolve then unresolve: two rows, sent in order (moves are not coalesced)', async () => {
    const id = post(t, 'hamlet', 'Verona', 'bug 12', 'fixed?');
    store.enqueue(kind, move(id, { topic: '✔ bug 12', propagate_mode: 'change_all' }), null);
    store.enqueue(kind, move(id, { topic: 'bug 12', propagate_mode: 'change_all' }), null);
    expect(store.all()).toHaveLength(2);
    const subjects: string[] = [];
    proxy.rule((r) => {
      if (r.method === 'PATCH') subjects.push(r.path);
      return false;
    }, { kind: 'reset' });
    await drain();
    expect(store.all().map((r) => r.state)).toEqual(['done', 'done']);
    expect(subjects).toHaveLength(2);
    expect((await where(id)).subject).toBe('bug 12');
  });

  it('a lost answer is verified by reading the message: done, moved once', async () => {
    const id = post(t, 'hamlet', 'Verona', 'lost', 'x');
    store.enqueue(kind, move(id, { topic: 'found' }), null);
    proxy.rule({ method: 'PATCH' }, { kind: 'drop' }, 1);
    await drain();
    expect(store.all()[0]).toMatchObject({ state: 'done', attempts: 1 });
    expect(proxy.log.filter((l) => l.method === 'PATCH')).toHaveLength(1);
    expect((await where(id)).subject).toBe('found');
  });

  it('past the move limit the row fails with the details kept; the partial move from them lands', async () => {
    await withRealm(t, { move_messages_within_stream_limit_seconds: 3600 }, async () => {
      const old = [1, 2].map((i) => post(t, 'hamlet', 'Verona', 'long thread', `old ${i}`));
      t.clock.advance(2 * 3600_000);
      const recent = [1, 2].map((i) => post(t, 'hamlet', 'Verona', 'long thread', `new ${i}`));
      const args = move(old[0]!, { topic: 'split off', propagate_mode: 'change_all' });
      const { id: rowId } = store.enqueue(kind, args, null);
      await drain();
      const row = store.get(rowId);
      expect(row).toMatchObject({ state: 'failed', lastError: { code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED' } });
      const details = moveLimitDetailsOf(row?.lastError);
      expect(details).toEqual({ first_message_id_allowed_to_move: recent[0], total_messages_in_topic: 4, total_messages_allowed_to_move: 2 });
      const partial = details && partialMoveFrom(details, args);
      expect(partial).toEqual({ ...args, message_id: recent[0], propagate_mode: 'change_later' });
      store.discard(rowId);
      store.enqueue(kind, partial, null);
      await drain();
      for (const id of recent) expect((await where(id)).subject).toBe('split off');
      for (const id of old) expect((await where(id)).subject).toBe('long thread');
    });
  });

  it('partialMoveFrom offers nothing when no message may move', () => {
    expect(partialMoveFrom({ first_message_id_allowed_to_move: null }, move(5, { topic: 'x' }))).toBeUndefined();
  });
});
