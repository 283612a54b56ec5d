/**
 * Pure: the emoji the reaction picker offers, with their Unicode codes as Zulip names them
 * (dash-separated hex code points, e.g. `1f44d`), and a search over their names. A built-in list
 * of common emoji: the server validates a `unicode_emoji` reaction's name and code against its own
 * table (the reference server's is server/markdown/emoji.ts; a unit test checks that every name
 * here is in it with the same code). The first name of an entry is the one sent; the others are
 * aliases the search also finds ("thumbs" finds +1).
 */

export interface EmojiEntry {
  /** Zulip's emoji code: hex code points joined by "-". */
  code: string;
  /** The name sent with a reaction first, then aliases. */
  names: readonly string[];
}

/** Zulip's popular reactions first (its picker's default set), then the rest by theme. */
export const EMOJI: readonly EmojiEntry[] = [
  { code: '1f44d', names: ['+1', 'thumbs_up'] },
  { code: '1f389', names: ['tada', 'party_popper'] },
  { code: '1f604', names: ['smile'] },
  { code: '2764', names: ['heart'] },
  { code: '1f6e0', names: ['working_on_it'] },
  { code: '1f419', names: ['octopus'] },
  { code: '1f44e', names: ['-1', 'thumbs_down'] },
  { code: '1f603', names: ['smiley'] },
  { code: '1f600', names: ['grinning'] },
  { code: '1f601', names: ['grin'] },
  { code: '1f602', names: ['joy'] },
  { code: '1f923', names: ['rolling_on_the_floor_laughing'] },
  { code: '1f606', names: ['laughing'] },
  { code: '1f609', names: ['wink'] },
  { code: '1f60a', names: ['blush'] },
  { code: '1f607', names: ['innocent'] },
  { code: '1f642', names: ['slight_smile'] },
  { code: '1f643', names: ['upside_down'] },
  { code: '1f60d', names: ['heart_eyes'] },
  { code: '1f618', names: ['kiss'] },
  { code: '1f914', names: ['thinking'] },
  { code: '1f610', names: ['neutral'] },
  { code: '1f611', names: ['expressionless'] },
  { code: '1f644', names: ['rolling_eyes'] },
  { code: '1f60f', names: ['smirk'] },
  { code: '2639', names: ['sad'] },
  { code: '1f641', names: ['frown'] },
  { code: '1f622', names: ['cry'] },
  { code: '1f62d', names: ['sob'] },
  { code: '1f620', names: ['angry'] },
  { code: '1f621', names: ['rage'] },
  { code: '1f631', names: ['scream'] },
  { code: '1f632', names: ['astonished'] },
  { code: '1f62e', names: ['open_mouth'] },
  { code: '1f634', names: ['sleeping'] },
  { code: '1f605', names: ['sweat_smile'] },
  { code: '1f60e', names: ['sunglasses'] },
  { code: '1f913', names: ['nerd'] },
  { code: '1f615', names: ['confused'] },
  { code: '1f61f', names: ['worried'] },
  { code: '1f494', names: ['broken_heart'] },
  { code: '1f496', names: ['sparkling_heart'] },
  { code: '1f525', names: ['fire'] },
  { code: '2b50', names: ['star'] },
  { code: '2728', names: ['sparkles'] },
  { code: '1f680', names: ['rocket'] },
  { code: '1f440', names: ['eyes'] },
  { code: '1f44f', names: ['clap'] },
  { code: '1f44b', names: ['wave'] },
  { code: '1f64f', names: ['pray'] },
  { code: '1f4aa', names: ['muscle'] },
  { code: '1f44c', names: ['ok_hand'] },
  { code: '1f197', names: ['ok'] },
  { code: '261d', names: ['point_up'] },
  { code: '1f64c', names: ['raised_hands'] },
  { code: '1f91d', names: ['handshake'] },
  { code: '1f4af', names: ['100', 'hundred_points'] },
  { code: '2714', names: ['check', 'check_mark'] },
  { code: '2705', names: ['white_check_mark'] },
  { code: '274c', names: ['cross_mark', 'x'] },
  { code: '2795', names: ['heavy_plus_sign'] },
  { code: '26a0', names: ['warning'] },
  { code: '2753', names: ['question'] },
  { code: '2757', names: ['exclamation'] },
  { code: '1f4a1', names: ['bulb', 'light_bulb'] },
  { code: '26a1', names: ['zap'] },
  { code: '1f4ac', names: ['speech_bubble'] },
  { code: '2600', names: ['sun'] },
  { code: '2601', names: ['cloud'] },
  { code: '1f308', names: ['rainbow'] },
  { code: '2744', names: ['snowflake'] },
  { code: '2615', names: ['coffee'] },
  { code: '1f355', names: ['pizza'] },
  { code: '1f370', names: ['cake'] },
  { code: '1f37a', names: ['beer'] },
  { code: '1f415', names: ['dog'] },
  { code: '1f408', names: ['cat'] },
  { code: '1f422', names: ['turtle'] },
  { code: '1f41b', names: ['bug'] },
  { code: '1f451', names: ['crown'] },
  { code: '1f480', names: ['skull'] },
  { code: '1f47b', names: ['ghost'] },
  { code: '1f916', names: ['robot'] },
  { code: '1f3c6', names: ['trophy'] },
  { code: '1f3c5', names: ['medal'] },
  { code: '1f381', names: ['gift'] },
  { code: '1f3b5', names: ['musical_note'] },
  { code: '1f514', names: ['bell'] },
  { code: '1f4da', names: ['books'] },
  { code: '1f4d6', names: ['book'] },
  { code: '1f4dd', names: ['memo'] },
  { code: '1f4c5', names: ['calendar'] },
  { code: '1f570', names: ['clock'] },
  { code: '231b', names: ['hourglass'] },
  { code: '1f512', names: ['lock'] },
  { code: '1f511', names: ['key'] },
  { code: '2699', names: ['gear'] },
  { code: '1f528', names: ['hammer'] },
  { code: '1f527', names: ['wrench'] },
  { code: '1f517', names: ['link'] },
  { code: '1f4ce', names: ['paperclip'] },
  { code: '1f4e7', names: ['email'] },
  { code: '1f310', names: ['globe'] },
  { code: '1f3e0', names: ['house'] },
  { code: '1f3f0', names: ['castle'] },
  { code: '1f6a2', names: ['ship'] },
  { code: '1f697', names: ['car'] },
  { code: '2708', names: ['airplane'] },
];

