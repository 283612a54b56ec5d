/** Message flags as a bitmask, so narrows like is:starred use partial indexes. */
export const FLAG = {
  read: 1,
  starred: 2,
  mentioned: 4,
  stream_wildcard_mentioned: 8,
  topic_wildcard_mentioned: 16,
  has_alert_word: 32,
  historical: 64,
  collapsed: 128,
} as const;
export type FlagName = keyof typeof FLAG;

/** `wildcard_mentioned` is derived (deprecated alias of either wildcard flag). */
export function flagsToBits(flags: readonly string[]): number {
  let bits = 0;
  for (const f of flags) if (f in FLAG) bits |= FLAG[f as FlagName];
  return bits;
}

/** Zulip's flag order (its UserMessage bitfield order); `wildcard_mentioned` follows the two wildcards. */
const API_ORDER: readonly FlagName[] = [
  'read',
  'starred',
  'collapsed',
  'mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
  'has_alert_word',
  'historical',
];

/** The flag list in the server's order, so a stored message equals the fetched one field by field. */
export function bitsToFlags(bits: number): string[] {
  const out: string[] = [];
  for (const name of API_ORDER) {
    if (bits & FLAG[name]) out.push(name);
    if (name === 'topic_wildcard_mentioned' && bits & (FLAG.stream_wildcard_mentioned | FLAG.topic_wildcard_mentioned)) out.push('wildcard_mentioned');
  }
  return out;
}
