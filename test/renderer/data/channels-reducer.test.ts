/** Sidebar rules: which events refetch channels, ordering, muted topics, unread badges. */
import { describe, expect, it } from 'vitest';
import { isTopicMuted, refreshesChannels, sidebarChannels, topicUnread, VISIBILITY } from '../../../renderer/src/data/channels-reducer.js';
import { unreadBadge } from '../../../renderer/src/kit/format.js';
import { channel, message, topic } from '../fixtures.js';

describe('refetching channels', () => {
  it('refetches for areas touching channels, subscriptions, topics or unreads, not for others', () => {
    for (const a of ['channels', 'subscriptions', 'user_topics', 'unread', 'messages', 'topics', 'accounts', 'channel_topics', 'outbox']) {
      expect(refreshesChannels({ type: 'areas', areas: ['typing', a] })).toBe(true);
    }
    expect(refreshesChannels({ type: 'areas', areas: ['typing', 'users', 'saved_snippets'] })).toBe(false);
    expect(refreshesChannels({ type: 'areas', areas: [] })).toBe(false);
  });

  it('refetches when caught up or a sync phase begins, not on every progress tick', () => {
    expect(refreshesChannels({ type: 'status', status: { state: 'live' } })).toBe(true);
    expect(refreshesChannels({ type: 'status', status: { state: 'syncing', progress: { phase: 'history', done: 0, total: 100 } } })).toBe(true);
    expect(refreshesChannels({ type: 'status', status: { state: 'syncing', progress: { phase: 'history', done: 40, total: 100 } } })).toBe(false);
    expect(refreshesChannels({ type: 'status', status: { state: 'connecting' } })).toBe(false);
  });

  it('refetches when a view gains or loses messages (new topics, counts), not for in-place updates', () => {
    expect(refreshesChannels({ type: 'view', view_id: 'v', changes: { added: [message(1)], updated: [], removed: [] } })).toBe(true);
    expect(refreshesChannels({ type: 'view', view_id: 'v', changes: { added: [], updated: [], removed: [4] } })).toBe(true);
    expect(refreshesChannels({ type: 'view', view_id: 'v', changes: { added: [], updated: [message(1)], removed: [] } })).toBe(false);
  });
});

describe('sidebar listing', () => {
  it('lists subscribed channels only, by name regardless of case', () => {
    const list = [channel(1, 'general'), channel(2, 'Verona'), channel(3, 'core team'), channel(4, 'Denmark', { is_subscribed: false }), channel(5, 'aardvark')];
    expect(sidebarChannels(list).map((c) => c.name)).toEqual(['aardvark', 'core team', 'general', 'Verona']);
    expect(list.map((c) => c.channel_id)).toEqual([1, 2, 3, 4, 5]); // input untouched
  });

  it('pinned channels come first, each part by name', () => {
    const list = [channel(1, 'general'), channel(2, 'Verona', { pin_to_top: true }), channel(3, 'core team'), channel(4, 'Denmark', { pin_to_top: true }), channel(5, 'aardvark')];
    expect(sidebarChannels(list).map((c) => c.name)).toEqual(['Denmark', 'Verona', 'aardvark', 'core team', 'general']);
  });

  it('muted channels come last within the pinned and within the others, as Zulip web sorts them', () => {
    const list = [channel(1, 'alpha', { is_muted: true }), channel(2, 'beta'), channel(3, 'gamma', { pin_to_top: true, is_muted: true }), channel(4, 'delta', { pin_to_top: true }), channel(5, 'epsilon')];
    expect(sidebarChannels(list).map((c) => c.name)).toEqual(['delta', 'gamma', 'beta', 'epsilon', 'alpha']);
  });

  it('dims muted topics, and topics of muted channels unless unmuted or followed', () => {
    const plain = channel(1, 'general');
    const muted = channel(2, 'Denmark', { is_muted: true });
    expect(isTopicMuted(plain, topic('a'))).toBe(false);
    expect(isTopicMuted(plain, topic('a', { visibility_policy: VISIBILITY.muted }))).toBe(true);
    expect(isTopicMuted(muted, topic('a'))).toBe(true);
    expect(isTopicMuted(muted, topic('a', { visibility_policy: VISIBILITY.unmuted }))).toBe(false);
    expect(isTopicMuted(muted, topic('a', { visibility_policy: VISIBILITY.followed }))).toBe(false);
  });

  it('shows unread counts, nothing for zero, capped at 999+', () => {
    expect(unreadBadge(0)).toBe('');
    expect(unreadBadge(7)).toBe('7');
    expect(unreadBadge(999)).toBe('999');
    expect(unreadBadge(1000)).toBe('999+');
  });
});

describe('a topic\'s unread count (Mark as read)', () => {
  const list = [channel(1, 'general', { topics: [topic('Lunch plans', { unread_count: 3 }), topic('done', { unread_count: 0 })] }), channel(2, 'random', { topics: [topic('lunch plans', { unread_count: 5 })] })];

  it("is the sidebar's count of that topic in that channel, topic names compared without case", () => {
    expect(topicUnread(list, 1, 'Lunch plans')).toBe(3);
    expect(topicUnread(list, 1, 'lunch PLANS')).toBe(3);
    expect(topicUnread(list, 2, 'lunch plans')).toBe(5);
    expect(topicUnread(list, 1, 'done')).toBe(0);
  });

  it('is zero for a topic or channel the sidebar does not list', () => {
    expect(topicUnread(list, 1, 'elsewhere')).toBe(0);
    expect(topicUnread(list, 9, 'Lunch plans')).toBe(0);
    expect(topicUnread([], 1, 'Lunch plans')).toBe(0);
  });
});
