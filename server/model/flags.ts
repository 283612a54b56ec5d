/**
 * Per-user message flags, stored as a bitmask in `user_messages.flags`. The bit positions are
 * this server's own; only the names travel over the API. `wildcard_mentioned` is not stored: it
 * is derived (deprecated since FL 224, equal to channel-or-topic wildcard mentioned); the names and
 * their order are common/flags.ts.
 */
import { flagNamesOf, type FlagBits } from '../../common/flags.js';

export const FLAG = {
  read: 1 << 0,
  starred: 1 << 1,
  collapsed: 1 << 2,
  mentioned: 1 << 3,
  stream_wildcard_mentioned: 1 << 4,
  topic_wildcard_mentioned: 1 << 5,
  has_alert_word: 1 << 6,
  historical: 1 << 7,
  /** Internal (Zulip's is_private): a direct message. Never listed in the API. */
  is_private: 1 << 8,
} as const satisfies FlagBits & { is_private: number };

/** The flags a user may change with POST /messages/flags (Zulip's editable API flags). */
export const EDITABLE_FLAGS = ['read', 'starred', 'collapsed'] as const;
export type EditableFlag = (typeof EDITABLE_FLAGS)[number];

/** Bits that mean "this message mentions the user" for `is:mentioned` and unread mentions. */
export const MENTION_BITS = FLAG.mentioned | FLAG.stream_wildcard_mentioned | FLAG.topic_wildcard_mentioned;

/** The API names of a flag bitmask, in a stable order, with the derived `wildcard_mentioned`. */
export const flagNames = (bits: number): string[] => flagNamesOf(bits, FLAG);

/** Flags of a message the user can read without having received it (no user_messages row). */
export const HISTORICAL_FLAGS = FLAG.read | FLAG.historical;
