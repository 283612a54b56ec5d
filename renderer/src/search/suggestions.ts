/**
 * Pure: the search box's typeahead, after Zulip web's search_suggestion.ts. The word being typed
 * (the text after the last space) is completed against what it can be: an operator (`chan` →
 * `channel:`), an operator's value (`channel:ve` → `channel:Verona`, `topic:` → the topics of the
 * channel already in the query, `sender:` / `dm:` → people, `is:` / `has:` → their values), or,
 * for plain words, the channels, topics and people it matches. `-` in front negates. Each
 * suggestion is the whole new text of the box; terms the query already has, or that cannot go
 * with it (a second channel, a channel in a DM search), are not suggested.
 */
import { parseQuery, quoteOperand, queryOperator, QUERY_OPERATORS, tokenize, type QueryTerm } from './query.js';

export type SuggestionKind = 'search' | 'operator' | 'channel' | 'topic' | 'person' | 'value';

export interface Suggestion {
  kind: SuggestionKind;
  /** The box's text once picked: an operator ends with `:` (typing goes on), a complete term with a space. */
  query: string;
  /** What it finds, in words. */
  label: string;
  /** The term as typed in the box (`channel:Verona`), shown beside the words. */
  term: string;
}

export interface SuggestionLookups {
  channels: readonly { channel_id: number; name: string; is_subscribed: boolean; topics: readonly { topic: string }[] }[];
  users: readonly { user_id: number; email: string; full_name: string; is_active: boolean; is_bot: boolean }[];
}

/** Operators offered by name, in Zulip's order, with what they find. */
const OPERATOR_HELP: ReadonlyArray<readonly [string, string]> = [
  ['channel', 'Messages in a channel'],
  ['topic', 'Messages in a topic'],
  ['sender', 'Messages sent by someone'],
  ['dm', 'Direct messages with someone'],
  ['is', 'Starred, unread, mentions, resolved, …'],
  ['has', 'Messages with links, images, attachments or reactions'],
  ['near', 'Messages around a message id'],
];

const IS_VALUES: ReadonlyArray<readonly [string, string]> = [
  ['dm', 'Direct messages'],
  ['starred', 'Starred messages'],
  ['mentioned', 'Messages that mention you'],
  ['followed', 'Followed topics'],
  ['alerted', 'Alerted messages'],
  ['unread', 'Unread messages'],
  ['muted', 'Muted messages'],
  ['resolved', 'Resolved topics'],
];

const HAS_VALUES: ReadonlyArray<readonly [string, string]> = [
  ['link', 'Messages with links'],
  ['image', 'Messages with images'],
  ['attachment', 'Messages with attachments'],
  ['reaction', 'Messages with reactions'],
];

const PEOPLE_LABEL: Record<string, string> = {
  sender: 'Sent by',
  dm: 'Direct messages with',
  'dm-including': 'Direct messages including',
  mentions: 'Messages that mention',
};

const LIMITS = { channels: 5, topics: 8, people: 5, total: 12 };

/** Zulip's `phrase_match`: the text, or one of its words, starts with the typed part (case aside). */
export function phraseMatch(typed: string, text: string): boolean {
  const q = typed.toLowerCase();
  if (q === '') return true;
  const t = text.toLowerCase();
  return t.startsWith(q) || t.split(/[\s\-_./@]+/).some((w) => w.startsWith(q));
}

/** The text before the word being typed (with its trailing space) and that word. */
export function splitLast(text: string): { base: string; last: string } {
  const tokens = tokenize(text);
  const endsInSpace = text === '' || (/\s$/.test(text) && !isOpenQuote(text));
  if (endsInSpace) return { base: text, last: '' };
  const last = tokens[tokens.length - 1] ?? '';
  return { base: text.slice(0, text.length - last.length), last };
}

