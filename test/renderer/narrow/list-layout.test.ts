import { describe, expect, it } from 'vitest';
import { continuesSender, dayLabel, firstUnreadId, startsDay } from '../../../renderer/src/narrow/list-layout.js';
import type { LocalMessage } from '../../../sync/protocol/messages.js';

const at = (iso: string) => Date.parse(iso) / 1000;
function msg(id: number, sender: number, iso: string, over: Partial<LocalMessage> = {}): LocalMessage {
  return {
    id,
    sender_id: sender,
    timestamp: at(iso),
    flags: ['read'],
    type: 'channel',
    channel_id: 1,
    topic: 'lunch',
    dm_participants: [],
    ...over,
  } as unknown as LocalMessage;
}

describe('the message list layout', () => {
  const list = [
    msg(1, 10, '2026-11-23T09:00:00Z'),
    msg(2, 10, '2026-11-23T09:05:00Z'),
    msg(3, 11, '2026-11-23T09:06:00Z'),
    msg(4, 11, '2026-11-24T07:00:00Z'),
    msg(5, 11, '2026-11-24T08:01:00Z', { topic: 'dinner' }),
    msg(6, 11, '2026-11-24T08:02:00Z', { topic: 'Dinner' }),
  ];

  it('groups consecutive messages of one sender in one conversation on one day', () => {
    expect(list.map((_, i) => continuesSender(list, i, 'UTC'))).toEqual([false, true, false, false, false, true]);
  });

  it('starts a day at the first message of each calendar day in the user’s zone', () => {
    expect(list.map((_, i) => startsDay(list, i, 'UTC'))).toEqual([false, false, false, true, false, false]);
    // 07:00 UTC on the 24th is still the 23rd in Los Angeles: no new day there.
    expect(startsDay(list, 3, 'America/Los_Angeles')).toBe(false);
    expect(continuesSender(list, 3, 'America/Los_Angeles')).toBe(true);
  });

  it('names days as Today, Yesterday or the date (with the year only when not this year)', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    expect(dayLabel(at('2026-11-25T01:00:00Z'), now, 'en-US', 'UTC')).toBe('Today');
    expect(dayLabel(at('2026-11-24T23:00:00Z'), now, 'en-US', 'UTC')).toBe('Yesterday');
    expect(dayLabel(at('2026-11-20T10:00:00Z'), now, 'en-US', 'UTC')).toBe('Fri, Nov 20');
    expect(dayLabel(at('2025-11-20T10:00:00Z'), now, 'en-US', 'UTC')).toBe('Thu, Nov 20, 2025');
    // The zone decides: 01:00 UTC on the 25th is the 24th in New York.
    expect(dayLabel(at('2026-11-25T01:00:00Z'), now, 'en-US', 'America/New_York')).toBe('Yesterday');
  });

  it('finds the first unread message', () => {
    expect(firstUnreadId(list)).toBeNull();
    expect(firstUnreadId([msg(1, 1, '2026-01-01T00:00:00Z'), msg(2, 1, '2026-01-01T00:00:00Z', { flags: [] }), msg(3, 1, '2026-01-01T00:00:00Z', { flags: [] })])).toBe(2);
  });
});
