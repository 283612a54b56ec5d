/**
 * Pure: the time of a Recent conversations row, as Zulip web shows it there: relative while it is
 * recent ("Just now", "12 minutes ago", "3 hours ago"), "Yesterday" the calendar day before (in the
 * user's time zone), else the day and time in the user's zone and 12/24-hour setting.
 */
import { dateText, dayKey, formatMessageTime, hourOptions } from '../kit/format.js';

/** Whole calendar days from `a` to `b` in `timeZone` (0: the same day). */
function calendarDays(a: Date, b: Date, timeZone: string | undefined): number {
  const utc = (d: Date) => Date.parse(`${dayKey(d, timeZone)}T00:00:00Z`);
  return Math.round((utc(b) - utc(a)) / 86_400_000);
}

/**
 * `timestamp` in UNIX seconds; `now`, `locale` injectable for tests; `timeZone` the user's zone
 * (undefined: the device's); `twentyFourHour` the user's setting (null: the locale decides).
 */
export function formatRecentTime(timestamp: number, now: Date, timeZone: string | undefined, twentyFourHour: boolean | null, locale?: string): string {
  const d = new Date(timestamp * 1000);
  const minutes = Math.floor((now.getTime() - d.getTime()) / 60_000);
  const days = calendarDays(d, now, timeZone);
  if (minutes >= 0 && minutes < 24 * 60) {
    if (minutes <= 2) return 'Just now';
    if (minutes < 60) return `${minutes} minutes ago`;
    const hours = Math.floor(minutes / 60);
    return hours === 1 ? 'An hour ago' : `${hours} hours ago`;
  }
  if (days === 1) return `Yesterday, ${dateText(d, locale, { ...hourOptions(twentyFourHour), timeZone })}`;
  return formatMessageTime(timestamp, now, locale, timeZone, twentyFourHour);
}
