/** Recent conversations' row times: relative today, "Yesterday", else day and time in the user's zone and hour format. */
import { describe, expect, it } from 'vitest';
import { formatRecentTime } from '../../../renderer/src/home/recent-time.js';

const now = new Date('2026-03-10T15:00:00Z');
const at = (iso: string) => Date.parse(iso) / 1000;

describe('formatRecentTime', () => {
  it('is relative within the last day', () => {
    expect(formatRecentTime(at('2026-03-10T14:59:00Z'), now, 'UTC', true, 'en-US')).toBe('Just now');
    expect(formatRecentTime(at('2026-03-10T14:48:00Z'), now, 'UTC', true, 'en-US')).toBe('12 minutes ago');
    expect(formatRecentTime(at('2026-03-10T13:30:00Z'), now, 'UTC', true, 'en-US')).toBe('An hour ago');
    expect(formatRecentTime(at('2026-03-10T09:00:00Z'), now, 'UTC', true, 'en-US')).toBe('6 hours ago');
  });

  it('says Yesterday with the time in the user’s hour format, the day counted in the user’s zone', () => {
    expect(formatRecentTime(at('2026-03-09T08:05:00Z'), now, 'UTC', true, 'en-US')).toBe('Yesterday, 08:05');
    expect(formatRecentTime(at('2026-03-09T08:05:00Z'), now, 'UTC', false, 'en-US')).toBe('Yesterday, 8:05 AM');
    // 29 hours back: two calendar days in UTC (the 8th to the 10th), one in New York (the 8th, 18:00, to the 9th, 23:00).
    const late = new Date('2026-03-10T03:00:00Z');
    expect(formatRecentTime(at('2026-03-08T22:00:00Z'), late, 'America/New_York', true, 'en-US')).toBe('Yesterday, 18:00');
    expect(formatRecentTime(at('2026-03-08T22:00:00Z'), late, 'UTC', true, 'en-US')).toBe('Mar 8, 22:00');
  });

  it('shows the day and time further back, the year only for another year', () => {
    expect(formatRecentTime(at('2026-02-01T16:45:00Z'), now, 'UTC', true, 'en-US')).toBe('Feb 1, 16:45');
    expect(formatRecentTime(at('2025-12-24T16:45:00Z'), now, 'UTC', false, 'en-US')).toBe('Dec 24, 2025, 4:45 PM');
  });
});
