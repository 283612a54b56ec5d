/**
 * What the user card and the user list show (Zulip web's user_card_popover.ts, buddy_data.ts):
 * role names, the person's local time, presence words, and the buddy list's order and filter.
 * Pure, unit-tested in test/renderer/people/people.test.ts.
 */
import type { UserPresence, UserSummary } from '../../../sync/protocol/commands.js';
import { dateText } from '../kit/format.js';

export type Presence = UserPresence['presence'];

const ROLES: Readonly<Record<number, string>> = { 100: 'Owner', 200: 'Administrator', 300: 'Moderator', 400: 'Member', 600: 'Guest' };

/** Zulip's role names; bots are "Bot" whatever their role. */
export function roleName(u: Pick<UserSummary, 'role' | 'is_bot'>): string {
  if (u.is_bot) return 'Bot';
  return (u.role !== null && u.role !== undefined && ROLES[u.role]) || 'Member';
}

/** The email others may see: `delivery_email` when the server shares it, else the API email unless it is a dummy one. */
export function visibleEmail(u: Pick<UserSummary, 'email' | 'delivery_email'>): string | null {
  if (u.delivery_email) return u.delivery_email;
  return /^user\d+@/.test(u.email) ? null : u.email;
}

/** "3:05 PM local time" in the person's timezone; null when it is unknown or not a zone the platform knows. */
export function localTime(timezone: string | undefined, now: Date, twentyFourHour: boolean): string | null {
  if (!timezone) return null;
  try {
    const t = dateText(now, 'en-US', { hour: 'numeric', minute: '2-digit', hour12: !twentyFourHour, timeZone: timezone });
    return `${t} local time`;
  } catch {
    return null;
  }
}

export const PRESENCE_WORDS: Readonly<Record<Presence, string>> = { active: 'Active now', idle: 'Idle', offline: 'Offline' };

const RANK: Readonly<Record<Presence, number>> = { active: 0, idle: 1, offline: 2 };

export interface BuddyRow {
  readonly user: UserSummary;
  readonly presence: Presence;
}

/**
 * The buddy list: active people (deactivated ones, bots and muted people left out, as Zulip's),
 * matching the filter (every word begins a word of the name, or the email begins with it), active
 * first, then idle, then offline, each by name.
 */
export function buddyList(users: readonly UserSummary[], presenceOf: (id: number) => Presence | undefined, isMuted: (id: number) => boolean, filter: string): BuddyRow[] {
  const words = filter.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (u: UserSummary) => {
    const nameWords = u.full_name.toLowerCase().split(/[\s,.'’-]+/);
    return words.every((w) => nameWords.some((n) => n.startsWith(w)) || u.full_name.toLowerCase().startsWith(w)) || (words.length === 1 && u.email.toLowerCase().startsWith(words[0]!));
  };
  return users
    .filter((u) => u.is_active && !u.is_bot && !isMuted(u.user_id) && matches(u))
    .map((u) => ({ user: u, presence: presenceOf(u.user_id) ?? 'offline' }))
    .sort((a, b) => RANK[a.presence] - RANK[b.presence] || a.user.full_name.localeCompare(b.user.full_name));
}
