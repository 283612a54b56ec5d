/**
 * The emoji the user picked last, newest first, for the picker's "Recently used" section: kept per
 * account in the page's localStorage (a preference of this device, like Zulip web's), at most
 * `RECENT_MAX`. Keys are `type:code` (`unicode_emoji:1f44d`, `realm_emoji:1`), as reactions match.
 */
import { createSignal } from 'solid-js';
import type { EmojiEntry } from '../shared/emoji.js';
import { emojiReactionType } from '../shared/emoji.js';

export const RECENT_MAX = 24;
const STORAGE_PREFIX = 'zulip-offline.recent-emoji.';

export const emojiKey = (e: EmojiEntry): string => `${emojiReactionType(e)}:${e.code}`;

/** Pure: `key` first, without an older copy, cut to `max`. */
export function withRecent(list: readonly string[], key: string, max = RECENT_MAX): string[] {
  return [key, ...list.filter((k) => k !== key)].slice(0, max);
}

/** Pure: the entries the keys name, in their order (gone ones, e.g. a deactivated custom emoji, skipped). */
export function recentEntries(keys: readonly string[], known: readonly EmojiEntry[]): EmojiEntry[] {
  const byKey = new Map(known.map((e) => [emojiKey(e), e]));
  return keys.flatMap((k) => byKey.get(k) ?? []);
}

/** Pure: what a stored value holds (anything unreadable is an empty list). */
export function parseRecent(raw: string | null): string[] {
  try {
    const v: unknown = JSON.parse(raw ?? '[]');
    return Array.isArray(v) ? v.filter((k): k is string => typeof k === 'string').slice(0, RECENT_MAX) : [];
  } catch {
    return [];
  }
}

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

const [version, setVersion] = createSignal(0);

/** The account's recent emoji keys (reactive: a pick re-reads them). */
export function recentEmojiKeys(accountId: string | undefined): string[] {
  version();
  if (accountId === undefined) return [];
  return parseRecent(storage()?.getItem(STORAGE_PREFIX + accountId) ?? null);
}

/** Notes a pick. */
export function noteRecentEmoji(accountId: string | undefined, e: EmojiEntry): void {
  if (accountId === undefined) return;
  try {
    storage()?.setItem(STORAGE_PREFIX + accountId, JSON.stringify(withRecent(recentEmojiKeys(accountId), emojiKey(e))));
  } catch {
    // Storage full or refused: the list just does not grow.
  }
  setVersion((v) => v + 1);
}
