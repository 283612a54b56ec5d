/**
 * Topics compare in the local store as the server compares them (common/topic-key.ts `topicKey`,
 * Zulip's per-character SQL UPPER()): `Äpfel`, `ÄPFEL` and `äpfel` are one topic, `Σ`/`σ`/`ς`
 * too, `ß` and `SS` stay two. Checked on every place the store matched topics with SQLite's
 * ASCII-only NOCASE before: narrows (and their keys), topic lists and unread counts, topic
 * preferences (muting, following), marking a topic read and moving a whole topic. The topic
 * narrow keeps its index (EXPLAIN QUERY PLAN).
 */
import { describe, expect, it } from 'vitest';
import { getTopicVisibility, putUserTopic } from '../../../sync/db/queries/personal.js';
import { topicsOf, unreadCounts } from '../../../sync/db/queries/topics.js';
import { ChangeCollector } from '../../../sync/db/changes.js';
import { compileLocalNarrow } from '../../../sync/db/narrow/compile.js';
import { applyOptimistic as markTopicRead } from '../../../sync/outbox/mutations/mark-topic-read.js';
import { applyOptimistic as moveMessages } from '../../../sync/outbox/mutations/message-move.js';
import * as eg from '../../support/eg.js';
import { localStore } from '../../support/eg-store.js';

const [SELF, VERONA, DENMARK] = [eg.SELF, eg.verona.stream_id, eg.denmark.stream_id];

const SPELLINGS = ['Äpfel', 'ÄPFEL', 'äpfel', 'ß', 'SS', 'ss', 'Σ', 'σ', 'ς', 'apfel'];

function seeded() {
  // ids 1..10 in SPELLINGS order, all unread.
  return localStore({ account: true, messages: SPELLINGS.map((topic, i) => eg.streamMessage({ id: i + 1, topic })) });
}

const idsOf = (db: ReturnType<typeof seeded>, narrow: unknown[]) => {
  const n = compileLocalNarrow(db, narrow, SELF);
  return db.prepare(`SELECT m.id FROM messages m WHERE ${n.where} ORDER BY m.id`).pluck().all(...n.params) as number[];
};
const topicNarrow = (topic: string) => [{ operator: 'channel', operand: VERONA }, { operator: 'topic', operand: topic }];

