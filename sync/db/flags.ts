/**
 * Message flags as a bitmask, so narrows like is:starred use partial indexes. These positions are
 * the local database's (the server has its own); the names and their order are common/flags.ts.
 */
import { flagBitsOf, flagNamesOf, type FlagBits } from '../../common/flags.js';

export const FLAG = {
  read: 1,
  starred: 2,
  mentioned: 4,
  stream_wildcard_mentioned: 8,
  topic_wildcard_mentioned: 16,
  has_alert_word: 32,
  historical: 64,
  collapsed: 128,
} as const satisfies FlagBits;
export type FlagName = keyof typeof FLAG;

/** The bitmask of a flag list (`wildcard_mentioned` is derived: a deprecated alias of either wildcard flag). */
export const flagsToBits = (flags: readonly string[]): number => flagBitsOf(flags, FLAG);

const FLAG_BITS = Object.values(FLAG).reduce((all, bit) => all | bit, 0);
/** Each flag list by its bits, built once (a page turns 50 bitmasks into lists). */
const flagLists = new Map<number, readonly string[]>();

/** The flag list in the server's order, so a stored message equals the fetched one field by field. */
export function bitsToFlags(bits: number): string[] {
  const known = bits & FLAG_BITS;
  let list = flagLists.get(known);
  if (list === undefined) flagLists.set(known, (list = flagNamesOf(known, FLAG)));
  return list.slice();
}

/**
 * Local-only bit, outside the server's flag names (never emitted by `bitsToFlags`): the server
 * holds a per-user row (UserMessage) for this message, so it belongs to the user's personal
 * history (narrows without a channel term, or with a per-user `is:` filter). Without it, a
 * channel message is only readable as channel history. Both states report `historical` in
 * `GET /messages` (a row can be marked historical), which is why the flags alone cannot tell.
 */
export const HAS_ROW = 256;
/** What a message without a row reports: `read` + `historical` (Zulip's DEFAULT_HISTORICAL_FLAGS). */
export const NO_ROW_FLAGS = FLAG.read | FLAG.historical;

/**
 * The `HAS_ROW` bit for fetched flags. `known` when the source says (a `message` event, a
 * personal-history narrow, an id a flag event named). Otherwise derived: flags without
 * `historical`, or with anything besides `read` + `historical`, come only from a row; exactly
 * `read` + `historical` is either a historical row or none, so the stored knowledge stays
 * (a message not stored yet: no row).
 */
export function rowBitOf(flagBits: number, known: boolean | undefined, storedBits: number | undefined): number {
  if (known !== undefined) return known ? HAS_ROW : 0;
  if ((flagBits & ~HAS_ROW) !== NO_ROW_FLAGS) return HAS_ROW;
  return (storedBits ?? 0) & HAS_ROW;
}
