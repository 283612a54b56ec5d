/** What a message's actions build: links, the quote, unread from here, the move mode, editors, roles. */
import { describe, expect, it } from 'vitest';
import {
  canDeleteMessage,
  canDeleteTopics,
  canMoveMessages,
  canResolveTopics,
  conversationTarget,
  editingText,
  messageLink,
  quoteText,
  realmLink,
  suggestedPropagate,
  topicPlacement,
  unreadFromHere,
  unusedFence,
} from '../../../renderer/src/actions/message-actions.js';
import { message } from '../fixtures.js';

const names = { realmUrl: 'https://chat.example.com/', ownUserId: 1, channelName: (id: number) => (id === 1 ? 'general' : undefined), userName: (id: number) => ({ 1: 'Desdemona', 8: 'Othello', 10: 'King Hamlet' })[id] };
const dm = message(7, {
  type: 'direct',
  channel_id: null,
  channel_name: null,
  topic: '',
  sender_id: 10,
  dm_participants: [
    { id: 1, email: 'd@example.com', full_name: 'Desdemona' },
    { id: 10, email: 'h@example.com', full_name: 'King Hamlet' },
  ],
});

describe('links', () => {
  it('a channel message links to its topic near it, with the realm’s address', () => {
    const m = message(42, { topic: 'lunch plans' });
    expect(messageLink(m, 'https://chat.example.com/', 1)).toBe('https://chat.example.com/#narrow/channel/1-general/topic/lunch.20plans/near/42');
    expect(conversationTarget(m, 1)).toEqual({ kind: 'topic', channelId: 1, channelName: 'general', topic: 'lunch plans' });
  });

  it('a direct message links to the conversation with the other person', () => {
    expect(messageLink(dm, 'https://chat.example.com', 1, names.userName)).toBe('https://chat.example.com/#narrow/dm/10-King-Hamlet/near/7');
  });

  it('without a realm address the link is the fragment from the root', () => {
    expect(realmLink(null, '#narrow/is/starred')).toBe('/#narrow/is/starred');
  });
});

describe('quote and reply', () => {
  it('mentions the sender silently, links the message, names the topic, quotes the raw text', () => {
    const m = message(42, { topic: 'lunch plans', sender_full_name: 'King Hamlet', sender_id: 10 });
    expect(quoteText(m, 'Pizza on **Friday**?', names)).toBe(
      '@_**King Hamlet|10** [said](https://chat.example.com/#narrow/channel/1-general/topic/lunch.20plans/near/42) in #**general>lunch plans**:\n```quote\nPizza on **Friday**?\n```',
    );
  });

  it('a topic that breaks the #** syntax becomes a Markdown link; a fence in the text gets a longer one', () => {
    const m = message(42, { topic: 'a > b', sender_full_name: 'King Hamlet', sender_id: 10 });
    const q = quoteText(m, '```js\nx\n```', names);
    expect(q).toContain('in [#general > a > b](https://chat.example.com/#narrow/channel/1-general/topic/a.20.3E.20b):');
    expect(q.endsWith('````quote\n```js\nx\n```\n````')).toBe(true);
  });

  it('a direct message says whom it was said to', () => {
    expect(quoteText(dm, 'hi', names).split('\n')[0]).toBe('@_**King Hamlet|10** [said](https://chat.example.com/#narrow/dm/10-King-Hamlet/near/7) to @_**Desdemona|1**:');
  });

  it('the fence is longer than any fence inside', () => {
    expect(unusedFence('plain')).toBe('```');
    expect(unusedFence('````\ncode\n````')).toBe('`````');
    expect(unusedFence('inline ``` not at line start')).toBe('```');
  });
});

describe('mark as unread from here', () => {
  it('takes this message and every later read one, ascending, within the limit', () => {
    const list = [message(1, { flags: ['read'] }), message(2, { flags: ['read'] }), message(3, { flags: [] }), message(5, { flags: ['read', 'starred'] })];
    expect(unreadFromHere(list, 2)).toEqual([2, 5]);
    expect(unreadFromHere(list, 3)).toEqual([5]);
    expect(unreadFromHere(list, 9)).toEqual([]);
    expect(unreadFromHere(list, 1, 2)).toEqual([1, 2]);
  });
});

