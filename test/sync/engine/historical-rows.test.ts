/**
 * The local-only HAS_ROW bit (the server holds a per-user row): how each way a message or flag
 * change enters the store derives it, and that personal-history narrows select on it.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { parseEvent, type ZulipEvent } from '../../../sync/api/index.js';
import { bitsToFlags, FLAG, HAS_ROW, NO_ROW_FLAGS, rowBitOf } from '../../../sync/db/flags.js';
import { openLocalDb, type LocalDb } from '../../../sync/db/open.js';
import { getStoredMessages, upsertMessages, type RowSource } from '../../../sync/db/queries/messages.js';
import { ChangeCollector } from '../../../sync/db/changes.js';
import { applyEvents } from '../../../sync/engine/handlers/index.js';
import { compileLocalNarrow } from '../../../sync/db/narrow/compile.js';
import * as eg from '../../support/eg.js';

const SELF = eg.SELF;

let db: LocalDb;
beforeEach(() => {
  db = openLocalDb(':memory:');
});

const bits = (id: number) => db.prepare('SELECT flags FROM messages WHERE id = ?').pluck().get(id) as number;
const hasRow = (id: number) => (bits(id) & HAS_ROW) !== 0;
const store = (flags: string[], source: RowSource = {}, id = 1) => upsertMessages(db, [eg.streamMessage({ id, flags })], new ChangeCollector(), source);
function apply(...raw: Array<{ type: string } & Record<string, unknown>>): void {
  const events: ZulipEvent[] = raw.map(({ type, ...fields }) => parseEvent(eg.event(type, fields)));
  applyEvents(db, events, { selfUserId: SELF, logger: { warn: () => undefined } }, new ChangeCollector());
}
const ids = (narrow: unknown) => {
  const n = compileLocalNarrow(db, narrow, SELF);
  return db.prepare(`SELECT m.id FROM messages m WHERE ${n.where} ORDER BY m.id`).pluck().all(...n.params) as number[];
};
const subscribe = (id: number, historyPublic = true) =>
  apply({ type: 'subscription', op: 'add', subscriptions: [eg.subscription({ stream_id: id, name: `c${id}`, invite_only: !historyPublic, history_public_to_subscribers: historyPublic, subscribers: [SELF] })] });
const move = (over: Record<string, unknown>) => ({
  type: 'update_message', user_id: 3, rendering_only: false, message_id: 1, message_ids: [1], flags: ['read'], edit_timestamp: 2,
  stream_id: 5, stream_name: 'c5', propagate_mode: 'change_all', orig_subject: 'castle', ...over,
});

describe('rowBitOf', () => {
  it('flags without historical, or with more than read + historical, come only from a row', () => {
    expect(rowBitOf(0, undefined, undefined)).toBe(HAS_ROW);
    expect(rowBitOf(FLAG.read, undefined, undefined)).toBe(HAS_ROW);
    expect(rowBitOf(NO_ROW_FLAGS | FLAG.starred, undefined, undefined)).toBe(HAS_ROW);
    expect(rowBitOf(FLAG.historical, undefined, undefined)).toBe(HAS_ROW); // an un-read historical row
  });
  it('exactly read + historical keeps the stored knowledge (a fresh message: no row); a known source decides', () => {
    expect(rowBitOf(NO_ROW_FLAGS, undefined, undefined)).toBe(0);
    expect(rowBitOf(NO_ROW_FLAGS, undefined, NO_ROW_FLAGS | HAS_ROW)).toBe(HAS_ROW);
    expect(rowBitOf(NO_ROW_FLAGS, undefined, NO_ROW_FLAGS)).toBe(0);
    expect(rowBitOf(NO_ROW_FLAGS, true, undefined)).toBe(HAS_ROW);
    expect(rowBitOf(FLAG.read, false, HAS_ROW)).toBe(0);
  });
  it('is never a server flag name', () => {
    expect(bitsToFlags(NO_ROW_FLAGS | HAS_ROW)).toEqual(['read', 'historical']);
  });
});

describe('ingest', () => {
  it('message events and personal-history narrows: a row; channel narrows: derived, keeping what is stored', () => {
    apply({ type: 'message', message: { ...eg.streamMessage({ id: 1 }), flags: undefined }, flags: ['read', 'historical'] });
    expect(hasRow(1)).toBe(true);
    store(['read', 'historical'], { personal: true }, 2);
    expect(hasRow(2)).toBe(true);
    store(['read', 'historical'], {}, 3);
    expect(hasRow(3)).toBe(false);
    store(['read', 'historical'], {}, 2); // a channel narrow fetches it again: still a row
    expect(hasRow(2)).toBe(true);
    store(['read'], {}, 3); // now without historical: a row
    expect(hasRow(3)).toBe(true);
    expect(getStoredMessages(db, [2])[0]!.flags).toEqual(['read', 'historical']);
  });
  it('known rows (a flag event named the id, or the server was asked) win over the flags', () => {
    store(['read', 'historical'], { knownRows: new Map([[1, true]]) });
    expect(hasRow(1)).toBe(true);
    store(['read', 'historical'], { knownRows: new Map([[1, false]]) });
    expect(hasRow(1)).toBe(false);
  });
});

describe('update_message_flags', () => {
  it('changing a flag of channel history makes a (historical) row: the message joins personal history', () => {
    subscribe(5);
    store(['read', 'historical']);
    expect(ids([])).toEqual([]);
    apply({ type: 'update_message_flags', op: 'add', flag: 'starred', messages: [1], all: false });
    expect(hasRow(1)).toBe(true);
    apply({ type: 'update_message_flags', op: 'remove', flag: 'starred', messages: [1], all: false });
    expect(bits(1)).toBe(NO_ROW_FLAGS | HAS_ROW); // the row stays, unstarred
    expect(ids([])).toEqual([1]);
    expect(ids([{ operator: 'channel', operand: 5 }])).toEqual([1]);
  });
});

describe('update_message', () => {
  it('["read"] for a user without a row means no row: read + historical, out of personal history', () => {
    store(['read', 'historical']);
    apply({ type: 'update_message', user_id: 3, rendering_only: false, message_id: 1, message_ids: [1], flags: ['read'], edit_timestamp: 2, stream_id: 5, content: 'x', rendered_content: '<p>x</p>' });
    expect(bits(1)).toBe(NO_ROW_FLAGS);
    expect(ids([])).toEqual([]);
  });
  it('a row keeps the event flags (mentions follow the edit)', () => {
    store(['read']);
    apply({ type: 'update_message', user_id: 3, rendering_only: false, message_id: 1, message_ids: [1], flags: ['read', 'mentioned'], edit_timestamp: 2, stream_id: 5, content: 'x', rendered_content: '<p>x</p>' });
    expect(bits(1)).toBe(FLAG.read | FLAG.mentioned | HAS_ROW);
  });
  it('channel move into a subscribed channel with shared history: rows stay as they were', () => {
    subscribe(6);
    store(['read', 'historical'], {}, 1);
    store(['read'], {}, 2);
    apply(move({ message_ids: [1, 2], new_stream_id: 6 }));
    expect(bits(1)).toBe(NO_ROW_FLAGS);
    expect(bits(2)).toBe(FLAG.read | HAS_ROW);
  });
  it('channel move into a subscribed channel with protected history: subscribers gain read rows', () => {
    subscribe(7, false);
    store(['read', 'historical'], {}, 1);
    store(['read', 'historical'], {}, 2);
    apply(move({ message_ids: [1, 2], new_stream_id: 7 }));
    expect(bits(1)).toBe(FLAG.read | HAS_ROW);
    expect(bits(2)).toBe(FLAG.read | HAS_ROW);
  });
  it('channel move into an unsubscribed channel: rows go (the session then evicts the messages)', () => {
    store(['read', 'starred'], {}, 1);
    store(['read'], {}, 2);
    apply(move({ message_ids: [1, 2], new_stream_id: 8, flags: ['read'] }));
    expect(bits(1)).toBe(NO_ROW_FLAGS);
    expect(bits(2)).toBe(NO_ROW_FLAGS);
  });
  it('a historical row survives a move into a subscribed channel (its flags prove it)', () => {
    subscribe(6);
    store(['read', 'historical'], { personal: true });
    apply(move({ new_stream_id: 6, flags: ['read', 'historical'] }));
    expect(bits(1)).toBe(NO_ROW_FLAGS | HAS_ROW);
    expect(ids([])).toEqual([1]);
  });
});
