/**
 * The Unicode emoji set with Zulip's names (generated into emoji-data.ts from emoji-datasource by
 * scripts/gen-emoji.mjs), shared by the renderer (picker, reactions, typeahead) and the reference
 * server (reaction validation, `:name:` rendering). Parsed on first use.
 */
import { EMOJI_DATA } from './emoji-data.js';

export interface UnicodeEmoji {
  /** Zulip's emoji code: lower-case hex code points joined by "-", without U+FE0F. */
  readonly code: string;
  /** The name sent first, then aliases. */
  readonly names: readonly string[];
  /** Its category in Zulip's picker ("Smileys & Emotion", …). */
  readonly category: string;
}

/** The categories in Zulip's picker order. */
export const EMOJI_CATEGORIES: readonly string[] = EMOJI_DATA.map(([category]) => category);

let list: readonly UnicodeEmoji[] | undefined;
let byName: ReadonlyMap<string, string> | undefined;

/** Every emoji, by category in Zulip's order and in Unicode's order within each. */
export function unicodeEmoji(): readonly UnicodeEmoji[] {
  list ??= EMOJI_DATA.flatMap(([category, entries]) =>
    entries.split(';').map((e) => {
      const [code = '', ...names] = e.split(' ');
      return { code, names, category };
    }),
  );
  return list;
}

/** The code a Zulip emoji name stands for (any of its names), or undefined. */
export function unicodeEmojiCode(name: string): string | undefined {
  byName ??= new Map(unicodeEmoji().flatMap((e) => e.names.map((n) => [n, e.code] as const)));
  return byName.get(name);
}