describe('local topic comparison follows the server (topicKey)', () => {
  it('a topic narrow matches every spelling of the topic and no other, under one narrow key', () => {
    const db = seeded();
    expect(idsOf(db, topicNarrow('äpfel'))).toEqual([1, 2, 3]);
    expect(idsOf(db, topicNarrow('ÄPFEL'))).toEqual([1, 2, 3]);
    expect(idsOf(db, topicNarrow('ß'))).toEqual([4]);
    expect(idsOf(db, topicNarrow('SS'))).toEqual([5, 6]);
    expect(idsOf(db, topicNarrow('ς'))).toEqual([7, 8, 9]);
    expect(idsOf(db, topicNarrow('APFEL'))).toEqual([10]);
    // Negated: everything else of the channel.
    expect(idsOf(db, [{ operator: 'channel', operand: VERONA }, { operator: 'topic', operand: 'Äpfel', negated: true }])).toEqual([4, 5, 6, 7, 8, 9, 10]);
    const key = (topic: string) => compileLocalNarrow(db, topicNarrow(topic), SELF).key;
    expect(key('Äpfel')).toBe(key('äpfel'));
    expect(key('Σ')).toBe(key('ς'));
    expect(key('ß')).not.toBe(key('SS'));
    db.close();
  });

  it('the topic narrow still seeks its index (messages_by_topic_key), as the NOCASE one did', () => {
    const db = seeded();
    const n = compileLocalNarrow(db, topicNarrow('Äpfel'), SELF);
    const plan = db.prepare(`EXPLAIN QUERY PLAN SELECT m.id FROM messages m WHERE ${n.where} ORDER BY m.id DESC LIMIT 50`).all(...n.params) as Array<{ detail: string }>;
    expect(plan.map((p) => p.detail)).toEqual(['SEARCH m USING INDEX messages_by_topic_key (channel_id=? AND topic_key=?)']);
    db.close();
  });

  it('topic lists and unread counts group the spellings; the newest spelling names the topic', () => {
    const db = seeded();
    const topics = topicsOf(db, VERONA);
    expect(topics.map((t) => [t.topic, t.unread_count])).toEqual([
      ['apfel', 1],
      ['ς', 3],
      ['ss', 2],
      ['ß', 1],
      ['äpfel', 3],
    ]);
    expect(unreadCounts(db).topics.map((t) => [t.topic, t.count])).toEqual([
      ['apfel', 1],
      ['ss', 2],
      ['ß', 1],
      ['äpfel', 3],
      ['ς', 3],
    ]);
    db.close();
  });

  it('a topic preference set under one spelling applies to every spelling (muting, following, in:home)', () => {
    const db = seeded();
    putUserTopic(db, { stream_id: VERONA, topic_name: 'ÄPFEL', visibility_policy: 1, last_updated: 1 });
    putUserTopic(db, { stream_id: VERONA, topic_name: 'σ', visibility_policy: 3, last_updated: 1 });
    expect(getTopicVisibility(db, VERONA, 'äpfel')).toBe(1);
    expect(getTopicVisibility(db, VERONA, 'Äpfel')).toBe(1);
    expect(getTopicVisibility(db, VERONA, 'apfel')).toBe(0);
    expect(idsOf(db, [{ operator: 'is', operand: 'muted' }])).toEqual([1, 2, 3]);
    expect(idsOf(db, [{ operator: 'is', operand: 'followed' }])).toEqual([7, 8, 9]);
    expect(idsOf(db, [{ operator: 'in', operand: 'home' }])).toEqual([4, 5, 6, 7, 8, 9, 10]);
    // One row per topic: the later spelling replaces the earlier; policy 0 under any spelling removes it.
    putUserTopic(db, { stream_id: VERONA, topic_name: 'Äpfel', visibility_policy: 3, last_updated: 2 });
    expect(db.prepare('SELECT topic, visibility_policy FROM user_topics WHERE topic_key = ?').all('äpfel')).toEqual([{ topic: 'Äpfel', visibility_policy: 3 }]);
    putUserTopic(db, { stream_id: VERONA, topic_name: 'äpfel', visibility_policy: 0, last_updated: 3 });
    expect(getTopicVisibility(db, VERONA, 'ÄPFEL')).toBe(0);
    const muted = unreadCounts(db);
    expect(muted.followed).toBe(3);
    db.close();
  });

  it('marking a topic read reads every spelling of it, and only it', () => {
    const db = seeded();
    markTopicRead(db, { stream_id: VERONA, topic_name: 'äPFEL' }, new ChangeCollector());
    markTopicRead(db, { stream_id: VERONA, topic_name: 'ß' }, new ChangeCollector());
    const unread = db.prepare('SELECT id FROM messages WHERE (flags & 1) = 0 ORDER BY id').pluck().all();
    expect(unread).toEqual([5, 6, 7, 8, 9, 10]);
    // A topic none of whose messages is cached still changes the counts (its uncached unreads).
    const none = new ChangeCollector();
    markTopicRead(db, { stream_id: VERONA, topic_name: 'not cached here' }, none);
    expect([...none.areas]).toEqual(['unread']);
    db.close();
  });

  it('moving a whole topic takes every spelling of it along, and not the look-alikes', () => {
    const db = seeded();
    const moved = moveMessages(
      db,
      { message_id: 2, stream_id: DENMARK, propagate_mode: 'change_all', send_notification_to_old_thread: false, send_notification_to_new_thread: false },
      new ChangeCollector(),
    );
    expect(moved).toEqual([1, 2, 3]);
    const ss = moveMessages(
      db,
      { message_id: 5, topic: 'moved', propagate_mode: 'change_later', send_notification_to_old_thread: false, send_notification_to_new_thread: false },
      new ChangeCollector(),
    );
    expect(ss).toEqual([5, 6]);
    expect(db.prepare('SELECT id FROM messages WHERE channel_id = ? ORDER BY id').pluck().all(DENMARK)).toEqual([1, 2, 3]);
    expect(db.prepare("SELECT topic_key FROM messages WHERE id IN (4, 5, 6) ORDER BY id").pluck().all()).toEqual(['ß', 'moved', 'moved']);
    db.close();
  });
});
