/**
 * The unread and topic summaries (migration 0009) stay exact through every kind of change: new
 * messages, re-fetches, edits and moves, deletions, read / unread / mention flag changes, the
 * server's unread rows for messages cached or not, local echoes. After each step of a random
 * sequence (checked every few steps), the summary tables equal a rebuild from the rows, and the counts they answer equal the
 * scan of every unread message.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '../../../sync/api/index.js';
import { ChangeCollector } from '../../../sync/db/changes.js';
import { FLAG } from '../../../sync/db/flags.js';
import { SUMMARY_REBUILD } from '../../../sync/db/migrations/0009-unread-summary.js';
import { openLocalDb, type LocalDb } from '../../../sync/db/open.js';
import { withSummariesPaused } from '../../../sync/db/queries/summaries.js';
import { changeFlagWithRow, setFlagOnAll } from '../../../sync/db/queries/message-rows.js';
import { deleteMessages, LOCAL_ECHO_MIN_ID, updateStoredMessage, upsertMessages } from '../../../sync/db/queries/messages.js';
import { channelsWithTopics, topicRows, unreadCounts } from '../../../sync/db/queries/topics.js';
import {
  addServerUnreadBits,
  forgetServerUnreads,
  moveServerUnreads,
  NO_EXCLUSIONS,
  noteMessageFlags,
  putServerUnread,
  replaceServerUnreads,
  setServerUnreadMentionBits,
  unreadDms,
  unreadDmsScan,
  unreadTopics,
  unreadTopicsScan,
} from '../../../sync/db/queries/unreads.js';
import * as eg from '../../support/eg.js';

let db: LocalDb;
beforeEach(() => {
  db = openLocalDb(':memory:');
});

const CHANNELS = [
  { stream_id: 5, name: 'verona' },
  { stream_id: 6, name: 'denmark' },
];
/** Two spellings of one topic key among them. */
const TOPICS = ['castle', 'Äpfel', 'äpfel', 'moat'];
const DMS = [[eg.SELF, 11], [eg.SELF, 11, 12], [eg.SELF]];
const MENTIONS = [[], ['mentioned'], ['stream_wildcard_mentioned'], ['topic_wildcard_mentioned'], ['mentioned', 'topic_wildcard_mentioned']];

const tables = () => ({
  unread: db.prepare('SELECT * FROM unread_summary ORDER BY channel_id, topic_key, dm_key').all(),
  topics: db.prepare('SELECT * FROM cached_topics ORDER BY channel_id, topic_key').all(),
});
const sortTopics = <T extends { channel_id: number; topic_key: string }>(xs: T[]) =>
  [...xs].sort((a, b) => a.channel_id - b.channel_id || (a.topic_key < b.topic_key ? -1 : a.topic_key > b.topic_key ? 1 : 0));
const sortDms = <T extends { dm_key: string }>(xs: T[]) => [...xs].sort((a, b) => (a.dm_key < b.dm_key ? -1 : 1));

/** The sidebar's topics from the rows alone (the query before the summaries). */
const topicsFromScratch = () =>
  db
    .prepare(
      `WITH known AS (
        SELECT g.channel_id, g.topic_key, m.topic, g.max_id
          FROM (SELECT channel_id, topic_key, max(id) AS max_id FROM messages WHERE channel_id IS NOT NULL GROUP BY channel_id, topic_key) g JOIN messages m ON m.id = g.max_id
        UNION ALL
        SELECT u.channel_id, u.topic_key, u.topic, u.message_id FROM server_unreads u
         WHERE u.channel_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = u.message_id)
      ),
      merged AS (SELECT channel_id, topic_key, topic, max(max_id) AS max_id FROM known GROUP BY channel_id, topic_key)
      SELECT k.channel_id, k.topic, k.topic_key, k.max_id AS last_message_id, json_extract(lm.json, '$.timestamp') AS last_message_timestamp
        FROM merged k LEFT JOIN messages lm ON lm.id = k.max_id`,
    )
    .all();

