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
import * as eg from '../../support/eg.js';
import { localStore } from '../../support/eg-store.js';

const SELF = eg.SELF;

function withScotland() {
  return localStore({ snapshot: { never_subscribed: [eg.channel({ place: eg.scotland })] } });
}

const historicalOnly = (id: number, channel: eg.Place) => eg.streamMessage({ id, topic: 'heath', channel, flags: ['read', 'historical'] });

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
    upsertMessages(db, [historicalOnly(1, eg.scotland), historicalOnly(2, eg.scotland), historicalOnly(3, eg.scotland), historicalOnly(50, eg.scotland)], changes);
    upsertMessages(db, [eg.streamMessage({ id: 4, topic: 'heath', channel: eg.scotland, flags: ['starred'] })], changes); // the server holds a row (flags prove it)
    upsertMessages(db, [historicalOnly(5, eg.verona)], changes); // subscribed channel: events keep it current
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
    const db = localStore({ snapshot: { realm_empty_topic_display_name: 'general chat' } });
    upsertMessages(db, [eg.streamMessage({ id: 1, topic: '' }), eg.streamMessage({ id: 2, topic: 'general chat!' }), eg.streamMessage({ id: 3, topic: 'castle' })], new ChangeCollector(), { personal: true });
    const ids = (topic: string) => readNarrowPage(db, [{ operator: 'channel', operand: 'Verona' }, { operator: 'topic', operand: topic }], { anchor: 'newest', before: 10, after: 0 }, SELF).messages.map((m) => m.id);
    expect(ids('general chat')).toEqual([1]);
    expect(ids('')).toEqual([1]);
    expect(ids('castle')).toEqual([3]);
  });
});