describe('move mode by place in the topic', () => {
  const list = [message(1, { topic: 'a' }), message(2, { topic: 'B' }), message(3, { topic: 'a' }), message(4, { topic: 'A' })];

  it('first moves all, last moves one, between moves the rest', () => {
    expect(suggestedPropagate(true, false)).toBe('change_all');
    expect(suggestedPropagate(false, true)).toBe('change_one');
    expect(suggestedPropagate(true, true)).toBe('change_all');
    expect(suggestedPropagate(false, false)).toBe('change_later');
  });

  it('first and last only count when the view shows that end (topics compare without case)', () => {
    const ends = { oldestShown: true, newestShown: true };
    expect(topicPlacement(list, message(1, { topic: 'a' }), ends)).toEqual({ isFirst: true, isLast: false });
    expect(topicPlacement(list, message(4, { topic: 'A' }), ends)).toEqual({ isFirst: false, isLast: true });
    expect(topicPlacement(list, message(3, { topic: 'a' }), ends)).toEqual({ isFirst: false, isLast: false });
    expect(topicPlacement(list, message(1, { topic: 'a' }), { oldestShown: false, newestShown: true })).toEqual({ isFirst: false, isLast: false });
  });
});

describe('who is editing', () => {
  const name = (id: number) => ({ 2: 'Iago', 3: 'Hamlet' })[id];
  it('names one or two others, counts more, leaves the user out', () => {
    expect(editingText([2], 1, name)).toBe('Iago is editing…');
    expect(editingText([1, 2, 3], 1, name)).toBe('Iago and Hamlet are editing…');
    expect(editingText([2, 3, 4], 1, name)).toBe('3 people are editing…');
    expect(editingText([1], 1, name)).toBeNull();
    expect(editingText([9], 1, name)).toBe('Someone is editing…');
  });
});

describe('roles', () => {
  it('members move and resolve, administrators delete topics, guests and unknown roles do neither', () => {
    expect([100, 200, 300, 400, 600].map(canMoveMessages)).toEqual([true, true, true, true, false]);
    expect([100, 200, 300, 400, 600].map(canResolveTopics)).toEqual([true, true, true, true, false]);
    expect([100, 200, 300, 400, 600].map(canDeleteTopics)).toEqual([true, true, false, false, false]);
    expect(canMoveMessages(null) || canDeleteTopics(null)).toBe(false);
  });
});

describe('canDeleteMessage (the realm’s and channels’ rules, as the engine knows them)', () => {
  const rules = { user_id: 1, any: false, own: true, limit_seconds: 600, any_in_channels: [], own_in_channels: [] };
  const mine = message(5, { sender_id: 1, timestamp: 10_000 });
  const theirs = message(6, { sender_id: 8, timestamp: 10_000 });
  it('one’s own message within the limit; not after it, nor someone else’s', () => {
    expect(canDeleteMessage(mine, rules, 10_600)).toBe(true);
    expect(canDeleteMessage(mine, rules, 10_601)).toBe(false);
    expect(canDeleteMessage(mine, { ...rules, limit_seconds: null }, 99_999)).toBe(true);
    expect(canDeleteMessage(theirs, rules, 10_001)).toBe(false);
    expect(canDeleteMessage(mine, { ...rules, own: false }, 10_001)).toBe(false);
  });
  it('any message for those allowed any, realm-wide or in that channel; channel rules can also allow one’s own', () => {
    expect(canDeleteMessage(theirs, { ...rules, any: true }, 99_999)).toBe(true);
    expect(canDeleteMessage(theirs, { ...rules, any_in_channels: [theirs.channel_id ?? -1] }, 99_999)).toBe(true);
    expect(canDeleteMessage(theirs, { ...rules, any_in_channels: [12345] }, 99_999)).toBe(false);
    expect(canDeleteMessage(mine, { ...rules, own: false, own_in_channels: [mine.channel_id ?? -1] }, 10_001)).toBe(true);
  });
  it('nothing before the rules are known, nor for a message still being sent', () => {
    expect(canDeleteMessage(mine, null, 10_001)).toBe(false);
    expect(canDeleteMessage(message(2 ** 52 + 3, { sender_id: 1, timestamp: 10_000 }), { ...rules, any: true }, 10_001)).toBe(false);
  });
});