/** The summaries equal a rebuild from the rows, and answer what the scan answers. */
function expectExact(step: string): void {
  const kept = tables();
  const sidebar = topicRows(db, NO_EXCLUSIONS).map(({ channel_id, topic, topic_key, last_message_id, last_message_timestamp }) => ({ channel_id, topic, topic_key, last_message_id, last_message_timestamp }));
  expect(sortTopics(sidebar), step).toEqual(sortTopics(topicsFromScratch() as typeof sidebar));
  expect(sortTopics(unreadTopics(db, NO_EXCLUSIONS)), step).toEqual(sortTopics(unreadTopicsScan(db, NO_EXCLUSIONS)));
  expect(sortDms(unreadDms(db, NO_EXCLUSIONS)), step).toEqual(sortDms(unreadDmsScan(db, NO_EXCLUSIONS)));
  db.exec(SUMMARY_REBUILD);
  expect(kept, step).toEqual(tables());
}

/** Deterministic pseudo-random numbers (a seed per run, so a failure repeats). */
function rng(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % n;
  };
}

function message(r: (n: number) => number, id: number): Message {
  const flags = [...MENTIONS[r(MENTIONS.length)]!, ...(r(3) === 0 ? ['read'] : [])];
  if (r(4) === 0) return eg.dmMessage({ id, participants: DMS[r(DMS.length)]!, flags });
  return eg.streamMessage({ id, channel: CHANNELS[r(CHANNELS.length)]!, topic: TOPICS[r(TOPICS.length)]!, flags });
}

