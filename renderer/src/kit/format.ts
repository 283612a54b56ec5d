/** Pure display helpers for messages: avatar initials and tone, local times, edited / moved markers. */
import type { LocalMessage } from '../../../sync/protocol/messages.js';

/** Up to two letters: first and last word of the name ("King Hamlet" → "KH"); "?" for nothing. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return '?';
  const first = [...words[0]!][0] ?? '';
  const last = words.length > 1 ? ([...words[words.length - 1]!][0] ?? '') : '';
  return (first + last).toUpperCase();
}

/** One of eight avatar colours (CSS classes `tone-0`..`tone-7`), stable per user. */
export function avatarTone(userId: number): number {
  return ((userId % 8) + 8) % 8;
}

/**
 * One Intl.DateTimeFormat per locale and options, kept: `Date#toLocale*String(locale, options)`
 * and `new Intl.DateTimeFormat` build a new formatter on every call (a tenth of a millisecond or
 * more each; three per message row made formatting a large share of opening a view). The same
 * formatter gives the same text. Every date the renderer formats goes through here (`dateText`).
 * Options naming a time zone the platform does not know throw a RangeError, as the constructor does.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
const MAX_FORMATTERS = 64;

export function formatter(locale: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (f === undefined) {
    if (formatters.size >= MAX_FORMATTERS) formatters.clear();
    f = new Intl.DateTimeFormat(locale, options);
    formatters.set(key, f);
  }
  return f;
}

/** A date as `toLocaleString(locale, options)` words it, through a kept formatter. */
export const dateText = (d: Date, locale: string | undefined, options: Intl.DateTimeFormatOptions): string => formatter(locale, options).format(d);

/** The calendar day of a date in a time zone, as YYYY-MM-DD (sortable; compared as text). */
export const dayKey = (d: Date, timeZone: string | undefined) => formatter('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);

/**
 * The hour format of the user's `twenty_four_hour_time` setting: 24-hour ("14:05"), 12-hour
 * ("2:05 PM"), or null for the locale's own default.
 */
export function hourOptions(twentyFourHour: boolean | null): Intl.DateTimeFormatOptions {
  if (twentyFourHour === true) return { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
  if (twentyFourHour === false) return { hour: 'numeric', minute: '2-digit', hour12: true };
  return { hour: '2-digit', minute: '2-digit' };
}

/**
 * A message time in the user's locale: the time alone today, day and time this year, full date
 * otherwise. `timestamp` is UNIX seconds; `now`, `locale` and `timeZone` are injectable for tests;
 * `twentyFourHour` is the user's setting (null: the locale decides).
 */
export function formatMessageTime(timestamp: number, now: Date = new Date(), locale?: string, timeZone?: string, twentyFourHour: boolean | null = null): string {
  const d = new Date(timestamp * 1000);
  const time: Intl.DateTimeFormatOptions = { ...hourOptions(twentyFourHour), timeZone };
  const day = dayKey(d, timeZone);
  const today = dayKey(now, timeZone);
  if (day === today) return formatter(locale, time).format(d);
  if (day.slice(0, 4) === today.slice(0, 4)) return formatter(locale, { ...time, month: 'short', day: 'numeric' }).format(d);
  return formatter(locale, { ...time, year: 'numeric', month: 'short', day: 'numeric' }).format(d);
}

/** The full date and time, for the time element's tooltip. */
export function formatFullTime(timestamp: number, locale?: string, timeZone?: string, twentyFourHour: boolean | null = null): string {
  const cycle: Intl.DateTimeFormatOptions = twentyFourHour === null ? {} : twentyFourHour ? { hourCycle: 'h23' } : { hour12: true };
  return formatter(locale, { dateStyle: 'full', timeStyle: 'short', timeZone, ...cycle }).format(new Date(timestamp * 1000));
}

/**
 * A global time a message names (Zulip's `<time:…>`), in the reader's zone and hour format, as
 * Zulip web shows it: "Tue, Nov 28, 2017, 11:01 AM". Null when `datetime` is not a date.
 */
export function formatGlobalTime(datetime: string, locale?: string, timeZone?: string, twentyFourHour: boolean | null = null): string | null {
  const ms = Date.parse(datetime);
  if (!Number.isFinite(ms)) return null;
  return formatter(locale, { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric', ...hourOptions(twentyFourHour), timeZone }).format(new Date(ms));
}

/** Which markers a message carries: edited (content changed), moved (topic or channel changed). */
export function messageMarkers(m: Pick<LocalMessage, 'last_edit_timestamp' | 'last_moved_timestamp'>): { edited: boolean; moved: boolean } {
  return { edited: m.last_edit_timestamp !== null, moved: m.last_moved_timestamp !== null };
}

/** The sender's current name from the users list, else the name stored with the message. */
export function senderName(m: Pick<LocalMessage, 'sender_id' | 'sender_full_name'>, users: ReadonlyMap<number, { full_name: string }>): string {
  return users.get(m.sender_id)?.full_name ?? m.sender_full_name;
}

/** How the empty topic is shown (the realm's display name is not in the contract yet). */
export const EMPTY_TOPIC_LABEL = 'general chat';

export function topicLabel(topic: string): string {
  return topic === '' ? EMPTY_TOPIC_LABEL : topic;
}

/** Unread count as shown: nothing for zero, "999+" past that. */
export function unreadBadge(n: number): string {
  if (n <= 0) return '';
  return n > 999 ? '999+' : String(n);
}
