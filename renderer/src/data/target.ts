/**
 * Pure: what a message view shows (`NarrowTarget`), to and from the URL's terms, and as the
 * engine's `openNarrow` request. The views this app shows: the combined feed, a channel, a topic,
 * a direct-message conversation, starred messages, mentions, and a search; each optionally
 * anchored at a message (`near`). Any other combination of the operators the engine evaluates
 * (sender, is, has, negations, ...) is a `filter` view: its URL terms, each with the operand the
 * engine takes. Unknown operators are reported as `unsupported`, so the screen can say so instead
 * of guessing.
 */
import type { NarrowRequest } from '../../../sync/protocol/views.js';
import { buildHash, channelIdOfSlug, channelSlug, dmSlug, userIdsOfSlug, type HashTerm } from '../core/hash.js';

export type NarrowTarget =
  | { kind: 'feed'; near?: number }
  | { kind: 'channel'; channelId: number; channelName: string; near?: number }
  | { kind: 'topic'; channelId: number; channelName: string; topic: string; near?: number }
  /** The other participants (the user alone for notes to self), sorted. */
  | { kind: 'dm'; userIds: number[]; near?: number }
  | { kind: 'starred'; near?: number }
  | { kind: 'mentioned'; near?: number }
  | { kind: 'search'; query: string; near?: number }
  /** Any other combination of terms the engine filters by (search results of the typeahead's operators). */
  | { kind: 'filter'; terms: FilterTerm[]; near?: number };

/** A URL term of a filter view and the operand the engine's narrow takes for it (ids for channels and people). */
export interface FilterTerm extends HashTerm {
  wire: string | number | number[];
}

/** Operators the engine's local narrows evaluate (sync/db/narrow/compile.ts), besides the anchors. */
export const FILTER_OPERATORS: ReadonlySet<string> = new Set(['channel', 'channels', 'topic', 'sender', 'dm', 'dm-including', 'mentions', 'is', 'has', 'in', 'id', 'search']);

/** What resolving legacy names needs (channels by name, users by email) and whether it is known yet. */
export interface Lookups {
  channelsLoaded: boolean;
  channelByName(name: string): { channel_id: number; name: string } | undefined;
  usersLoaded: boolean;
  userIdByEmail(email: string): number | undefined;
}

export type Resolution =
  | { kind: 'target'; target: NarrowTarget }
  /** A legacy name waits for the channels or users to load. */
  | { kind: 'pending'; what: string }
  /** A view this app does not show yet. */
  | { kind: 'unsupported'; what: string }
  /** A channel or person that does not exist here, or an anchor that is not a message id. */
  | { kind: 'unknown'; what: string }
  /** A term whose operand its operator never takes (`is:foo`): a search that cannot be made. */
  | { kind: 'invalid'; what: string };

/**
 * The operands the engine's narrows take for the operators with a fixed set (Zulip's: the API's
 * narrow schema in sync/api/schemas/narrow.ts); any other one is an invalid search, said as such
 * rather than sent to the engine to be refused.
 */
export const FIXED_OPERANDS: Readonly<Record<string, readonly string[]>> = {
  is: ['dm', 'private', 'starred', 'unread', 'mentioned', 'alerted', 'followed', 'muted', 'resolved'],
  has: ['attachment', 'image', 'link', 'reaction'],
  in: ['home', 'all'],
  channels: ['public', 'web-public', 'archived'],
};