/** The text ends inside a quoted operand (`topic:"lunch pl`). */
function isOpenQuote(text: string): boolean {
  return (text.match(/"/g)?.length ?? 0) % 2 === 1;
}

const has = (terms: readonly QueryTerm[], operator: string, operand?: string) =>
  terms.some((t) => t.operator === operator && !t.negated && (operand === undefined || t.operand.toLowerCase() === operand.toLowerCase()));

/** Whether a positive term of `operator` may be added to `terms` (Zulip's incompatible patterns, the common ones). */
function fits(terms: readonly QueryTerm[], operator: string): boolean {
  const dmSearch = has(terms, 'dm') || has(terms, 'is', 'dm') || has(terms, 'dm-including');
  switch (operator) {
    case 'channel':
      return !has(terms, 'channel') && !dmSearch;
    case 'topic':
      return !has(terms, 'topic') && !dmSearch;
    case 'dm':
      return !has(terms, 'dm') && !has(terms, 'channel');
    case 'sender':
      return !has(terms, 'sender');
    case 'near':
      return !has(terms, 'near');
    default:
      return true;
  }
}

export function suggest(text: string, lookups: SuggestionLookups): Suggestion[] {
  const { base, last } = splitLast(text);
  const terms = parseQuery(base);
  const out: Suggestion[] = [];
  const push = (kind: SuggestionKind, term: string, label: string, complete: boolean) => {
    const query = `${base}${term}${complete ? ' ' : ''}`;
    if (!out.some((s) => s.query === query)) out.push({ kind, query, label, term });
  };
  const negated = last.startsWith('-');
  const body = negated ? last.slice(1) : last;
  const sign = negated ? '-' : '';
  const not = (label: string) => (negated ? `Exclude: ${label.charAt(0).toLowerCase()}${label.slice(1)}` : label);
  const colon = body.indexOf(':');
  const operator = colon > 0 ? queryOperator(body.slice(0, colon)) : null;

  if (operator !== null && QUERY_OPERATORS.has(operator)) {
    const typed = body.slice(colon + 1).replace(/^"/, '').replace(/"$/, '');
    valueSuggestions(operator, typed, terms, lookups, negated, (kind, term, label) => push(kind, `${sign}${term}`, not(label), true));
    // What is typed is searched for as it is (an id after `near:`, a topic not cached yet).
    if (typed !== '' && out.length === 0) push('search', `${sign}${operator}:${quoteOperand(typed)}`, not(`${operatorWords(operator)} ${typed}`), true);
    return out.slice(0, LIMITS.total);
  }

  // A plain word, or nothing yet.
  if (text.trim() !== '' && body !== '') out.push({ kind: 'search', query: text, label: `Search for “${text.trim()}”`, term: '' });
  for (const [op, label] of OPERATOR_HELP) {
    if (!fits(terms, op) && !negated) continue;
    if (phraseMatch(body, op) || (body !== '' && op.startsWith(queryOperator(body)))) push('operator', `${sign}${op}:`, not(label), false);
  }
  if (body !== '') {
    valueSuggestions('channel', body, terms, lookups, negated, (kind, term, label) => push(kind, `${sign}${term}`, not(label), true));
    valueSuggestions('topic', body, terms, lookups, negated, (kind, term, label) => push(kind, `${sign}${term}`, not(label), true));
    if (!negated) {
      valueSuggestions('sender', body, terms, lookups, false, (kind, term, label) => push(kind, term, label, true), LIMITS.people);
      valueSuggestions('dm', body, terms, lookups, false, (kind, term, label) => push(kind, term, label, true), 2);
    }
    valueSuggestions('is', body, terms, lookups, negated, (kind, term, label) => push(kind, `${sign}${term}`, not(label), true));
    valueSuggestions('has', body, terms, lookups, negated, (kind, term, label) => push(kind, `${sign}${term}`, not(label), true));
  }
  return out.slice(0, LIMITS.total);
}

function operatorWords(operator: string): string {
  return OPERATOR_HELP.find(([op]) => op === operator)?.[1] ?? operator;
}

/** The values of one operator matching what is typed, most useful first. */
function valueSuggestions(
  operator: string,
  typed: string,
  terms: readonly QueryTerm[],
  lookups: SuggestionLookups,
  negated: boolean,
  add: (kind: SuggestionKind, term: string, label: string) => void,
  limit?: number,
): void {
  // A negated term never narrows what may follow, so it fits anywhere it is not already.
  if (!negated && !fits(terms, operator)) return;
  switch (operator) {
    case 'channel': {
      const list = lookups.channels
        .filter((c) => phraseMatch(typed, c.name))
        .sort((a, b) => Number(b.is_subscribed) - Number(a.is_subscribed) || Number(b.name.toLowerCase().startsWith(typed.toLowerCase())) - Number(a.name.toLowerCase().startsWith(typed.toLowerCase())) || a.name.localeCompare(b.name));
      for (const c of list.slice(0, limit ?? LIMITS.channels)) add('channel', `channel:${quoteOperand(c.name)}`, `Messages in #${c.name}`);
      return;
    }
    case 'topic': {
      const channelTerm = terms.find((t) => t.operator === 'channel' && !t.negated);
      const channel = channelTerm ? lookups.channels.find((c) => c.name.toLowerCase() === channelTerm.operand.toLowerCase() || String(c.channel_id) === channelTerm.operand) : undefined;
      if (!channel) return;
      let n = 0;
      for (const t of channel.topics) {
        if (t.topic === '' || !phraseMatch(typed, t.topic)) continue;
        add('topic', `topic:${quoteOperand(t.topic)}`, `Topic “${t.topic}” in #${channel.name}`);
        if (++n >= (limit ?? LIMITS.topics)) break;
      }
      return;
    }
    case 'sender':
    case 'dm':
    case 'dm-including':
    case 'mentions': {
      // `dm:a@x.com,b` completes the last address of a group.
      const comma = operator === 'dm' ? typed.lastIndexOf(',') : -1;
      const done = comma >= 0 ? typed.slice(0, comma + 1) : '';
      const part = typed.slice(done.length);
      const taken = new Set(done.split(',').map((e) => e.trim().toLowerCase()));
      const people = lookups.users.filter((u) => u.is_active && !taken.has(u.email.toLowerCase()) && (phraseMatch(part, u.full_name) || phraseMatch(part, u.email)));
      people.sort((a, b) => Number(a.is_bot) - Number(b.is_bot) || a.full_name.localeCompare(b.full_name));
      for (const u of people.slice(0, limit ?? LIMITS.people)) add('person', `${operator}:${done}${u.email}`, `${PEOPLE_LABEL[operator] ?? operator} ${u.full_name}`);
      return;
    }
    case 'is':
      for (const [v, label] of IS_VALUES) if (phraseMatch(typed, v) && !has(terms, 'is', v)) add('value', `is:${v}`, label);
      return;
    case 'has':
      for (const [v, label] of HAS_VALUES) if (phraseMatch(typed, v) && !has(terms, 'has', v)) add('value', `has:${v}`, label);
      return;
    default:
      return;
  }
}
