/** Message display helpers: initials, tones, local times, markers, sender names. */
import { describe, expect, it } from 'vitest';
import { avatarTone, formatFullTime, formatGlobalTime, formatMessageTime, initials, messageMarkers, senderName, topicLabel } from '../../../renderer/src/kit/format.js';
import { formatRecentTime } from '../../../renderer/src/home/recent-time.js';
import { dayLabel } from '../../../renderer/src/narrow/list-layout.js';
import { formatDelivery, userTimeZone } from '../../../renderer/src/scheduled/schedule-time.js';

describe('avatar', () => {
  it('takes the first letters of the first and last word', () => {
    expect(initials('King Hamlet')).toBe('KH');
    expect(initials('Desdemona')).toBe('D');
    expect(initials('  iago  the  ancient ')).toBe('IA');
    expect(initials('élodie durand')).toBe('ÉD');
    expect(initials('')).toBe('?');
  });

  it('picks one of eight tones, stable per user', () => {
    expect(avatarTone(9)).toBe(1);
    expect(avatarTone(9)).toBe(avatarTone(17));
    expect(avatarTone(-3)).toBeGreaterThanOrEqual(0);
  });
});

describe('times', () => {
  const now = new Date(Date.UTC(2024, 5, 15, 18, 0));
  const at = (iso: string) => Date.parse(iso) / 1000;

  it('shows only the time today, day and time this year, the full date before', () => {
    expect(formatMessageTime(at('2024-06-15T09:05:00Z'), now, 'en-GB', 'UTC')).toBe('09:05');
    expect(formatMessageTime(at('2024-03-02T09:05:00Z'), now, 'en-GB', 'UTC')).toBe('2 Mar, 09:05');
    expect(formatMessageTime(at('2021-03-02T09:05:00Z'), now, 'en-GB', 'UTC')).toBe('2 Mar 2021, 09:05');
  });

  it('uses the given time zone for "today"', () => {
    // At 10:00 UTC on the 15th, 23:30 UTC the night before is yesterday in UTC, today in Tokyo.
    const morning = new Date(Date.UTC(2024, 5, 15, 10, 0));
    expect(formatMessageTime(at('2024-06-14T23:30:00Z'), morning, 'en-GB', 'UTC')).toBe('14 Jun, 23:30');
    expect(formatMessageTime(at('2024-06-14T23:30:00Z'), morning, 'en-GB', 'Asia/Tokyo')).toBe('08:30');
    expect(formatFullTime(at('2024-06-14T23:30:00Z'), 'en-GB', 'UTC')).toContain('14 June 2024');
  });
});

describe('message markers and names', () => {
  it('marks edited and moved messages from their timestamps', () => {
    expect(messageMarkers({ last_edit_timestamp: null, last_moved_timestamp: null })).toEqual({ edited: false, moved: false });
    expect(messageMarkers({ last_edit_timestamp: 5, last_moved_timestamp: null })).toEqual({ edited: true, moved: false });
    expect(messageMarkers({ last_edit_timestamp: null, last_moved_timestamp: 5 })).toEqual({ edited: false, moved: true });
  });

  it('names the sender from the users list, falling back to the stored name', () => {
    const users = new Map([[10, { full_name: 'Prince Hamlet' }]]);
    expect(senderName({ sender_id: 10, sender_full_name: 'King Hamlet' }, users)).toBe('Prince Hamlet');
    expect(senderName({ sender_id: 11, sender_full_name: 'Othello' }, users)).toBe('Othello');
  });

  it('labels the empty topic', () => {
    expect(topicLabel('')).toBe('general chat');
    expect(topicLabel('lunch')).toBe('lunch');
  });
});

describe('global times (Zulip <time:…>)', () => {
  it('in the reader’s zone and hour format, with the weekday; null for no date', () => {
    expect(formatGlobalTime('2017-06-05T22:30:00Z', 'en-US', 'America/New_York', false)).toBe('Mon, Jun 5, 2017, 6:30 PM');
    expect(formatGlobalTime('2017-06-05T22:30:00Z', 'en-US', 'Asia/Tokyo', true)).toBe('Tue, Jun 6, 2017, 07:30');
    expect(formatGlobalTime('not a date', 'en-US', 'UTC', null)).toBeNull();
  });
});

describe('date formatters are kept, not built per call', () => {
  // Building an Intl.DateTimeFormat costs a tenth of a millisecond or more: Recent conversations
  // formats every row again each minute, and a view's date separators once per row.
  it('a list of rows formatted, and the zone setting checked per row, builds a handful of formatters', () => {
    const Original = Intl.DateTimeFormat;
    let built = 0;
    class Counted extends Original {
      constructor(...args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
        super(...args);
        built++;
      }
    }
    Object.defineProperty(Intl, 'DateTimeFormat', { value: Counted, configurable: true, writable: true });
    try {
      const now = new Date(Date.UTC(2026, 10, 27, 12, 0));
      for (let i = 0; i < 200; i++) {
        const zone = userTimeZone('Pacific/Chatham');
        const at = now.getTime() / 1000 - i * 5_000;
        formatRecentTime(at, now, zone, i % 2 === 0, 'en-NZ');
        dayLabel(at, now, 'en-NZ', zone);
        formatDelivery(at, zone, true, 'en-NZ');
      }
      expect(userTimeZone('Not/A_Zone')).toBeUndefined();
      expect(userTimeZone('Not/A_Zone')).toBeUndefined();
      // Each distinct locale and options once (time today, this year, other years, Yesterday, the
      // day keys, the separators' two shapes, the zone check, the delivery time): far below 200.
      expect(built).toBeGreaterThan(0);
      expect(built).toBeLessThanOrEqual(16);
    } finally {
      Object.defineProperty(Intl, 'DateTimeFormat', { value: Original, configurable: true, writable: true });
    }
  });
});
