/**
 * Pure: Zulip web's URL fragments, parsed and built as Zulip web does (web/src/hash_util.ts,
 * hash_parser.ts, shared/src/internal_url.ts), so a link copied from Zulip opens here and ours
 * open there.
 *
 *   #narrow/channel/ID-name/topic/TOPIC[/near/ID | /with/ID]   (#narrow/stream/... the legacy alias)
 *   #narrow/dm/ID,ID-slug   #narrow/is/starred   #narrow/search/TEXT   #narrow/near/ID   #narrow/-OP/...
 *   #inbox   #recent (#recent_topics)   #feed (#all_messages)
 *
 * Path components are encoded with Zulip's `encodeHashComponent`: encodeURIComponent, then `%`
 * written as `.` and `.` `(` `)` as `.2E` `.28` `.29` ("a b.c" → "a.20b.2Ec"), because some
 * browsers decode `%` escapes in `location.hash`. A channel operand is a slug, "ID-name" with
 * spaces as "-" (only the id counts; legacy links carry the bare name); people slugs
 * ("8,9-group", "8-King-Hamlet") are written raw and read by their ids.
 */

export interface HashTerm {
  /** Canonical operator (`stream` → `channel`, `subject` → `topic`, `pm-with` → `dm`, ...). */
  operator: string;
  /** Decoded operand: the slug for `channel` ("5-Verona") and `dm` ("8,9-group"), else the text. */
  operand: string;
  negated: boolean;
}

export type Route =
  /** No fragment: the default view. */
  | { kind: 'home' }
  | { kind: 'inbox' }
  | { kind: 'recent' }
  /** A message view; no terms is the combined feed. */
  | { kind: 'narrow'; terms: HashTerm[] }
  /** Another section of Zulip web (settings, channels, groups, ...): its first component and the rest, raw. */
  | { kind: 'other'; section: string; rest?: string[] }
  /** A fragment that cannot be read (a malformed escape, an operator without an operand). */
  | { kind: 'invalid'; reason: string };

const REPLACEMENTS: Record<string, string> = { '%': '.', '(': '.28', ')': '.29', '.': '.2E' };

export function encodeHashComponent(s: string): string {
  return encodeURIComponent(s).replace(/[%().]/g, (c) => REPLACEMENTS[c] ?? c);
}

/** Throws URIError on a malformed escape (the caller turns it into an `invalid` route). */
export function decodeHashComponent(s: string): string {
  return decodeURIComponent(s.replace(/\./g, '%'));
}

/** Operator synonyms, as Zulip canonicalises them. */
const SYNONYMS: Record<string, string> = {
  stream: 'channel',
  streams: 'channels',
  subject: 'topic',
  'pm-with': 'dm',
  'group-pm-with': 'dm-including',
};

export function canonicalOperator(op: string): string {
  const lower = op.toLowerCase();
  return SYNONYMS[lower] ?? lower;
}

/** Operators whose operand is a people slug. */
const PEOPLE_OPERATORS = new Set(['dm', 'dm-including', 'sender']);
const PEOPLE_SLUG = /^\d+(?:,\d+)*(?:-|$)/;

/** Views addressed by a single fragment word. */
const VIEWS: Record<string, Route> = {
  inbox: { kind: 'inbox' },
  recent: { kind: 'recent' },
  recent_topics: { kind: 'recent' },
  feed: { kind: 'narrow', terms: [] },
  all_messages: { kind: 'narrow', terms: [] },
};

/** The route of a fragment (`location.hash`, with or without its leading `#`). */
export function parseHash(hash: string): Route {
  const h = hash.startsWith('#') ? hash.slice(1) : hash;
  if (h === '' || h === '/') return { kind: 'home' };
  const parts = h.split('/');
  const head = parts[0] ?? '';
  if (head !== 'narrow') {
    const view = VIEWS[head];
    if (view) return view;
    const rest = parts.slice(1).filter((p) => p !== '');
    return rest.length > 0 ? { kind: 'other', section: head, rest } : { kind: 'other', section: head };
  }
  const terms: HashTerm[] = [];
  try {
    for (let i = 1; i < parts.length; i += 2) {
      let operator = decodeHashComponent(parts[i] ?? '');
      // A trailing slash, as Zulip stops at an empty operator.
      if (operator === '') break;
      const raw = parts[i + 1];
      if (raw === undefined) return { kind: 'invalid', reason: `“${operator}” has no operand` };
      let negated = false;
      if (operator.startsWith('-')) {
        negated = true;
        operator = operator.slice(1);
      }
      operator = canonicalOperator(operator);
      // The empty topic is a topic; any other empty operand is not.
      if (raw === '' && operator !== 'topic') return { kind: 'invalid', reason: `“${operator}” has an empty operand` };
      // People slugs ("8,9-group", "8-King-Hamlet") are written raw and read by their ids, as
      // Zulip does; anything else (a legacy email) is decoded.
      const operand = PEOPLE_OPERATORS.has(operator) && PEOPLE_SLUG.test(raw) ? raw : decodeHashComponent(raw);
      terms.push({ operator, operand, negated });
    }
  } catch {
    return { kind: 'invalid', reason: 'a part of the link is not validly encoded' };
  }
  return { kind: 'narrow', terms };
}

/** The fragment of a route (with its `#`). Terms are written in order, operands encoded. */
export function buildHash(route: Route): string {
  switch (route.kind) {
    case 'home':
      return '#';
    case 'inbox':
      return '#inbox';
    case 'recent':
      return '#recent';
    case 'other':
      return `#${[route.section, ...(route.rest ?? [])].join('/')}`;
    case 'invalid':
      return '#';
    case 'narrow':
      if (route.terms.length === 0) return '#feed';
      return `#narrow${route.terms.map((t) => `/${t.negated ? '-' : ''}${encodeHashComponent(t.operator)}/${encodeOperand(t)}`).join('')}`;
  }
}

/** People slugs go raw (Zulip's `encode_operand`); every other operand is encoded. */
function encodeOperand(t: HashTerm): string {
  return PEOPLE_OPERATORS.has(t.operator) && PEOPLE_SLUG.test(t.operand) ? t.operand : encodeHashComponent(t.operand);
}

/** Zulip's channel slug: "ID-name" with spaces as "-" (the name is decoration; the id decides). */
export function channelSlug(id: number, name: string): string {
  return `${id}-${name.replace(/ /g, '-')}`;
}

/** The channel id of a slug ("5-Verona" → 5, "5" → 5); null for a legacy bare name. */
export function channelIdOfSlug(slug: string): number | null {
  const m = /^(\d+)(?:-|$)/.exec(slug);
  if (!m) return null;
  const id = Number(m[1]);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * Zulip's DM slug: the ids, then "-" and the other person's name (a one-to-one conversation) or
 * "group". Characters Zulip strips from names in slugs become "-" as well.
 */
export function dmSlug(userIds: readonly number[], oneName: string | null): string {
  const ids = userIds.join(',');
  if (userIds.length === 1 && oneName !== null) return `${ids}-${oneName.replace(/[ "%/<>`\p{C}]+/gu, '-')}`;
  return `${ids}-${userIds.length === 1 ? 'dm' : 'group'}`;
}

/** The user ids of a DM slug ("8,9-group" → [8, 9]); null when it names users otherwise (emails). */
export function userIdsOfSlug(slug: string): number[] | null {
  const m = /^(\d+(?:,\d+)*)(?:-|$)/.exec(slug);
  if (!m) return null;
  const ids = (m[1] ?? '').split(',').map(Number);
  return ids.every((n) => Number.isSafeInteger(n) && n > 0) ? ids : null;
}
