/**
 * Outbox rows about one topic share an entity key (serial order, coalescing) exactly when the
 * server treats their topic names as one topic (common/topic-key.ts).
 */
import { describe, expect, it } from 'vitest';
import { markTopicRead } from '../../../sync/outbox/mutations/mark-topic-read.js';
import { conversationKey } from '../../../sync/outbox/mutations/message-send.js';
import { userTopicSet } from '../../../sync/outbox/mutations/user-topic-set.js';

const keys = (topic: string) => [
  userTopicSet.entityKey({ stream_id: 7, topic, visibility_policy: 1 }),
  markTopicRead.entityKey({ stream_id: 7, topic_name: topic }),
  conversationKey({ type: 'channel', stream_id: 7, topic }),
];

describe('topic entity keys', () => {
  it('spellings the server folds together share every key', () => {
    for (const [a, b] of [
      ['Äpfel', 'ÄPFEL'],
      ['lunch', 'LUNCH'],
      ['ΟΔΟΣ', 'οδοσ'],
    ]) expect(keys(a!), `${a} / ${b}`).toEqual(keys(b!));
  });

  it('spellings the server keeps apart have different keys', () => {
    for (const [a, b] of [
      ['Straße', 'STRASSE'],
      ['İ', 'i\u0307'],
    ]) {
      const [x, y] = [keys(a!), keys(b!)];
      for (let i = 0; i < x.length; i++) expect(x[i], `${a} / ${b}`).not.toBe(y[i]);
    }
  });

  it('ASCII keys are unchanged from the lower-case keys rows were queued with before', () => {
    expect(keys('Lunch Plans')).toEqual(['user_topic:7:lunch plans', 'topic_read:7:lunch plans', 'conversation:channel:7:lunch plans']);
  });
});
