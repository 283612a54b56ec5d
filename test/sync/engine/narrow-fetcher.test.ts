/**
 * The fetcher asks the server only for what the completeness ranges lack (requests counted on a
 * recording fake transport), and serves the cache, marked incomplete, when offline.
 */
import { describe, expect, it } from 'vitest';
import { fetchNarrowPage } from '../../../sync/engine/narrow/fetcher.js';
import { readNarrowPage } from '../../../sync/engine/narrow/reader.js';
import { fakeServer } from '../api/fake-transport.js';
import * as eg from '../../support/eg.js';
import { localStore } from '../../support/eg-store.js';

const TOPIC = [{ operator: 'channel', operand: 'Verona' }, { operator: 'topic', operand: 'castle' }];
const range = (lo: number, hi: number) => Array.from({ length: hi - lo + 1 }, (_, i) => eg.streamMessage({ id: lo + i }));

describe('fetchNarrowPage', () => {
  it('fetches a page once, then serves it from the cache; later pages continue from the known range', async () => {
    const db = localStore();
    const f = fakeServer();
    f.reply(eg.messagesAnswer(range(951, 1000), { newest: true }));
    const p1 = await fetchNarrowPage(db, TOPIC, { anchor: 'newest', before: 50, after: 0 }, { conn: f.conn, selfUserId: eg.SELF });
    expect(p1.requests).toBe(1);
    expect(f.calls[0]!.query).toMatchObject({ anchor: 'newest', num_before: '50', num_after: '0', include_anchor: 'false', apply_markdown: 'true', client_gravatar: 'false' });
    expect(JSON.parse(f.calls[0]!.query.narrow!)).toEqual([{ operator: 'channel', operand: 'Verona' }, { operator: 'topic', operand: 'castle' }]);
    expect(p1.messages.map((m) => m.id)).toEqual(range(951, 1000).map((m) => m.id));
    expect(p1.before).toEqual({ complete: true, found_end: false });
    expect(p1.after).toEqual({ complete: true, found_end: true });
    expect([...p1.changes.addedMessageIds].length).toBe(50);

    const again = await fetchNarrowPage(db, TOPIC, { anchor: 'newest', before: 50, after: 0 }, { conn: f.conn, selfUserId: eg.SELF });
    expect(again.requests).toBe(0);
    expect(f.calls).toHaveLength(1);

    // 80 newest: 50 are known, so only the 30 below the known range are asked for.
    f.reply(eg.messagesAnswer(range(921, 950)));
    const p2 = await fetchNarrowPage(db, TOPIC, { anchor: 'newest', before: 80, after: 0 }, { conn: f.conn, selfUserId: eg.SELF });
    expect(p2.requests).toBe(1);
    expect(f.calls[1]!.query).toMatchObject({ anchor: '951', include_anchor: 'false', num_before: '30', num_after: '0' });
    expect(p2.messages).toHaveLength(80);
    expect(p2.before.complete).toBe(true);
  });

  it('asks at most 1,000 a side per request, and stops at found_oldest', async () => {
    const db = localStore();
    const f = fakeServer();
    f.reply(eg.messagesAnswer(range(1501, 2500), { newest: true }));
    f.reply(eg.messagesAnswer(range(501, 1500)));
    f.reply(eg.messagesAnswer(range(1, 500), { oldest: true }));
    const p = await fetchNarrowPage(db, TOPIC, { anchor: 'newest', before: 2500, after: 0 }, { conn: f.conn, selfUserId: eg.SELF });
    expect(f.calls.map((c) => [c.query.anchor, c.query.num_before])).toEqual([['newest', '1000'], ['1501', '1000'], ['501', '500']]);
    expect(p.messages).toHaveLength(2500);
    expect(p.before).toEqual({ complete: true, found_end: true });
    await expect(fetchNarrowPage(db, TOPIC, { anchor: 'newest', before: 5001, after: 0 }, { conn: f.conn, selfUserId: eg.SELF })).rejects.toThrow(RangeError);
  });

  it('around an id anchor: one request for both sides, then only the missing side', async () => {
    const db = localStore();
    const f = fakeServer();
    f.reply(eg.messagesAnswer(range(90, 110)));
    const p = await fetchNarrowPage(db, TOPIC, { anchor: 100, before: 10, after: 10 }, { conn: f.conn, selfUserId: eg.SELF });
    expect(f.only().query).toMatchObject({ anchor: '100', include_anchor: 'true', num_before: '10', num_after: '10' });
    expect(p.messages).toHaveLength(21);
    expect(p.before.complete && p.after.complete).toBe(true);
    f.reply(eg.messagesAnswer(range(111, 115), { newest: true }));
    const q = await fetchNarrowPage(db, TOPIC, { anchor: 100, before: 5, after: 20 }, { conn: f.conn, selfUserId: eg.SELF });
    expect(f.calls[1]!.query).toMatchObject({ anchor: '110', include_anchor: 'false', num_before: '0', num_after: '10' });
    expect(q.after).toEqual({ complete: true, found_end: true });
  });

  it('offline: serves the cached page, incomplete, instead of failing', async () => {
    const db = localStore();
    const online = fakeServer();
    online.reply(eg.messagesAnswer(range(100, 109), { newest: true }));
    await fetchNarrowPage(db, TOPIC, { anchor: 'newest', before: 10, after: 0 }, { conn: online.conn, selfUserId: eg.SELF });
    const offline = fakeServer({
      transport: () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })),
    });
    const p = await fetchNarrowPage(db, TOPIC, { anchor: 'newest', before: 30, after: 0 }, { conn: offline.conn, selfUserId: eg.SELF });
    expect(p.offline).toBe(true);
    expect(p.messages.map((m) => m.id)).toEqual(range(100, 109).map((m) => m.id));
    expect(p.before).toEqual({ complete: false, found_end: false });
    expect(p.after).toEqual({ complete: true, found_end: true });
    // The same read, purely local, agrees.
    const local = readNarrowPage(db, TOPIC, { anchor: 'newest', before: 30, after: 0 }, eg.SELF);
    expect(local.messages).toEqual(p.messages);
  });

  it('a 502 or a 429 also serves the cached page, incomplete; a permanent error still fails', async () => {
    const db = localStore();
    const online = fakeServer();
    online.reply(eg.messagesAnswer(range(100, 109), { newest: true }));
    await fetchNarrowPage(db, TOPIC, { anchor: 'newest', before: 10, after: 0 }, { conn: online.conn, selfUserId: eg.SELF });
    for (const answer of [
      { status: 502, text: '<html>bad gateway</html>' },
      { status: 429, json: { result: 'error', msg: 'slow down', code: 'RATE_LIMIT_HIT', 'retry-after': 1 } },
    ]) {
      const down = fakeServer();
      down.reply(answer);
      const p = await fetchNarrowPage(db, TOPIC, { anchor: 'newest', before: 30, after: 0 }, { conn: down.conn, selfUserId: eg.SELF });
      expect(p.offline).toBe(true);
      expect(p.messages.map((m) => m.id)).toEqual(range(100, 109).map((m) => m.id));
    }
    const denied = fakeServer();
    denied.reply({ status: 400, json: { result: 'error', msg: 'Invalid narrow', code: 'BAD_NARROW' } });
    await expect(fetchNarrowPage(db, TOPIC, { anchor: 'newest', before: 30, after: 0 }, { conn: denied.conn, selfUserId: eg.SELF })).rejects.toMatchObject({ kind: 'api', code: 'BAD_NARROW' });
  });
});
