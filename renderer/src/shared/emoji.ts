/**
 * Pure: the emoji the pickers and the typeahead offer, with their codes as Zulip names them
 * (dash-separated hex code points, e.g. `1f44d`), and a search over their names. The full Unicode
 * set with Zulip's names and categories comes from common/emoji.ts (generated from
 * emoji-datasource), the same table the reference server validates reactions against; the realm's
 * custom emoji are entries with the `url` of their image. The first name of an entry is the one
 * sent; the others are aliases the search also finds ("thumbs" finds +1).
 */
import { emojiText, unicodeEmoji } from '../../../common/emoji.js';
import type { RealmEmojiView } from '../../../sync/protocol/commands.js';

export interface EmojiEntry {
  /** Zulip's emoji code: hex code points joined by "-"; a custom emoji's id. */
  code: string;
  /** The name sent with a reaction first, then aliases. */
  names: readonly string[];
  /** The picker's category ("Smileys & Emotion", …; "Custom" for the realm's). */
  category?: string;
  /** A custom emoji: its image, relative to the realm (`/user_avatars/2/emoji/images/1.png`). */
  url?: string;
}

/** Every Unicode emoji, by category in Zulip's order. */
export const EMOJI: readonly EmojiEntry[] = unicodeEmoji();

/**
 * The Unicode entries with the names the server accepts (its `server_emoji_data_url` table, by
 * code, canonical first): an entry the server does not list is left out (it would refuse it as a
 * reaction), one only the server lists is added without a category (search and typeahead find it,
 * the picker's tabs do not). Codes that are not code points and empty name lists are ignored.
 * No table: the list as it is.
 */
export function withServerNames(list: readonly EmojiEntry[], table: Readonly<Record<string, readonly string[]>> | null): readonly EmojiEntry[] {
  if (table === null) return list;
  const usable = new Map(Object.entries(table).filter(([code, names]) => names.length > 0 && emojiChar(code) !== null));
  const out: EmojiEntry[] = [];
  for (const e of list) {
    const names = usable.get(e.code);
    if (names === undefined) continue;
    out.push({ ...e, names });
    usable.delete(e.code);
  }
  for (const [code, names] of usable) out.push({ code, names });
  return out;
}

/** The picker's category of the realm's emoji, after the Unicode ones (as in Zulip). */
export const CUSTOM_CATEGORY = 'Custom';

/** The realm's active custom emoji as entries: code = id, `url` = the image path on the realm. */
export function customEmojiEntries(list: readonly RealmEmojiView[]): EmojiEntry[] {
  return list.filter((e) => !e.deactivated).map((e) => ({ code: e.id, names: [e.name], category: CUSTOM_CATEGORY, url: e.source_url }));
}

/** The reaction type of an entry. */
export const emojiReactionType = (e: EmojiEntry): 'realm_emoji' | 'unicode_emoji' => (e.url === undefined ? 'unicode_emoji' : 'realm_emoji');

/**
 * The characters of a Zulip emoji code ("1f44d" → "👍", "1f1e9-1f1ea" → "🇩🇪"); null for anything
 * that is not a valid code (realm and Zulip's extra emoji have names, not code points).
 */
export function emojiChar(code: string): string | null {
  if (!/^[0-9a-f]{1,6}(?:-[0-9a-f]{1,6})*$/i.test(code)) return null;
  const points = code.split('-').map((h) => parseInt(h, 16));
  if (points.some((p) => p > 0x10ffff || (p >= 0xd800 && p <= 0xdfff))) return null;
  return emojiText(points);
}

/** How an emoji name reads ("thumbs_up" → "thumbs up"). */
export function emojiLabel(name: string): string {
  return name.replace(/_/g, ' ');
}

/**
 * Entries whose names match `query` (case and spaces / underscores ignored), best first: a name
 * equal to it, then names starting with it, then a word of a name starting with it ("heart" finds
 * broken_heart), then names containing it; within each, in the list's order. A blank query gives
 * every entry.
 */
export function searchEmoji(query: string, list: readonly EmojiEntry[] = EMOJI): EmojiEntry[] {
  const q = query.trim().toLowerCase().replace(/\s+/g, '_');
  if (q === '') return [...list];
  const tiers: EmojiEntry[][] = [[], [], [], []];
  for (const e of list) {
    const rank = Math.min(...e.names.map((n) => (n === q ? 0 : n.startsWith(q) ? 1 : n.split(/[_-]/).some((w) => w.startsWith(q)) ? 2 : n.includes(q) ? 3 : 4)));
    if (rank < 4) tiers[rank]!.push(e);
  }
  return tiers.flat();
}
