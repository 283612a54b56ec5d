/**
 * Pure: how the message list lays out a run of messages, as Zulip web does. A message continues
 * its sender's group (no name or avatar again) when the one before it is from the same sender in
 * the same conversation on the same day; a date separator comes before the first message of each
 * calendar day in the user's time zone (not before the very first, whose day the recipient
 * heading's neighbourhood already gives); the first unread message is where a view opened at
 * "first unread" lands.
 */
import type { LocalMessage } from '../../../sync/protocol/messages.js';
import { dateText, dayKey } from '../kit/format.js';
import { startsRecipientRun } from '../data/narrow-reducer.js';

type Laid = Pick<LocalMessage, 'id' | 'sender_id' | 'timestamp' | 'flags'> & Parameters<typeof startsRecipientRun>[0][number];

const day = (m: Pick<LocalMessage, 'timestamp'>, timeZone: string | undefined) => dayKey(new Date(m.timestamp * 1000), timeZone);

/** Whether the message at `index` starts a new calendar day (the first message never does). */
export function startsDay(messages: readonly Laid[], index: number, timeZone?: string): boolean {
  const prev = messages[index - 1];
  const cur = messages[index];
  return prev !== undefined && cur !== undefined && day(prev, timeZone) !== day(cur, timeZone);
}

/** Whether the message at `index` continues the group of the one before (same sender, conversation and day). */
export function continuesSender(messages: readonly Laid[], index: number, timeZone?: string): boolean {
  const prev = messages[index - 1];
  const cur = messages[index];
  if (prev === undefined || cur === undefined) return false;
  return prev.sender_id === cur.sender_id && !startsRecipientRun(messages as readonly LocalMessage[], index) && !startsDay(messages, index, timeZone);
}

/** A date separator's words: Today, Yesterday, or the date (with the year when not this year). */
export function dayLabel(timestamp: number, now: Date = new Date(), locale?: string, timeZone?: string): string {
  const d = new Date(timestamp * 1000);
  const k = dayKey(d, timeZone);
  const today = dayKey(now, timeZone);
  if (k === today) return 'Today';
  if (k === dayKey(new Date(now.getTime() - 86_400_000), timeZone)) return 'Yesterday';
  const sameYear = k.slice(0, 4) === today.slice(0, 4);
  return dateText(d, locale, { timeZone, weekday: 'short', month: 'short', day: 'numeric', ...(sameYear ? {} : { year: 'numeric' }) });
}

/** The first message not read by the user, or null when all are read. */
export function firstUnreadId(messages: readonly Pick<LocalMessage, 'id' | 'flags'>[]): number | null {
  for (const m of messages) if (!m.flags.includes('read')) return m.id;
  return null;
}
