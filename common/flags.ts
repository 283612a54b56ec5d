/**
 * Per-user message flags as the API names them. Each store keeps them as a bitmask with its own
 * bit positions (the client's local database and the reference server's `user_messages` each
 * have theirs: they are file formats, never sent), so the positions are a table the store passes
 * in; the names, their order and the derived `wildcard_mentioned` are the API's and live here.
 */

/** Zulip's flag order (its UserMessage bitfield order), the order `flags` lists them in. */
export const MESSAGE_FLAGS = ['read', 'starred', 'collapsed', 'mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'has_alert_word', 'historical'] as const;
export type MessageFlag = (typeof MESSAGE_FLAGS)[number];

/** A store's bit for each flag. */
export type FlagBits = Readonly<Record<MessageFlag, number>>;

/**
 * The API names of a bitmask, in Zulip's order, with the derived `wildcard_mentioned` (deprecated
 * since FL 224: either wildcard flag) after the two wildcards. Bits outside the table are not named.
 */
export function flagNamesOf(bits: number, table: FlagBits): string[] {
  const out: string[] = [];
  for (const name of MESSAGE_FLAGS) {
    if (bits & table[name]) out.push(name);
    if (name === 'topic_wildcard_mentioned' && bits & (table.stream_wildcard_mentioned | table.topic_wildcard_mentioned)) out.push('wildcard_mentioned');
  }
  return out;
}

/** The bitmask of a flag list; names the table does not know (`wildcard_mentioned`, newer flags) are skipped. */
export function flagBitsOf(flags: readonly string[], table: FlagBits): number {
  let bits = 0;
  for (const f of flags) if (Object.hasOwn(table, f)) bits |= table[f as MessageFlag];
  return bits;
}