describe('unread_summary and cached_topics', () => {
  it('start from the rows already stored (the migration rebuilds them)', () => {
    upsertMessages(db, [eg.streamMessage({ id: 1 }), eg.streamMessage({ id: 2, topic: 'Castle', flags: ['mentioned'] }), eg.dmMessage({ id: 3 })], new ChangeCollector());
    putServerUnread(db, 4, { channel_id: 5, topic: 'moat' }, FLAG.stream_wildcard_mentioned);
    const kept = tables();
    db.exec('DELETE FROM unread_summary; DELETE FROM cached_topics');
    db.exec(SUMMARY_REBUILD);
    expect(tables()).toEqual(kept);
    expect(kept.unread).toEqual([
      { channel_id: 0, topic_key: '', dm_key: `${eg.SELF},${eg.othello.user_id}`.split(',').map(Number).sort((a, b) => a - b).join(','), count: 1, personal_mentions: 0, wildcard_mentions: 0, last_id: 0, topic: '' },
      { channel_id: 5, topic_key: 'castle', dm_key: '', count: 2, personal_mentions: 1, wildcard_mentions: 0, last_id: 2, topic: 'Castle' },
      { channel_id: 5, topic_key: 'moat', dm_key: '', count: 1, personal_mentions: 0, wildcard_mentions: 1, last_id: 4, topic: 'moat' },
    ]);
  });

  it('a server row counts until its message is cached, and again when the cached one goes', () => {
    putServerUnread(db, 10, { channel_id: 5, topic: 'castle' }, 0);
    expectExact('server row');
    upsertMessages(db, [eg.streamMessage({ id: 10, flags: ['read'] })], new ChangeCollector());
    expect(unreadTopics(db, NO_EXCLUSIONS)).toEqual([]);
    expectExact('cached, read');
    db.prepare('DELETE FROM messages WHERE id = 10').run();
    expect(unreadTopics(db, NO_EXCLUSIONS)).toMatchObject([{ channel_id: 5, count: 1 }]);
    expectExact('cached copy gone');
  });

  it('follow marking read and unread, mentions, moves and deletions', () => {
    const changes = new ChangeCollector();
    upsertMessages(db, [1, 2, 3].map((id) => eg.streamMessage({ id, topic: id === 3 ? 'Castle' : 'castle' })), changes);
    expect(unreadTopics(db, NO_EXCLUSIONS)).toMatchObject([{ topic: 'Castle', count: 3 }]);
    // Respelt (the same topic key): the newest unread's new spelling.
    updateStoredMessage(db, 3, (m) => ({ ...m, subject: 'CASTLE' }), changes);
    expect(unreadTopics(db, NO_EXCLUSIONS)).toMatchObject([{ topic: 'CASTLE', count: 3 }]);
    changeFlagWithRow(db, [3], FLAG.read, true);
    // The newest unread is message 2 now: its spelling.
    expect(unreadTopics(db, NO_EXCLUSIONS)).toMatchObject([{ topic: 'castle', count: 2 }]);
    expectExact('marked read');
    changeFlagWithRow(db, [1], FLAG.mentioned, true);
    expectExact('mentioned');
    updateStoredMessage(db, 2, (m) => ({ ...m, stream_id: 6, display_recipient: 'denmark', subject: 'moved' }), changes);
    expectExact('moved');
    changeFlagWithRow(db, [3], FLAG.read, false);
    deleteMessages(db, [1], changes);
    expectExact('unread again, deleted');
    setFlagOnAll(db, FLAG.read);
    expect(unreadTopics(db, NO_EXCLUSIONS)).toEqual([]);
    expectExact('all read');
  });

  it('equal a from-scratch count after a random sequence of every kind of change', () => {
    for (const seed of [1, 2]) {
      db = openLocalDb(':memory:');
      const r = rng(seed);
      const changes = new ChangeCollector();
      let nextId = 1;
      const anyId = () => 1 + r(nextId + 2);
      for (let step = 0; step < 250; step++) {
        const kind = r(12);
        const label = `seed ${seed}, step ${step}, kind ${kind}`;
        if (kind === 0 || kind === 1) {
          // New messages (sometimes a batch), or a re-fetch of one with other flags; now and then a
          // history batch big enough to be written with the triggers dropped (summaries.ts), mixing
          // new ids (some with server rows elsewhere), stored ones and one id twice.
          const bulk = r(4) === 0;
          const batch = Array.from({ length: bulk ? 16 + r(20) : 1 + r(3) }, () => message(r, (kind === 1 || (bulk && r(5) === 0)) && nextId > 1 ? anyId() : nextId++));
          if (bulk) batch.push(message(r, batch[0]!.id));
          upsertMessages(db, bulk ? batch : [...new Map(batch.map((m) => [m.id, m])).values()], changes);
          for (const m of batch) if (r(2) === 0) noteMessageFlags(db, m);
        } else if (kind === 2) {
          changeFlagWithRow(db, [anyId(), anyId()], FLAG.read, r(2) === 0);
        } else if (kind === 3) {
          changeFlagWithRow(db, [anyId()], [FLAG.mentioned, FLAG.stream_wildcard_mentioned, FLAG.topic_wildcard_mentioned][r(3)]!, r(2) === 0);
        } else if (kind === 4) {
          // An edit or a move of a cached message: another topic (or spelling), another channel.
          const c = CHANNELS[r(CHANNELS.length)]!;
          const topic = TOPICS[r(TOPICS.length)]!;
          updateStoredMessage(db, anyId(), (m) => (m.type === 'stream' ? { ...m, stream_id: c.stream_id, display_recipient: c.name, subject: topic } : undefined), changes);
        } else if (kind === 5) {
          deleteMessages(db, [anyId()], changes);
        } else if (kind === 6) {
          // The server's row for a message cached or not (an id above the cache: not cached).
          const id = r(2) === 0 ? anyId() : nextId + 100 + r(50);
          if (r(4) === 0) putServerUnread(db, id, { dm_key: DMS[r(DMS.length)]!.join(',') }, FLAG.mentioned);
          else putServerUnread(db, id, { channel_id: CHANNELS[r(2)]!.stream_id, topic: TOPICS[r(TOPICS.length)]! }, r(2) === 0 ? FLAG.topic_wildcard_mentioned : 0);
        } else if (kind === 7) {
          forgetServerUnreads(db, [anyId(), nextId + 100 + r(50)]);
        } else if (kind === 8) {
          moveServerUnreads(db, [nextId + 100 + r(50), anyId()], r(2) === 0 ? { topic: TOPICS[r(TOPICS.length)]! } : { channel_id: 6 });
        } else if (kind === 9) {
          const ids = [nextId + 100 + r(50), anyId()];
          if (r(2) === 0) addServerUnreadBits(db, ids, FLAG.mentioned, r(2) === 0);
          else setServerUnreadMentionBits(db, ids[0]!, FLAG.stream_wildcard_mentioned);
        } else if (kind === 10) {
          // A local echo: stored unread, never counted.
          upsertMessages(db, [eg.streamMessage({ id: LOCAL_ECHO_MIN_ID + step, topic: TOPICS[r(TOPICS.length)]! })], changes);
        } else if (r(5) === 0) {
          // Register's whole unread set (written with the triggers dropped, every summary rebuilt).
          const someIds = () => Array.from({ length: r(4) }, () => (r(2) === 0 ? anyId() : nextId + 100 + r(50)));
          replaceServerUnreads(
            db,
            {
              count: 2,
              streams: [{ stream_id: 5, topic: 'Äpfel', unread_message_ids: [anyId(), nextId + 120] }, { stream_id: 6, topic: TOPICS[r(TOPICS.length)]!, unread_message_ids: someIds() }],
              pms: [{ other_user_id: 11, unread_message_ids: someIds() }],
              huddles: [{ user_ids_string: `${eg.SELF},11,12`, unread_message_ids: someIds() }],
              mentions: [nextId + 120, anyId()],
              old_unreads_missing: false,
            },
            eg.SELF,
          );
        }
        if (step % 3 === 2) expectExact(label);
      }
      // Something of each kind was counted along the way.
      expect(unreadCounts(db).topics.length + unreadCounts(db).dms.length).toBeGreaterThan(0);
    }
  });

  it('a bulk write leaves the triggers live again, and a failed one leaves nothing', () => {
    const paused = () => db.prepare('SELECT count(*) FROM summary_paused').pluck().get();
    const batch = Array.from({ length: 20 }, (_, i) => eg.streamMessage({ id: i + 1, topic: i % 2 ? 'castle' : 'moat' }));
    putServerUnread(db, 3, { channel_id: 6, topic: 'elsewhere' }, FLAG.mentioned);
    upsertMessages(db, batch, new ChangeCollector());
    expect(paused()).toBe(0);
    expect(unreadTopics(db, NO_EXCLUSIONS).map((t) => [t.channel_id, t.topic, t.count])).toEqual(expect.arrayContaining([[5, 'castle', 10], [5, 'moat', 10]]));
    expectExact('bulk');
    // A write that fails part way: nothing of it stays, the pause included.
    const bad = Array.from({ length: 20 }, (_, i) => eg.streamMessage({ id: 100 + i }));
    const fail = () => {
      upsertMessages(db, bad, new ChangeCollector());
      throw new Error('disk full');
    };
    expect(() => withSummariesPaused(db, fail, () => undefined)).toThrow('disk full');
    expect(paused()).toBe(0);
    expect(db.prepare('SELECT count(*) FROM messages WHERE id >= 100').pluck().get()).toBe(0);
    expectExact('failed bulk');
    // Live again: a single new message is counted by the triggers.
    upsertMessages(db, [eg.streamMessage({ id: 300, topic: 'castle' })], new ChangeCollector());
    expect(unreadTopics(db, NO_EXCLUSIONS).find((t) => t.topic === 'castle')?.count).toBe(11);
  });

  it('answer the sidebar topics as before: newest first, with unread messages not cached', () => {
    upsertMessages(db, [eg.streamMessage({ id: 1, topic: 'castle' }), eg.streamMessage({ id: 2, topic: 'moat', flags: ['read'] })], new ChangeCollector());
    putServerUnread(db, 9, { channel_id: 5, topic: 'Moat' }, 0);
    db.prepare("INSERT INTO channels (id, name, json) VALUES (5, 'verona', '{}')").run();
    const topics = channelsWithTopics(db).find((c) => c.channel_id === 5)!.topics;
    expect(topics.map((t) => [t.topic, t.last_message_id, t.unread_count])).toEqual([
      ['Moat', 9, 1],
      ['castle', 1, 1],
    ]);
    deleteMessages(db, [1], new ChangeCollector());
    expect(channelsWithTopics(db).find((c) => c.channel_id === 5)!.topics.map((t) => t.topic)).toEqual(['Moat']);
  });
});