/** Code points below this that are text by default get U+FE0F (emoji presentation): ❤ → ❤️. */
const FIRST_EMOJI_PLANE = 0x1f000;

/**
 * The characters of a Zulip emoji code ("1f44d" → "👍", "1f1e9-1f1ea" → "🇩🇪"); null for anything
 * that is not a valid code (realm and Zulip's extra emoji have names, not code points).
 */
export function emojiChar(code: string): string | null {
  if (!/^[0-9a-f]{1,6}(?:-[0-9a-f]{1,6})*$/i.test(code)) return null;
  const points = code.split('-').map((h) => parseInt(h, 16));
  if (points.some((p) => p > 0x10ffff || (p >= 0xd800 && p <= 0xdfff))) return null;
  const text = String.fromCodePoint(...points);
  return points.length === 1 && points[0]! < FIRST_EMOJI_PLANE ? `${text}\ufe0f` : text;
}

/** How an emoji name reads ("thumbs_up" → "thumbs up"). */
export function emojiLabel(name: string): string {
  return name.replace(/_/g, ' ');
}

/**
 * Entries whose names match `query` (case and spaces / underscores ignored): names starting with
 * it first, then names containing it, each in the list's order. A blank query gives every entry.
 */
export function searchEmoji(query: string, list: readonly EmojiEntry[] = EMOJI): EmojiEntry[] {
  const q = query.trim().toLowerCase().replace(/\s+/g, '_');
  if (q === '') return [...list];
  const starts: EmojiEntry[] = [];
  const contains: EmojiEntry[] = [];
  for (const e of list) {
    if (e.names.some((n) => n.startsWith(q) || n.split('_').some((w) => w.startsWith(q)))) starts.push(e);
    else if (e.names.some((n) => n.includes(q))) contains.push(e);
  }
  return [...starts, ...contains];
}
