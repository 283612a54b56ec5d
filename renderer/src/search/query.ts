/**
 * Pure: the search box's text as Zulip web reads it (`Filter.parse`): whitespace-separated
 * `operator:operand` terms (`-` before one negates it; an operand with spaces is written in double
 * quotes), every other word joined into one `search` term at the end. Channels are written by
 * name and people by email, as Zulip's search box shows them; the URL of a query has channel and
 * people slugs with their ids, so it opens the same view in Zulip web.
 */
import { buildHash, canonicalOperator, channelIdOfSlug, channelSlug, dmSlug, userIdsOfSlug, type HashTerm } from '../core/hash.js';

export interface QueryTerm {
  /** Canonical (`stream` → `channel`, `from` → `sender`, ...). */
  operator: string;
  operand: string;
  negated: boolean;
}

/** The operators the box reads (after `canonicalOperator`); any other `word:word` is text to search for. */
export const QUERY_OPERATORS: ReadonlySet<string> = new Set(['channel', 'channels', 'topic', 'sender', 'dm', 'dm-including', 'mentions', 'is', 'has', 'in', 'id', 'near', 'with', 'search']);

/** Zulip's query-text synonyms beyond the URL's (`from:` is `sender:`). */
const TEXT_SYNONYMS: Record<string, string> = { from: 'sender' };

export function queryOperator(op: string): string {
  const c = canonicalOperator(op);
  return TEXT_SYNONYMS[c] ?? c;
}

/** Tokens separated by whitespace outside double quotes (a quote may start mid-token: `topic:"a b"`). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    if (!quoted && /\s/.test(ch)) {
      if (cur !== '') out.push(cur);
      cur = '';
    } else {
      cur += ch;
    }
  }
  if (cur !== '') out.push(cur);
  return out;
}

const unquote = (s: string) => (s.length >= 2 && s.startsWith('"') && s.endsWith('"') ? s.slice(1, -1) : s.startsWith('"') ? s.slice(1) : s);

/** An operand as the box writes it: quoted when it has spaces (or is empty, or starts with a quote). */
export function quoteOperand(s: string): string {
  return s === '' || /[\s"]/.test(s) ? `"${s.replace(/"/g, '')}"` : s;
}

/** One token as a term, or null when it is plain text. */
export function termOfToken(token: string): QueryTerm | null {
  const negated = token.startsWith('-');
  const body = negated ? token.slice(1) : token;
  const colon = body.indexOf(':');
  if (colon <= 0) return null;
  const operator = queryOperator(body.slice(0, colon));
  if (!QUERY_OPERATORS.has(operator)) return null;
  return { operator, operand: unquote(body.slice(colon + 1)), negated };
}

/** The terms of the box's text; an operator with nothing after it is left out (but `topic:""` is the empty topic). */
export function parseQuery(text: string): QueryTerm[] {
  const terms: QueryTerm[] = [];
  const words: string[] = [];
  for (const token of tokenize(text)) {
    const t = termOfToken(token);
    if (t === null) words.push(token);
    else if (t.operator === 'search') {
      if (t.operand.trim() !== '') words.push(t.operand);
    } else if (t.operand !== '' || (t.operator === 'topic' && token.endsWith('""'))) terms.push(t);
  }
  if (words.length > 0) terms.push({ operator: 'search', operand: words.join(' '), negated: false });
  return terms;
}

/** The box's text of terms. */
export function unparseQuery(terms: readonly QueryTerm[]): string {
  return terms.map((t) => (t.operator === 'search' ? t.operand : `${t.negated ? '-' : ''}${t.operator}:${quoteOperand(t.operand)}`)).join(' ');
}

/** What the box needs to know of channels and people. */
export interface QueryNames {
  channels: readonly { channel_id: number; name: string }[];
  users: readonly { user_id: number; email: string; full_name: string }[];
}

const PEOPLE = new Set(['dm', 'dm-including', 'sender', 'mentions']);

/** The URL of a query, or null when there is nothing to search for. Unknown names stay as typed (the view then says so). */
export function hashOfQuery(text: string, names: QueryNames): string | null {
  const terms = parseQuery(text);
  if (terms.length === 0) return null;
  const byName = (n: string) => names.channels.find((c) => c.name.toLowerCase() === n.toLowerCase());
  const byEmail = (e: string) => names.users.find((u) => u.email.toLowerCase() === e.trim().toLowerCase());
  const hashTerms: HashTerm[] = terms.map((t) => {
    let operand = t.operand;
    if (t.operator === 'channel') {
      const c = /^\d+$/.test(operand) ? names.channels.find((x) => x.channel_id === Number(operand)) : byName(operand);
      if (c) operand = channelSlug(c.channel_id, c.name);
    } else if (PEOPLE.has(t.operator)) {
      const people = operand.split(',').map(byEmail);
      const ids = people.map((u) => u?.user_id);
      if (ids.every((id): id is number => id !== undefined)) {
        const sorted = [...new Set(ids)].sort((a, b) => a - b);
        operand = dmSlug(sorted, sorted.length === 1 ? (people[0]?.full_name ?? null) : null);
      }
    }
    return { operator: t.operator, operand, negated: t.negated };
  });
  return buildHash({ kind: 'narrow', terms: hashTerms });
}

/** The box's text for a view's URL terms (channels by name, people by email). */
export function queryOfHashTerms(terms: readonly HashTerm[], names: QueryNames): string {
  return unparseQuery(
    terms.map((t) => {
      let operand = t.operand;
      if (t.operator === 'channel') {
        const id = channelIdOfSlug(operand);
        const c = id === null ? undefined : names.channels.find((x) => x.channel_id === id);
        if (c) operand = c.name;
      } else if (PEOPLE.has(t.operator)) {
        const ids = userIdsOfSlug(operand);
        const emails = ids?.map((id) => names.users.find((u) => u.user_id === id)?.email);
        if (emails && emails.every((e) => e !== undefined)) operand = emails.join(',');
      }
      return { operator: t.operator, operand, negated: t.negated };
    }),
  );
}