/** "a, b or c". */
const orList = (xs: readonly string[]) => (xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} or ${xs.at(-1) ?? ''}`);

const messageId = (s: string): number | null => (/^\d{1,15}$/.test(s) && Number(s) > 0 ? Number(s) : null);

/** "operator operand" of terms, for a sentence naming an unsupported view. */
export function describeTerms(terms: readonly HashTerm[]): string {
  return terms.map((t) => `${t.negated ? '-' : ''}${t.operator}:${t.operand}`).join(' ');
}

/** The channel of a slug: by id (the name is the slug's decoration until the real one is known), or a legacy bare name. */
function channelOf(slug: string, lookups: Lookups): { channelId: number; channelName: string } | Resolution {
  const id = channelIdOfSlug(slug);
  if (id !== null) return { channelId: id, channelName: slug.slice(String(id).length + 1).replace(/-/g, ' ') };
  if (!lookups.channelsLoaded) return { kind: 'pending', what: `the channel “${slug}”` };
  const c = lookups.channelByName(slug);
  return c ? { channelId: c.channel_id, channelName: c.name } : { kind: 'unknown', what: `There is no channel named “${slug}” here.` };
}

function dmUsersOf(slug: string, lookups: Lookups): number[] | Resolution {
  const ids = userIdsOfSlug(slug);
  if (ids !== null) return [...new Set(ids)].sort((a, b) => a - b);
  if (!lookups.usersLoaded) return { kind: 'pending', what: 'the people of this conversation' };
  const found: number[] = [];
  for (const email of slug.split(',').map((e) => e.trim())) {
    const id = lookups.userIdByEmail(email);
    if (id === undefined) return { kind: 'unknown', what: `There is nobody with the address “${email}” here.` };
    found.push(id);
  }
  return [...new Set(found)].sort((a, b) => a - b);
}

const isResolution = (x: unknown): x is Resolution => typeof x === 'object' && x !== null && 'kind' in x;

/** The engine's operand of a filter term: ids for channels and people, else the text. */
function wireOperand(t: HashTerm, lookups: Lookups): FilterTerm['wire'] | Resolution {
  switch (t.operator) {
    case 'channel': {
      const c = channelOf(t.operand, lookups);
      return isResolution(c) ? c : c.channelId;
    }
    case 'dm':
      return dmUsersOf(t.operand, lookups);
    case 'sender':
    case 'dm-including':
    case 'mentions': {
      const ids = dmUsersOf(t.operand, lookups);
      if (isResolution(ids)) return ids;
      return ids.length === 1 && ids[0] !== undefined ? ids[0] : { kind: 'unknown', what: `“${t.operator}” names one person, not “${t.operand}”.` };
    }
    case 'is':
    case 'has':
    case 'in':
    case 'channels': {
      const operand = t.operand.toLowerCase();
      const known = FIXED_OPERANDS[t.operator] ?? [];
      if (known.includes(operand)) return operand;
      return { kind: 'invalid', what: `“${t.operator}:${t.operand}” is not something messages can be filtered by: “${t.operator}:” takes ${orList(known)}.` };
    }
    default:
      return t.operand;
  }
}

/** A filter view of terms whose operators the engine knows; unsupported otherwise. */
function filterOf(rest: readonly HashTerm[], lookups: Lookups, unsupported: Resolution): FilterTerm[] | Resolution {
  const out: FilterTerm[] = [];
  for (const t of rest) {
    if (!FILTER_OPERATORS.has(t.operator)) return unsupported;
    if (t.operator === 'search' && t.operand.trim() === '') return unsupported;
    const wire = wireOperand(t, lookups);
    if (isResolution(wire)) return wire;
    out.push({ operator: t.operator, operand: t.operand, negated: t.negated, wire });
  }
  return out;
}

/** The view the URL's terms describe. */
export function targetOfTerms(terms: readonly HashTerm[], lookups: Lookups): Resolution {
  let near: number | undefined;
  const rest: HashTerm[] = [];
  for (const t of terms) {
    if ((t.operator === 'near' || t.operator === 'with') && !t.negated) {
      const id = messageId(t.operand);
      if (id === null) return { kind: 'unknown', what: `“${t.operand}” is not a message id.` };
      near = id;
    } else {
      rest.push(t);
    }
  }
  const anchored = <T extends NarrowTarget>(t: T): Resolution => ({ kind: 'target', target: near === undefined ? t : { ...t, near } });
  const unsupported: Resolution = { kind: 'unsupported', what: describeTerms(terms) };
  const filter = () => {
    const f = filterOf(rest, lookups, unsupported);
    return isResolution(f) ? f : anchored({ kind: 'filter', terms: f });
  };
  if (rest.some((t) => t.negated)) return filter();
  const ops = rest.map((t) => t.operator).join(',');
  const operand = (i: number) => rest[i]?.operand ?? '';
  switch (ops) {
    case '':
      return anchored({ kind: 'feed' });
    case 'channel':
    case 'channel,topic': {
      const c = channelOf(operand(0), lookups);
      if (isResolution(c)) return c;
      return rest.length === 1 ? anchored({ kind: 'channel', ...c }) : anchored({ kind: 'topic', ...c, topic: operand(1) });
    }
    case 'dm': {
      const ids = dmUsersOf(operand(0), lookups);
      if (isResolution(ids)) return ids;
      return anchored({ kind: 'dm', userIds: ids });
    }
    case 'is':
      if (operand(0) === 'starred') return anchored({ kind: 'starred' });
      if (operand(0) === 'mentioned') return anchored({ kind: 'mentioned' });
      return filter();
    case 'search':
      return operand(0).trim() === '' ? unsupported : anchored({ kind: 'search', query: operand(0) });
    default:
      return filter();
  }
}

/** The URL terms of a view (`userName` names a one-to-one DM's slug, as Zulip does). */
export function termsOfTarget(t: NarrowTarget, userName: (id: number) => string | undefined = () => undefined): HashTerm[] {
  const term = (operator: string, operand: string): HashTerm => ({ operator, operand, negated: false });
  const out: HashTerm[] = [];
  switch (t.kind) {
    case 'feed':
      break;
    case 'channel':
    case 'topic':
      out.push(term('channel', channelSlug(t.channelId, t.channelName)));
      if (t.kind === 'topic') out.push(term('topic', t.topic));
      break;
    case 'dm': {
      const first = t.userIds[0];
      out.push(term('dm', dmSlug(t.userIds, t.userIds.length === 1 && first !== undefined ? (userName(first) ?? null) : null)));
      break;
    }
    case 'starred':
    case 'mentioned':
      out.push(term('is', t.kind));
      break;
    case 'search':
      out.push(term('search', t.query));
      break;
    case 'filter':
      for (const f of t.terms) out.push({ operator: f.operator, operand: f.operand, negated: f.negated });
      break;
  }
  if (t.near !== undefined) out.push(term('near', String(t.near)));
  return out;
}

export function hashOfTarget(t: NarrowTarget, userName?: (id: number) => string | undefined): string {
  return buildHash({ kind: 'narrow', terms: termsOfTarget(t, userName) });
}

/** Same view and anchor (names aside: a renamed channel is the same channel). */
export function sameTarget(a: NarrowTarget | null | undefined, b: NarrowTarget | null | undefined): boolean {
  if (!a || !b) return a === b;
  if (a.kind !== b.kind || a.near !== b.near) return false;
  switch (a.kind) {
    case 'channel':
      return b.kind === 'channel' && a.channelId === b.channelId;
    case 'topic':
      return b.kind === 'topic' && a.channelId === b.channelId && a.topic === b.topic;
    case 'dm':
      return b.kind === 'dm' && a.userIds.length === b.userIds.length && a.userIds.every((id, i) => id === b.userIds[i]);
    case 'search':
      return b.kind === 'search' && a.query === b.query;
    case 'filter':
      return b.kind === 'filter' && JSON.stringify(a.terms.map((f) => [f.operator, f.wire, f.negated])) === JSON.stringify(b.terms.map((f) => [f.operator, f.wire, f.negated]));
    default:
      return true;
  }
}

/** Messages asked for when a view opens (on each side of an anchor) and per "load older / newer". */
export const PAGE_SIZE = 50;

/** The engine request opening a view: the newest page, or a page on each side of the anchor. */
export function narrowRequest(target: NarrowTarget, before = PAGE_SIZE): NarrowRequest {
  const narrow: NarrowRequest['narrow'] = [];
  switch (target.kind) {
    case 'feed':
      // The combined feed leaves out muted channels and topics, as Zulip's does.
      narrow.push({ operator: 'in', operand: 'home' });
      break;
    case 'channel':
    case 'topic':
      narrow.push({ operator: 'channel', operand: target.channelId });
      if (target.kind === 'topic') narrow.push({ operator: 'topic', operand: target.topic });
      break;
    case 'dm':
      narrow.push({ operator: 'dm', operand: target.userIds });
      break;
    case 'starred':
    case 'mentioned':
      narrow.push({ operator: 'is', operand: target.kind });
      break;
    case 'search':
      narrow.push({ operator: 'search', operand: target.query });
      break;
    case 'filter':
      for (const f of target.terms) narrow.push(f.negated ? { operator: f.operator, operand: f.wire, negated: true } : { operator: f.operator, operand: f.wire });
      break;
  }
  if (target.near !== undefined) return { narrow, anchor: target.near, before, after: PAGE_SIZE };
  return { narrow, anchor: 'newest', before, after: 0 };
}

/** The channel of a channel or topic view; null otherwise. */
export function channelOfTarget(t: NarrowTarget): { channelId: number; channelName: string } | null {
  return t.kind === 'channel' || t.kind === 'topic' ? { channelId: t.channelId, channelName: t.channelName } : null;
}

/** The topic of a topic view; null otherwise. */
export function topicOf(t: NarrowTarget): string | null {
  return t.kind === 'topic' ? t.topic : null;
}

/** The free-text words a view searches for (its `search` operand), or null: what its results mark. */
export function searchTextOf(target: NarrowTarget): string | null {
  if (target.kind === 'search') return target.query;
  if (target.kind !== 'filter') return null;
  const words = target.terms.filter((t) => t.operator === 'search' && !t.negated).map((t) => t.operand);
  return words.length > 0 ? words.join(' ') : null;
}
