/** The home views' rules: the inbox's grouping and order, recent conversations' order and filters, row keys. */
import { describe, expect, it } from 'vitest';
import type { DmConversation, UnreadCountsView } from '../../../sync/protocol/commands.js';
import { dmNames, dmTarget } from '../../../renderer/src/data/dms.js';
import { inboxOf, recentOf } from '../../../renderer/src/home/home-reducer.js';
import { channel, topic } from '../fixtures.js';

const ME = 10;

function dm(ids: number[], maxId: number, over: Partial<DmConversation> = {}): DmConversation {
  const others = ids.filter((i) => i !== ME);
  return {
    key: ids.join(','),
    user_ids: ids,
    participants: (others.length > 0 ? others : [ME]).map((user_id) => ({ user_id, full_name: `User ${user_id}` })),
    max_message_id: maxId,
    last_message_timestamp: 1_700_000_000 + maxId,
    unread_count: 0,
    ...over,
  };
}

function unread(over: Partial<UnreadCountsView> = {}): UnreadCountsView {
  return { total: 0, mentions: 0, followed: 0, starred: 0, channels: [], topics: [], dms: [], complete: true, ...over };
}

const ut = (channel_id: number, t: string, count: number, muted = false, mentions = 0) => ({ channel_id, topic: t, count, mentions, muted });

describe('the inbox', () => {
  const channels = [
    channel(2, 'Verona', { topics: [topic('old', { max_message_id: 5 }), topic('new', { max_message_id: 50 }), topic('quiet', { max_message_id: 60, visibility_policy: 1 })] }),
    channel(1, 'general', { topics: [topic('lunch', { max_message_id: 30 })] }),
    channel(3, 'Denmark', { is_subscribed: false, topics: [topic('x', { max_message_id: 70 })] }),
    channel(4, 'muted one', { is_muted: true, topics: [topic('y', { max_message_id: 80 })] }),
  ];

  it('lists DMs first, newest first; then channels by name with their unread topics, newest first', () => {
    const u = unread({
      topics: [ut(2, 'old', 1), ut(2, 'new', 3, false, 1), ut(1, 'lunch', 2), ut(2, 'read', 0)],
      dms: [
        { key: '10,11', count: 2, mentions: 0 },
        { key: '10,12,13', count: 1, mentions: 1 },
        { key: '10,14', count: 0, mentions: 0 },
      ],
    });
    const inbox = inboxOf(u, channels, [dm([10, 11], 20), dm([10, 12, 13], 40), dm([10, 14], 90)], ME);
    expect(inbox.dms.map((d) => [d.names, d.count, d.mentions])).toEqual([
      ['User 12, User 13', 1, 1],
      ['User 11', 2, 0],
    ]);
    expect(inbox.dms[0]?.target).toEqual({ kind: 'dm', userIds: [12, 13] });
    expect(inbox.channels.map((c) => [c.name, c.count, c.topics.map((t) => t.topic)])).toEqual([
      ['general', 2, ['lunch']],
      ['Verona', 4, ['new', 'old']],
    ]);
    expect(inbox.channels[1]?.topics[0]?.mentions).toBe(1);
  });

  it('leaves out muted topics, muted channels (as the engine flags them) and unsubscribed channels', () => {
    const u = unread({ topics: [ut(2, 'quiet', 4, true), ut(4, 'y', 2, true), ut(3, 'x', 1), ut(1, 'lunch', 1)] });
    const inbox = inboxOf(u, channels, [], ME);
    expect(inbox.channels.map((c) => c.name)).toEqual(['general']);
  });

  it('is empty with nothing unread', () => {
    expect(inboxOf(unread(), channels, [dm([10, 11], 20)], ME)).toEqual({ dms: [], channels: [] });
  });

  it('still shows an unread DM the conversation list does not have yet, by its ids, without oneself', () => {
    const inbox = inboxOf(unread({ dms: [{ key: '10,15', count: 1, mentions: 0 }] }), [], [], ME);
    expect(inbox.dms).toMatchObject([{ names: 'Unknown user', target: { kind: 'dm', userIds: [15] }, count: 1 }]);
  });

  it('matches unread topics to their newest message without regard to case', () => {
    const inbox = inboxOf(unread({ topics: [ut(1, 'LUNCH', 1)] }), channels, [], ME);
    expect(inbox.channels[0]?.topics[0]).toMatchObject({ topic: 'LUNCH', maxId: 30 });
  });
});

describe('recent conversations', () => {
  const channels = [
    channel(1, 'general', { topics: [topic('a', { max_message_id: 30, unread_count: 2, last_message_timestamp: 1_700_000_030 }), topic('muted', { max_message_id: 99, visibility_policy: 1 })] }),
    channel(2, 'Verona', { topics: [topic('b', { max_message_id: 10 })] }),
    channel(3, 'Denmark', { is_subscribed: false, topics: [topic('c', { max_message_id: 95 })] }),
  ];
  const dms = [dm([10, 11], 20, { unread_count: 1 }), dm([10], 40)];

  it('orders topics and DMs by newest message, muted and unsubscribed left out', () => {
    const rows = recentOf(channels, dms, 'all');
    expect(rows.map((r) => (r.kind === 'topic' ? `${r.channelName}>${r.topic}` : r.names))).toEqual(['User 10', 'general>a', 'User 11', 'Verona>b']);
    expect(rows[0]).toMatchObject({ kind: 'dm', timestamp: 1_700_000_040, target: { kind: 'dm', userIds: [10] } });
    expect(rows[1]).toMatchObject({ kind: 'topic', timestamp: 1_700_000_030, unread: 2 });
    // A topic whose newest message the device does not hold has no time (nor does one from an older engine).
    expect(rows[3]).toMatchObject({ kind: 'topic', topic: 'b', timestamp: null });
  });

  it('filters: unread only, DMs only', () => {
    expect(recentOf(channels, dms, 'unread').map((r) => r.key)).toEqual(['t:1\u0000a', 'd:10,11']);
    expect(recentOf(channels, dms, 'dms').map((r) => r.key)).toEqual(['d:10', 'd:10,11']);
  });
});

describe('DM names and targets', () => {
  it('names the others, or oneself for notes to self; unknown names are said so', () => {
    expect(dmNames({ participants: [{ user_id: 3, full_name: 'Iago' }, { user_id: 4, full_name: null }] })).toBe('Iago, Unknown user');
    expect(dmTarget({ participants: [{ user_id: 9, full_name: 'x' }, { user_id: 3, full_name: 'y' }], user_ids: [3, 9, 10] })).toEqual({ kind: 'dm', userIds: [3, 9] });
  });
});
