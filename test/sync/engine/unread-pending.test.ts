/**
 * Pending outbox rows over messages the cache does not hold (engine/unread-pending.ts): unread
 * counts leave out what a queued read names (ids, a topic by key, a narrow a server row can
 * answer), the starred count follows the user's last pending star or unstar, and rows that are
 * done or discarded no longer count. No server: the server's sets are stored as register would.
 */
import { describe, expect, it } from 'vitest';
import { topicsOf, unreadCounts } from '../../../sync/db/queries/topics.js';
import { replaceServerStarred, replaceServerUnreads } from '../../../sync/db/queries/unreads.js';
import { pendingUnreadChanges } from '../../../sync/engine/unread-pending.js';
import type { OutboxRowState } from '../../../sync/protocol/index.js';
import * as eg from '../../support/eg.js';
import { insertOutboxRow, localStore } from '../../support/eg-store.js';

const [SELF, VERONA, DENMARK] = [eg.SELF, eg.verona.stream_id, eg.denmark.stream_id];

function seeded() {
  const db = localStore({ account: true });
  replaceServerUnreads(
    db,
    {
      count: 6,
      streams: [
        { stream_id: VERONA, topic: 'Castle', unread_message_ids: [1, 2] },
        { stream_id: DENMARK, topic: 'ghost', unread_message_ids: [3] },
      ],
      pms: [{ other_user_id: 11, unread_message_ids: [4] }],
      huddles: [{ user_ids_string: `${SELF},11,12`, unread_message_ids: [6] }],
      mentions: [3],
      old_unreads_missing: false,
    },
    SELF,
  );
  replaceServerStarred(db, [5, 7]);
  return db;
}

function queue(db: ReturnType<typeof seeded>, kind: string, args: unknown, state: OutboxRowState = 'queued'): void {
  insertOutboxRow(db, { kind, args, state });
}

const counts = (db: ReturnType<typeof seeded>) => {
  const p = pendingUnreadChanges(db, SELF);
  return unreadCounts(db, p.exclusions, p.stars);
};

describe('pending reads over messages the cache does not hold', () => {
  it('with nothing pending, the server sets count as stored', () => {
    const db = seeded();
    const u = counts(db);
    expect(u).toMatchObject({ total: 5, mentions: 1, starred: 2, complete: true });
    expect(u.dms).toEqual([
      { dm_key: `${SELF},11`, count: 1, mentions: 0 },
      { dm_key: `${SELF},11,12`, count: 1, mentions: 0 },
    ]);
    expect(topicsOf(db, VERONA).map((t) => [t.topic, t.last_message_id, t.unread_count])).toEqual([['Castle', 2, 2]]);
    db.close();
  });

  it('a queued topic read (any spelling), id reads, and narrow reads leave the counts', () => {
    const db = seeded();
    queue(db, 'mark_topic_as_read', { stream_id: VERONA, topic_name: 'CASTLE' });
    expect(counts(db).channels).toEqual([{ channel_id: DENMARK, count: 1, unmuted_count: 1 }]);
    expect(topicsOf(db, VERONA, pendingUnreadChanges(db, SELF).exclusions).map((t) => t.unread_count)).toEqual([0]);
    queue(db, 'update_message_flags_for_narrow', { narrow: [{ operator: 'dm', operand: [11] }] });
    expect(counts(db).dms.map((d) => d.dm_key)).toEqual([`${SELF},11,12`]);
    // A narrow a server row cannot answer (a search) changes nothing until the server says.
    queue(db, 'update_message_flags_for_narrow', { narrow: [{ operator: 'search', operand: 'ghost' }] });
    expect(counts(db).total).toBe(2);
    queue(db, 'update_message_flags_for_narrow', { narrow: [{ operator: 'channel', operand: 'Denmark' }, { operator: 'is', operand: 'mentioned' }] });
    expect(counts(db)).toMatchObject({ total: 1, mentions: 0 });
    // Read then unread again (the user's last action wins); then read by id.
    queue(db, 'update_message_flags', { messages: [6], op: 'add', flag: 'read' });
    queue(db, 'update_message_flags', { messages: [6], op: 'remove', flag: 'read' });
    expect(counts(db).total).toBe(1);
    queue(db, 'update_message_flags', { messages: [6], op: 'add', flag: 'read' });
    expect(counts(db).total).toBe(0);
    db.close();
  });

  it('stars follow the last pending action; finished rows count no more', () => {
    const db = seeded();
    queue(db, 'update_message_flags', { messages: [5], op: 'remove', flag: 'starred' });
    queue(db, 'update_message_flags', { messages: [8, 9], op: 'add', flag: 'starred' });
    queue(db, 'update_message_flags', { messages: [9], op: 'remove', flag: 'starred' });
    expect(counts(db).starred).toBe(2); // 7 and 8
    queue(db, 'mark_topic_as_read', { stream_id: VERONA, topic_name: 'castle' }, 'done');
    queue(db, 'mark_topic_as_read', { stream_id: DENMARK, topic_name: 'ghost' }, 'discarded');
    expect(counts(db).total).toBe(5);
    db.close();
  });
});
