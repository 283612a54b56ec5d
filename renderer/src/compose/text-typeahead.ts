/**
 * Pure: the message text's typeahead, as Zulip web's composebox typeahead has it: what is being
 * completed at the caret (`@` people, groups and wildcards, `@_` silent mentions, `:` emoji, `#`
 * channels, `#**channel>` topics), the suggestions in Zulip's order, and the text a choice puts in
 * with the caret after it.
 *
 * When it opens: the trigger must start the text or follow a space or one of `"'(/<[{`, and what
 * follows the caret must be the end or a space or punctuation. `@` opens at once; `#` after one more
 * character; `:` after a letter or `+` (so `:)` and `:-p` stay smileys). The look-back is bounded
 * (86 characters, Zulip's figure), so a mention may hold spaces ("@ada lov").
 *
 * People are ordered as Zulip's `sort_recipients`: name matches (exact, prefix, word start) before
 * groups, then bots, then e-mail matches; within each, wildcards first (last in a direct message),
 * then the current channel's subscribers, then who sent the newest messages in this topic, then in
 * this channel, then recent direct-message partners, then by name.
 */
import type { UserSummary } from '../../../sync/protocol/commands.js';
import { searchEmoji, type EmojiEntry } from '../shared/emoji.js';

/** Zulip's `max_num_items` for the composebox typeahead. */
export const MAX_ITEMS = 8;
/** Zulip's `MAX_LOOKBACK_FOR_TYPEAHEAD_COMPLETION`: a channel name's length, the link syntax, some topic. */
const MAX_LOOKBACK = 60 + 6 + 20;
/** What may follow the caret for a completion to be offered (Zulip's `terminal_symbols`). */
const TERMINAL = ',.;?!()[]> \u00a0"\'\n\t';

export type Trigger =
  | { kind: 'mention'; silent: boolean; query: string; start: number }
  | { kind: 'emoji'; query: string; start: number }
  | { kind: 'channel'; query: string; start: number }
  /** `#**channel>query`: `start` is the `#`. */
  | { kind: 'topic'; channel: string; query: string; start: number };

