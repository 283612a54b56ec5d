/** Compose intents: a quote waits for a composer of its conversation; inserting it as a block. Marked-unread announcements. */
import { describe, expect, it } from 'vitest';
import { createComposeIntents, insertBlock, sameConversation, type ComposeIntent } from '../../../renderer/src/compose/compose-intents.js';
import { createMarkedUnread } from '../../../renderer/src/actions/unread-intents.js';

const quote = (topic: string, text = '> q'): ComposeIntent => ({ kind: 'quote', to: { type: 'channel', channelId: 1, topic }, text, messageId: 5 });

describe('compose intents', () => {
  it('tells listeners, keeps the last intent until a composer of its conversation takes it', () => {
    const intents = createComposeIntents();
    const heard: ComposeIntent[] = [];
    const off = intents.subscribe((i) => heard.push(i));
    intents.request(quote('a', 'first'));
    intents.request(quote('lunch', 'second'));
    expect(heard.map((i) => i.text)).toEqual(['first', 'second']);
    expect(intents.take((i) => sameConversation(i.to, { type: 'channel', channelId: 1, topic: 'other' }))).toBeNull();
    expect(intents.peek()?.text).toBe('second');
    expect(intents.take((i) => sameConversation(i.to, { type: 'channel', channelId: 1, topic: 'LUNCH' }))?.text).toBe('second');
    expect(intents.take()).toBeNull();
    off();
    intents.request(quote('b'));
    expect(heard).toHaveLength(2);
  });

  it('conversations compare by channel and topic (any case), or by the same people', () => {
    expect(sameConversation({ type: 'direct', userIds: [3, 2] }, { type: 'direct', userIds: [2, 3] })).toBe(true);
    expect(sameConversation({ type: 'direct', userIds: [2] }, { type: 'direct', userIds: [2, 3] })).toBe(false);
    expect(sameConversation({ type: 'direct', userIds: [2] }, { type: 'channel', channelId: 2, topic: '' })).toBe(false);
    expect(sameConversation({ type: 'channel', channelId: 1, topic: 'a' }, { type: 'channel', channelId: 2, topic: 'a' })).toBe(false);
  });
});

describe('insertBlock', () => {
  it('into an empty box: the block and a new line, the caret after it', () => {
    expect(insertBlock('', 0, 'Q')).toEqual({ text: 'Q\n', caret: 2 });
  });

  it('after text: a blank line apart; before text: a blank line too', () => {
    expect(insertBlock('hello', 5, 'Q')).toEqual({ text: 'hello\n\nQ\n', caret: 9 });
    const r = insertBlock('before\nafter', 7, 'Q');
    expect(r.text).toBe('before\n\nQ\n\nafter');
    expect(r.text.slice(r.caret)).toBe('after');
  });

  it('keeps existing blank lines, clamps the caret', () => {
    expect(insertBlock('a\n\n', 3, 'Q').text).toBe('a\n\nQ\n');
    expect(insertBlock('a', 99, 'Q').text).toBe('a\n\nQ\n');
  });
});

describe('marked unread', () => {
  it('tells listeners which messages were marked unread in which view, and keeps the last for latecomers', () => {
    const ch = createMarkedUnread();
    expect(ch.last()).toBeNull();
    const heard: number[][] = [];
    const off = ch.subscribe((e) => heard.push([...e.messageIds]));
    ch.announce({ viewKey: 'channel:1', messageIds: [4, 5] });
    off();
    ch.announce({ viewKey: null, messageIds: [6] });
    expect(heard).toEqual([[4, 5]]);
    expect(ch.last()).toEqual({ viewKey: null, messageIds: [6] });
  });
});
