/**
 * The background fetch behind `channelTopics`, against a fake server: a malformed answer, a
 * refusal or a server error leaves the list incomplete without throwing (and queries do not ask
 * again for a minute), a good answer is stored with its version, and a fetch that a move overtook
 * is stored as stale.
 */
import { describe, expect, it } from 'vitest';
import { invalidateServerTopics, topicListState } from '../../../sync/db/queries/server-topics.js';
import type { StoreChanges } from '../../../sync/db/changes.js';
import { SessionQueries } from '../../../sync/engine/session-queries.js';
import { fakeServer } from '../api/fake-transport.js';
import * as eg from '../../support/eg.js';
import { localStore } from '../../support/eg-store.js';

const VERONA = eg.verona.stream_id;

function setup() {
  const db = localStore();
  const f = fakeServer();
  let now = 1_000_000;
  const emitted: StoreChanges[] = [];
  const warnings: unknown[] = [];
  const q = new SessionQueries(db, {
    selfUserId: () => eg.SELF,
    conn: f.conn,
    online: () => true,
    now: () => now,
    emit: (c) => emitted.push(c),
    logger: { info: () => undefined, error: () => undefined, warn: (m, d) => warnings.push([m, d]) },
  });
  return { db, f, q, emitted, warnings, advance: (ms: number) => (now += ms) };
}

const topics = (names: Array<[string, number]>) => ({ json: { result: 'success', msg: '', topics: names.map(([name, max_id]) => ({ name, max_id })) } });

describe('channelTopics: the background fetch', () => {
  it('a malformed answer, a refusal and a 500 leave the list incomplete, logged, retried after a minute', async () => {
    const { f, q, warnings, advance } = setup();
    f.reply({ json: { result: 'success', msg: '', topics: [{ name: 7 }] } });
    expect(q.channelTopics(VERONA).complete).toBe(false);
    await q.settled();
    expect(warnings).toHaveLength(1);
    expect(f.calls.map((c) => c.path)).toEqual([`/users/me/${VERONA}/topics`]);
    // Asked again at once: no new request for a minute.
    q.channelTopics(VERONA);
    await q.settled();
    expect(f.calls).toHaveLength(1);
    advance(60_000);
    f.reply({ status: 400, json: { result: 'error', msg: 'Invalid channel ID', code: 'BAD_REQUEST' } });
    expect(q.channelTopics(VERONA).complete).toBe(false);
    await q.settled();
    advance(60_000);
    f.reply({ status: 500, text: 'oops' });
    q.channelTopics(VERONA);
    await q.settled();
    expect(f.calls).toHaveLength(3);
    expect(warnings).toHaveLength(3);
    expect(q.channelTopics(VERONA)).toMatchObject({ complete: false, fetched_at: null, topics: [] });
  });

  it('a good answer is stored and announced; one request per channel at a time', async () => {
    const { db, f, q, emitted } = setup();
    f.reply(topics([['ghost', 20], ['castle', 10]]));
    q.channelTopics(VERONA);
    q.channelTopics(VERONA);
    await q.settled();
    expect(f.calls).toHaveLength(1);
    expect(emitted.map((c) => [...c.areas])).toEqual([['channel_topics']]);
    expect(q.channelTopics(VERONA)).toEqual({
      channel_id: VERONA,
      complete: true,
      fetched_at: 1_000_000,
      topics: [
        // Known from the server's list only: no time for messages the device does not hold.
        { topic: 'ghost', max_message_id: 20, last_message_timestamp: null, unread_count: 0, visibility_policy: 0, resolved: false },
        { topic: 'castle', max_message_id: 10, last_message_timestamp: null, unread_count: 0, visibility_policy: 0, resolved: false },
      ],
    });
    // Current: asking again sends nothing.
    q.channelTopics(VERONA);
    await q.settled();
    expect(f.calls).toHaveLength(1);
    expect(topicListState(db, VERONA)).toMatchObject({ fetched: true, current: true });
  });

  it('a move while the request is out: the answer is stored but stays stale', async () => {
    const { db, f, q } = setup();
    f.reply(topics([['castle', 10]]));
    const p = q.refreshTopics(VERONA); // the version is read now; the answer comes later
    invalidateServerTopics(db, [VERONA]); // e.g. a move event applied meanwhile
    await p;
    expect(topicListState(db, VERONA)).toMatchObject({ fetched: true, current: false });
    expect(q.channelTopics(VERONA).topics.map((t) => t.topic)).toEqual(['castle']);
  });
});