/** The token being typed before the caret (Zulip's `tokenize_compose_str`): from its trigger to the caret, or ''. */
function token(before: string): string {
  const min = Math.max(0, before.length - MAX_LOOKBACK);
  for (let i = before.length - 1; i >= min; i--) {
    const c = before[i];
    if (c === '`' || c === '~') {
      // A code fence (its language typeahead is not offered): nothing before it counts.
      if (i === 2 || (i > 2 && before[i - 3] === '\n')) return '';
    } else if (c === '/' && i === 0) return '';
    else if (c === '#' || c === '@' || c === ':' || c === '_') {
      if (i === 0 || /[\s"'(/<[{]/.test(before[i - 1] ?? '')) return before.slice(i);
    }
  }
  return '';
}

/** What the caret is completing in `text`, or null (the list stays closed). */
export function findTrigger(text: string, caret: number): Trigger | null {
  const before = text.slice(0, caret);
  const rest = text.slice(caret);
  if (rest !== '' && !TERMINAL.includes(rest[0] ?? '')) return null;
  const tok = token(before);
  if (tok.startsWith(':')) {
    if (/^:-.?$/.test(tok) || /^:[^+a-z]?$/.test(tok) || tok[1] === ' ') return null;
    return { kind: 'emoji', query: tok.slice(1), start: caret - tok.length };
  }
  if (tok.startsWith('@')) {
    const silent = tok.startsWith('@_');
    let q = tok.slice(silent ? 2 : 1);
    q = q.startsWith('**') ? q.slice(2) : q.startsWith('*') ? q.slice(1) : q;
    if (q.includes('*') || q.startsWith(' ')) return null;
    return { kind: 'mention', silent, query: q, start: caret - tok.length };
  }
  // `#**channel>topic` (checked before `#`: the token may begin inside the channel's name).
  const topic = /#\*\*([^*>]+)>([^*\n]*)$/.exec(before);
  if (topic) {
    const query = topic[2] ?? '';
    return query.startsWith(' ') ? null : { kind: 'topic', channel: topic[1] ?? '', query, start: topic.index };
  }
  if (tok.startsWith('#') && tok.length > 1) {
    const q = tok.startsWith('#**') ? tok.slice(3) : tok.slice(1);
    return q.startsWith(' ') ? null : { kind: 'channel', query: q, start: caret - tok.length };
  }
  return null;
}

/**
 * `>` typed right after a channel link (`#**design**>`, or with a space between): Zulip jumps into
 * the link to complete a topic (`#**design>`). Null when the text before the caret is not that.
 */
export function topicJump(text: string, caret: number): { text: string; caret: number } | null {
  const before = text.slice(0, caret);
  const m = /#\*\*[^*>]+(\*\*\s?>)$/.exec(before);
  if (!m) return null;
  const head = before.slice(0, before.length - (m[1]?.length ?? 0)) + '>';
  return { text: head + text.slice(caret), caret: head.length };
}

// ---------------------------------------------------------------------------------------------
// Matching, as Zulip's shared typeahead `triage`: exact, prefix (case kept, then ignored), word start.

const plain = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** 0 exact, 1 prefix with its case, 2 prefix, 3 at a word's start, 4 no match. */
export function matchTier(query: string, text: string): 0 | 1 | 2 | 3 | 4 {
  return tierOf(query)(fold(text));
}

/** A text's forms the matching compares: as written and lower-cased, with and without accents. */
interface Folded {
  readonly ascii: boolean;
  readonly text: string;
  readonly lower: string;
  readonly plain: string;
  readonly plainLower: string;
}
const ASCII = /^[\x20-\x7e]*$/;
function fold(text: string): Folded {
  const ascii = ASCII.test(text);
  const plainText = ascii ? text : plain(text);
  return { ascii, text, lower: text.toLowerCase(), plain: plainText, plainLower: plainText.toLowerCase() };
}

/** `matchTier` for one query over many texts: the query's work (its case, its pattern) done once. */
function tierOf(query: string): (f: Folded) => 0 | 1 | 2 | 3 | 4 {
  // A query without accents matches names with them (Zulip's `should_remove_diacritics_for_query`).
  const strip = ASCII.test(query);
  const q = query.toLowerCase();
  const wordStart = new RegExp(`[\\s\\-_/(\\[.]${escapeRe(q)}`);
  return (f) => {
    const stripped = strip && !f.ascii;
    const t = stripped ? f.plain : f.text;
    const lower = stripped ? f.plainLower : f.lower;
    if (lower === q) return 0;
    if (t.startsWith(query)) return 1;
    if (lower.startsWith(q)) return 2;
    if (wordStart.test(lower)) return 3;
    return 4;
  };
}

/** The first `k` of `xs` in `compare`'s order (a full sort only when that is all of them). */
function firstSorted<T>(xs: readonly T[], compare: (a: T, b: T) => number, k: number): T[] {
  if (xs.length <= k * 4) return [...xs].sort(compare).slice(0, k);
  const out: T[] = [];
  for (const x of xs) {
    if (out.length === k && compare(x, out[k - 1]!) >= 0) continue;
    // Stable: after every kept item that compares equal, as a sort would place it.
    let i = out.length;
    while (i > 0 && compare(x, out[i - 1]!) < 0) i--;
    out.splice(i, 0, x);
    if (out.length > k) out.pop();
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Mentions.

export interface GroupInfo {
  id: number;
  name: string;
  description: string;
  members: readonly number[];
  direct_subgroup_ids: readonly number[];
  is_system_group: boolean;
  deactivated: boolean;
}

/** Where the text goes, for wildcards and ordering. */
export type Conversation = { kind: 'channel'; channelId: number; topic: string } | { kind: 'dm' } | null;

export interface PeopleContext {
  users: readonly UserSummary[];
  groups: readonly GroupInfo[];
  conversation: Conversation;
  /** The current channel's subscribers, when known. */
  subscribers?: ReadonlySet<number>;
  /** Newest message id each person sent in this topic, and in this channel. */
  topicSenders?: ReadonlyMap<number, number>;
  channelSenders?: ReadonlyMap<number, number>;
  /** Direct-message partners: the higher, the more recent. */
  dmPartners?: ReadonlyMap<number, number>;
}

export type MentionItem =
  | { type: 'user'; user: UserSummary; silent: boolean }
  | { type: 'wildcard'; name: string; detail: string }
  | { type: 'group'; group: GroupInfo; silent: boolean };

const CHANNEL_WILDCARDS = ['all', 'everyone', 'stream', 'channel'];

/** Zulip's `broadcast_mentions`: all and everyone in a direct message; in a channel those, stream, channel and topic. */
export function wildcards(c: Conversation): { name: string; detail: string }[] {
  if (c === null) return [];
  if (c.kind === 'dm') return ['all', 'everyone'].map((name) => ({ name, detail: 'Notify recipients' }));
  return [...CHANNEL_WILDCARDS, 'topic'].map((name) => ({ name, detail: name === 'topic' ? 'Notify participants in this conversation' : 'Notify all channel subscribers' }));
}

const byRecency = (m: ReadonlyMap<number, number> | undefined, a: number, b: number) => (m?.get(b) ?? -1) - (m?.get(a) ?? -1);

/** Zulip's `compare_people_for_relevance` over users and wildcards. */
function comparePeople(ctx: PeopleContext, a: MentionItem, b: MentionItem): number {
  const wa = a.type === 'wildcard';
  const wb = b.type === 'wildcard';
  if (wa || wb) {
    if (wa && wb) return wildcardIndex(a.name) - wildcardIndex(b.name);
    const first = ctx.conversation?.kind === 'dm' ? 1 : -1;
    return wa ? first : -first;
  }
  if (a.type !== 'user' || b.type !== 'user') return 0;
  const ua = a.user.user_id;
  const ub = b.user.user_id;
  const subs = ctx.subscribers;
  if (subs && subs.has(ua) !== subs.has(ub)) return subs.has(ua) ? -1 : 1;
  return (
    byRecency(ctx.topicSenders, ua, ub) ||
    byRecency(ctx.channelSenders, ua, ub) ||
    byRecency(ctx.dmPartners, ua, ub) ||
    (a.user.full_name < b.user.full_name ? -1 : a.user.full_name > b.user.full_name ? 1 : 0)
  );
}
const wildcardIndex = (name: string) => [...CHANNEL_WILDCARDS, 'topic'].indexOf(name);

interface FoldedUser {
  readonly user: UserSummary;
  readonly name: Folded;
  readonly email: Folded;
  /** Its items, plain and silent, made once (no garbage per keystroke). */
  readonly items: readonly [MentionItem, MentionItem];
}
/**
 * Each user list's names and e-mail addresses folded once (a prebuilt index): with 10,000 people,
 * lower-casing every name on every keystroke, and an item per person, took most of a frame.
 */
const foldedLists = new WeakMap<readonly UserSummary[], readonly FoldedUser[]>();
function foldedUsers(users: readonly UserSummary[]): readonly FoldedUser[] {
  let f = foldedLists.get(users);
  if (f === undefined) {
    const item = (user: UserSummary, silent: boolean): MentionItem => ({ type: 'user', user, silent });
    f = users.map((user) => ({ user, name: fold(user.full_name), email: fold(user.email), items: [item(user, false), item(user, true)] }));
    foldedLists.set(users, f);
  }
  return f;
}

/** Matches of one kind (by name, or else by e-mail): good ones (exact or prefix) and at a word's start. */
type Matches = { good: MentionItem[]; word: MentionItem[] };
const matches = (): Matches => ({ good: [], word: [] });
const put = (m: Matches, i: MentionItem, t: number) => (t < 3 ? m.good : m.word).push(i);

/** The people, groups and wildcards `@query` (`@_query` when silent) offers, in Zulip's order. */
export function mentionSuggestions(ctx: PeopleContext, query: string, silent: boolean, max = MAX_ITEMS): MentionItem[] {
  const q = query.trim();
  const ql = q.toLowerCase();
  let people = foldedUsers(ctx.users).filter((u) => u.user.is_active);
  const unique = q === '' ? [] : people.filter((u) => u.name.lower === ql);
  if (unique.length === 1) people = unique;
  // Only the first `max` of each list can show, give or take the channel-wide wildcards skipped
  // below: with 10,000 people, sorting them all would take frames.
  const keep = max + CHANNEL_WILDCARDS.length;
  const sort = (xs: MentionItem[]) => firstSorted(xs, (a, b) => comparePeople(ctx, a, b), keep);
  const tier = tierOf(q);
  // By name (best) and else by e-mail (ok), of humans (the wildcards after the people) and of bots.
  const humans = { best: matches(), ok: matches() };
  const bots = { best: matches(), ok: matches() };
  for (const u of people) {
    const into = u.user.is_bot ? bots : humans;
    const item = u.items[silent ? 1 : 0];
    const byName = tier(u.name);
    if (byName < 4) put(into.best, item, byName);
    else {
      const byEmail = tier(u.email);
      if (byEmail < 4) put(into.ok, item, byEmail);
    }
  }
  if (!silent) {
    for (const w of wildcards(ctx.conversation)) {
      const t = tier(fold(w.name));
      if (t < 4) put(humans.best, { type: 'wildcard', ...w }, t);
    }
  }
  // Good matches before word-start ones, each sorted for relevance.
  const good = (m: Matches) => [...sort(m.good), ...sort(m.word)];
  const groups = ctx.groups
    .filter((g) => !g.is_system_group && !g.deactivated && (g.members.length > 0 || g.direct_subgroup_ids.length > 0) && matchTier(q, g.name) < 4)
    .sort((a, b) => matchTier(q, a.name) - matchTier(q, b.name))
    .map((group): MentionItem => ({ type: 'group', group, silent }));
  const out: MentionItem[] = [];
  // Only the first channel-wide wildcard that matches (all, everyone, stream and channel say the same).
  let channelWide = false;
  for (const i of [...good(humans.best), ...groups, ...good(bots.best), ...good(humans.ok), ...good(bots.ok)]) {
    if (i.type === 'wildcard' && i.name !== 'topic') {
      if (channelWide) continue;
      channelWide = true;
    }
    out.push(i);
  }
  return out.slice(0, max);
}

/** Zulip's mention syntax: `@**Name**`, with `|id` when another user has the same name; `@_` silent. */
export function mentionText(item: MentionItem, users: readonly UserSummary[]): string {
  if (item.type === 'wildcard') return `@**${item.name}**`;
  if (item.type === 'group') return `${item.silent ? '@_' : '@'}*${item.group.name}*`;
  const name = item.user.full_name;
  const duplicate = users.some((u) => u.user_id !== item.user.user_id && u.full_name.toLowerCase() === name.toLowerCase());
  return `${item.silent ? '@_' : '@'}**${name}${duplicate ? `|${item.user.user_id}` : ''}**`;
}

// ---------------------------------------------------------------------------------------------
// Channels and topics.

export interface ChannelInfo {
  channel_id: number;
  name: string;
  /** False for a channel one may read but is not subscribed to (offered last). */
  subscribed?: boolean;
  is_muted: boolean;
  pin_to_top: boolean;
  topics: readonly { topic: string }[];
}

/** Zulip's channel `activity_score`: the channel written to, then unmuted, pinned, recently active; unsubscribed last. */
function activity(c: ChannelInfo, current: number | null): number {
  if (c.channel_id === current) return 8;
  if (c.subscribed === false) return -1;
  return (c.is_muted ? 0 : 4) + (c.pin_to_top ? 2 : 0) + (c.topics.length > 0 ? 1 : 0);
}

export function channelSuggestions(channels: readonly ChannelInfo[], query: string, current: number | null, max = MAX_ITEMS): ChannelInfo[] {
  return channels
    .map((c) => ({ c, tier: matchTier(query, c.name) }))
    .filter((x) => x.tier < 4)
    // Name prefix matches before word-start ones; within each, the most active channel first.
    .sort((a, b) => Number(a.tier === 3) - Number(b.tier === 3) || activity(b.c, current) - activity(a.c, current) || a.c.name.localeCompare(b.c.name))
    .slice(0, max)
    .map((x) => x.c);
}

export type TopicItem = { type: 'channel-link'; channel: string } | { type: 'topic'; channel: string; topic: string; isNew: boolean };

/**
 * `#**channel>query`: the channel's topics (newest first) matching the query, closest matches first,
 * with what is typed as a new topic when it names none; with nothing typed yet, the channel itself
 * comes first ("link to channel"). Empty when the channel is not known.
 */
export function topicSuggestions(channel: ChannelInfo | undefined, query: string, max = MAX_ITEMS): TopicItem[] {
  if (!channel) return [];
  const names = channel.topics.map((t) => t.topic).filter((t) => t !== '');
  const isNew = query !== '' && !names.some((t) => t.toLowerCase() === query.toLowerCase());
  const all = isNew ? [...names, query] : names;
  // Zulip's `triage`: exact, then prefix (case kept, then not), then word start; newest first within each.
  const ranked = all
    .map((t) => ({ t, tier: matchTier(query, t) }))
    .filter((x) => x.tier < 4)
    .sort((a, b) => a.tier - b.tier)
    .map((x) => x.t);
  const items: TopicItem[] = ranked.map((topic) => ({ type: 'topic', channel: channel.name, topic, isNew: isNew && topic === query }));
  if (query === '') items.unshift({ type: 'channel-link', channel: channel.name });
  return items.slice(0, max);
}

// ---------------------------------------------------------------------------------------------
// Putting a choice in.

export type Choice = { type: 'mention'; text: string } | { type: 'emoji'; entry: EmojiEntry } | { type: 'channel'; name: string } | TopicItem;

/** The emoji `:query` offers, from `list` (the Unicode set under the server's names, and the realm's). */
export function emojiSuggestions(query: string, list?: readonly EmojiEntry[], max = MAX_ITEMS): EmojiEntry[] {
  return searchEmoji(query, list).slice(0, max);
}

/**
 * The text after choosing `choice` for `trigger` (the caret at `caret`), and where the caret goes:
 * after what was put in. A channel leaves `#**channel>` so its topics are offered next.
 */
export function applyChoice(text: string, caret: number, trigger: Trigger, choice: Choice): { text: string; caret: number } {
  const head = text.slice(0, trigger.start);
  let put: string;
  if (choice.type === 'mention') put = `${choice.text} `;
  else if (choice.type === 'emoji') {
    // A space before the emoji unless it starts the text or a line, or follows a space.
    const spaced = head === '' || head.endsWith(' ') || head.endsWith('\n');
    put = `${spaced ? '' : ' '}:${choice.entry.names[0] ?? ''}: `;
  } else if (choice.type === 'channel') put = `#**${choice.name}>`;
  else if (choice.type === 'channel-link') put = `#**${choice.channel}** `;
  else put = `#**${choice.channel}>${choice.topic}** `;
  const before = head + put;
  return { text: before + text.slice(caret), caret: before.length };
}

/** Escape while topics are offered: `#**design>new th` becomes `#**design** new th` (Zulip's `select_on_escape`). */
export function escapeTopic(text: string, caret: number, trigger: Trigger & { kind: 'topic' }): { text: string; caret: number } {
  const before = `${text.slice(0, trigger.start)}#**${trigger.channel}** ${trigger.query}`;
  return { text: before + text.slice(caret), caret: before.length };
}
