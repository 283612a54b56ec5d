/**
 * Narrows over channel history no event covers (an unsubscribed channel, channels:public) are never
 * trusted from ranges, and their stale row-less copies leave the cache when the server's answer
 * omits them; everything else is left alone.
 */
import { describe, expect, it } from 'vitest';
import { upsertMessages } from '../../../sync/db/queries/messages.js';
import { ChangeCollector } from '../../../sync/db/changes.js';
import { compileLocalNarrow } from '../../../sync/db/narrow/compile.js';
import { dropStale, forgetRanges, isVolatile } from '../../../sync/engine/narrow/volatile.js';
import { channelMessage, fixtureDb, SELF, VERONA } from './narrow-fixtures.js';

const SCOTLAND = 7;

function withScotland() {
  const db = fixtureDb();
  db.prepare('INSERT INTO channels (id, name, json) VALUES (?, ?, ?)').run(SCOTLAND, 'Scotland', JSON.stringify({ stream_id: SCOTLAND, name: 'Scotland', invite_only: false }));
  return db;
}

const historicalOnly = (id: number, channel: number) => channelMessage(id, 'heath', channel, { flags: ['read', 'historical'] });

describe('volatile narrows', () => {
  it('a channel the user is not subscribed to, and channels:public, are volatile; subscribed channels and personal narrows are not', () => {
    const db = withScotland();
    expect(isVolatile(db, compileLocalNarrow(db, [{ operator: 'channel', operand: 'Scotland' }], SELF))).toBe(true);
    expect(isVolatile(db, compileLocalNarrow(db, [{ operator: 'channels', operand: 'public' }], SELF))).toBe(true);
    expect(isVolatile(db, compileLocalNarrow(db, [{ operator: 'channel', operand: 'Verona' }], SELF))).toBe(false);
    expect(isVolatile(db, compileLocalNarrow(db, [], SELF))).toBe(false);
    expect(isVolatile(db, compileLocalNarrow(db, [{ operator: 'channel', operand: 'Scotland', negated: true }], SELF))).toBe(false);
  });

  it('forgetRanges drops only that narrow\'s ranges', () => {
    const db = withScotland();
    const scot = compileLocalNarrow(db, [{ operator: 'channel', operand: 'Scotland' }], SELF);
    const ver = compileLocalNarrow(db, [{ operator: 'channel', operand: 'Verona' }], SELF);
    const put = db.prepare('INSERT INTO narrow_ranges (narrow_key, lo, hi) VALUES (?, ?, ?)');
    put.run(scot.key, 0, 100);
    put.run(ver.key, 0, 100);
    forgetRanges(db, scot);
    expect(db.prepare('SELECT narrow_key FROM narrow_ranges').pluck().all()).toEqual([ver.key]);
  });

  it('dropStale removes row-less copies in unsubscribed channels that the answer omits within its span, and nothing else', () => {
    const db = withScotland();
    const changes = new ChangeCollector();
    upsertMessages(db, [historicalOnly(1, SCOTLAND), historicalOnly(2, SCOTLAND), historicalOnly(3, SCOTLAND), historicalOnly(50, SCOTLAND)], changes);
    upsertMessages(db, [channelMessage(4, 'heath', SCOTLAND, { flags: ['starred'] })], changes); // the server holds a row (flags prove it)
    upsertMessages(db, [historicalOnly(5, VERONA)], changes); // subscribed channel: events keep it current
    const n = compileLocalNarrow(db, [{ operator: 'channels', operand: 'public' }], SELF);
    const after = new ChangeCollector();
    dropStale(db, n, { lo: 1, hi: 10 }, [1, 3], after);
    const left = db.prepare('SELECT id FROM messages ORDER BY id').pluck().all();
    expect(left).toEqual([1, 3, 4, 5, 50]);
    expect([...after.removed]).toEqual([2]);
  });
});

describe('empty topic in local narrows', () => {
  it("the realm's empty-topic display name as a topic operand finds messages stored with topic \"\"", async () => {
    const { readNarrowPage } = await import('../../../sync/engine/narrow/reader.js');
    const db = fixtureDb();
    db.prepare("INSERT INTO realm (name, value) VALUES ('realm_empty_topic_display_name', ?)").run(JSON.stringify('general chat'));
    upsertMessages(db, [channelMessage(1, '', VERONA), channelMessage(2, 'general chat!', VERONA), channelMessage(3, 'castle', VERONA)], new ChangeCollector(), { personal: true });
    const ids = (topic: string) => readNarrowPage(db, [{ operator: 'channel', operand: 'Verona' }, { operator: 'topic', operand: topic }], { anchor: 'newest', before: 10, after: 0 }, SELF).messages.map((m) => m.id);
    expect(ids('general chat')).toEqual([1]);
    expect(ids('')).toEqual([1]);
    expect(ids('castle')).toEqual([3]);
  });
});
