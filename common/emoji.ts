/**
 * The Unicode emoji set with Zulip's names (generated into emoji-data.ts from emoji-datasource by
 * scripts/gen-emoji.mjs), shared by the renderer (picker, reactions, typeahead) and the reference
 * server (reaction validation, `:name:` rendering). Parsed on first use.
 */
import { EMOJI_DATA, TEXT_DEFAULT } from './emoji-data.js';

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

let textDefault: ReadonlySet<number> | undefined;

/**
 * The characters of a Zulip emoji code's code points, with U+FE0F after those that would show as
 * text without it ("2764" → "❤️", "0023-20e3" → "#️⃣"), as the fully-qualified form has it.
 */
export function emojiText(points: readonly number[]): string {
  textDefault ??= new Set(TEXT_DEFAULT.split(' ').map((h) => parseInt(h, 16)));
  let out = '';
  points.forEach((p, i) => {
    out += String.fromCodePoint(p);
    if (textDefault!.has(p) && points[i + 1] !== 0xfe0f) out += '\ufe0f';
  });
  return out;
}
