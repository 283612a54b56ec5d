/**
 * Local narrows: every operator of the server's narrow language (docs/zulip-behaviour.md "Narrows") evaluated in SQL
 * over the cached `messages` table (alias `m`), so a narrow read offline answers what the server
 * would answer on the same data.
 *
 * Usage: `const n = compileLocalNarrow(db, terms, selfUserId)` then
 * `SELECT ... FROM messages m WHERE ${n.where}` with `n.params`.
 *
 * Semantics copied from the server (narrow.py and the reference server):
 *  - Like Zulip's `ok_to_include_history`, a narrow searches the user's personal history unless it
 *    names a channel (or `channels:public`) and has no per-user `is:` filter. Locally "personal
 *    history" is every cached message with the local `HAS_ROW` bit (the server holds a per-user
 *    row for it; see sync/db/flags.ts): `historical` alone cannot tell, since a row can be marked
 *    historical too (the user starred or un-read channel history he did not receive).
 *  - `topic` compares as the server compares topics (`topicKey`: Zulip's per-character SQL UPPER(),
 *    not SQLite's ASCII-only NOCASE), on the stored `topic_key` column and its index; the realm's
 *    empty-topic display name means `""`.
 *  - `is:muted` / `in:home` follow user_topics and channel muting as the server does: a muted topic,
 *    or a muted channel unless the topic is unmuted or followed.
 *  - `with:<id>` becomes the cached message's current conversation; when that message is not
 *    cached, the term is dropped if the other terms already name one conversation (the server's
 *    rule for an inaccessible message), else the narrow is refused.
 *  - `near` is an anchor, not a filter (see `anchorFromNear`).
 */
import { parseNarrow, topicKey, type NarrowTerm, type ParseNarrowResult } from '../../api/index.js';
import { FLAG, HAS_ROW } from '../flags.js';
import type { LocalDb } from '../open.js';
import { deepFreeze } from '../queries/messages.js';
import { LocalNarrowError, asMessageId, resolveChannelId, resolveDmUserIds, resolveUserId, storedTopic } from './resolve.js';
import { ftsQuery } from '../../../common/search.js';

export { LocalNarrowError } from './resolve.js';

/** A term with its operator un-aliased and its operand resolved to ids where it names something. */
export interface CanonicalTerm {
  readonly operator: string;
  readonly operand: string | number | readonly number[];
  readonly negated: boolean;
}

export interface CompiledLocalNarrow {
  /** SQL boolean over `messages m`. */
  readonly where: string;
  readonly params: ReadonlyArray<string | number>;
  /** Canonical JSON of the terms: the same filter written differently gets the same key. */
  readonly key: string;
  readonly terms: readonly CanonicalTerm[];
  /** The `near` operand, if any: the anchor the narrow asks for. */
  readonly near: number | undefined;
  readonly includesHistory: boolean;
  /**
   * When the narrow has a (non-negated) `search` term: the same filter split into the FTS5 MATCH
   * expression and the other conditions, so page reads can walk the search index in id order
   * (`messages_fts` joined to `messages`) and stop at the page's end. `where` above tests
   * membership with `m.id IN (all matches)`, which reads every match first: fine for a few ids,
   * not for a page of a common word (reader.ts).
   */
  readonly search?: { readonly match: string; readonly where: string; readonly params: ReadonlyArray<string | number> };
  /**
   * When the narrow is one of the common ones (one channel, a channel's topic, one DM
   * conversation, `is:starred`, each alone and not negated): which, with its resolved operands,
   * so the readers run that shape's own statement (db/queries/narrow-rows.ts) rather than `where`.
   */
  readonly shape?: NarrowShape;
}

export type NarrowShape =
  | { readonly kind: 'channel'; readonly channelId: number }
  | { readonly kind: 'topic'; readonly channelId: number; readonly topicKey: string }
  | { readonly kind: 'dm'; readonly dmKey: string }
  | { readonly kind: 'starred' };

const ALIASES: Readonly<Record<string, string>> = {
  stream: 'channel',
  streams: 'channels',
  'pm-with': 'dm',
  pm_with: 'dm',
  'group-pm-with': 'dm-including',
  group_pm_with: 'dm-including',
};
const MENTION_BITS = FLAG.mentioned | FLAG.stream_wildcard_mentioned | FLAG.topic_wildcard_mentioned;
/** `is:` operands that do not depend on per-user flags, so they keep a channel's history. */
const HISTORY_SAFE_IS = new Set(['resolved', 'followed', 'muted']);

const FOLLOWED = `(m.type = 'stream' AND EXISTS (SELECT 1 FROM user_topics ut
  WHERE ut.channel_id = m.channel_id AND ut.topic_key = m.topic_key AND ut.visibility_policy = 3))`;
const MUTED = `(m.type = 'stream' AND (
  EXISTS (SELECT 1 FROM user_topics ut WHERE ut.channel_id = m.channel_id AND ut.topic_key = m.topic_key AND ut.visibility_policy = 1)
  OR (EXISTS (SELECT 1 FROM subscriptions s WHERE s.channel_id = m.channel_id AND s.is_muted = 1)
      AND NOT EXISTS (SELECT 1 FROM user_topics ut WHERE ut.channel_id = m.channel_id AND ut.topic_key = m.topic_key AND ut.visibility_policy IN (2, 3)))))`;

/**
 * Parsed narrows by their JSON text (shared and frozen). Parsing depends on nothing stored, and
 * validating with zod cost a tenth of a local page read (bench/engine-narrow.bench.ts), while a
 * view reads the same narrow page after page. Bounded, oldest first out.
 */
const PARSED_NARROWS_LIMIT = 200;
const parsedNarrows = new Map<string, ParseNarrowResult>();

function parseNarrowText(narrow: unknown): ParseNarrowResult {
  let text: string | undefined;
  try {
    text = typeof narrow === 'string' ? narrow : JSON.stringify(narrow);
  } catch {
    // Not JSON data (a cycle, a BigInt): let the parser say what is wrong with it.
  }
  if (text === undefined) return parseNarrow(narrow);
  let parsed = parsedNarrows.get(text);
  if (parsed === undefined) {
    parsed = deepFreeze(parseNarrow(text));
    if (parsedNarrows.size >= PARSED_NARROWS_LIMIT) parsedNarrows.delete(parsedNarrows.keys().next().value as string);
    parsedNarrows.set(text, parsed);
  }
  return parsed;
}

/** Parse (either wire encoding, as its JSON), validate and resolve a narrow; throws `LocalNarrowError`. */
export function canonicalTerms(db: LocalDb, narrow: unknown, selfUserId: number): CanonicalTerm[] {
  const parsed = parseNarrowText(narrow);
  if (!parsed.ok) throw new LocalNarrowError('invalid_narrow', parsed.error);
  const terms = resolveWith(db, parsed.terms);
  return terms.map((t) => canonical(db, t, selfUserId));
}

function canonical(db: LocalDb, t: NarrowTerm, self: number): CanonicalTerm {
  const operator = ALIASES[t.operator] ?? t.operator;
  const negated = t.negated === true;
  const o = t.operand;
  switch (operator) {
    case 'channel':
      return { operator, operand: resolveChannelId(db, o), negated };
    case 'sender':
    case 'dm-including':
    case 'mentions':
      return { operator, operand: resolveUserId(db, o), negated };
    case 'dm': {
      const ids = [...new Set([...resolveDmUserIds(db, o), self])].sort((a, b) => a - b);
      return { operator, operand: ids, negated };
    }
    case 'topic':
      // The comparison key: the SQL matches `messages.topic_key`, and the narrow's key is the same
      // for every spelling of the topic.
      return { operator, operand: topicKey(storedTopic(db, String(o))), negated };
    case 'id':
    case 'near':
      return { operator, operand: asMessageId(o, `${operator} operand`), negated };
    case 'search':
      if (String(o).trim() === '') throw new LocalNarrowError('invalid_narrow', 'search operand must be a non-empty string');
      return { operator, operand: String(o), negated };
    default:
      return { operator, operand: typeof o === 'number' ? o : String(o), negated };
  }
}

/** `with:<id>` → the cached message's conversation (server: narrow.py `update_narrow_terms_containing_with_operator`). */
function resolveWith(db: LocalDb, terms: readonly NarrowTerm[]): NarrowTerm[] {
  const w = terms.find((t) => t.operator === 'with');
  if (!w) return [...terms];
  const id = asMessageId(w.operand, "'with' operand");
  const row = db.prepare<[number], { type: string; channel_id: number | null; topic: string; dm_key: string | null }>('SELECT type, channel_id, topic, dm_key FROM messages WHERE id = ?').get(id);
  if (row) {
    const rest = terms.filter((t) => !['channel', 'stream', 'topic', 'dm', 'pm-with', 'pm_with', 'with'].includes(t.operator));
    if (row.type === 'stream' && row.channel_id !== null) {
      return [...rest, { operator: 'channel', operand: row.channel_id }, { operator: 'topic', operand: row.topic }];
    }
    const ids = (row.dm_key ?? '').split(',').filter((s) => s !== '').map(Number);
    return [...rest, { operator: 'dm', operand: ids }];
  }
  const rest = terms.filter((t) => t.operator !== 'with');
  const positive = (...ops: string[]) => rest.some((t) => ops.includes(t.operator) && !t.negated);
  if ((positive('channel', 'stream') && positive('topic')) || positive('dm', 'pm-with', 'pm_with')) return rest;
  throw new LocalNarrowError('unresolvable_with', `message ${id} of 'with' is not cached and the other terms name no conversation`);
}

/** Canonical JSON key of resolved terms (`near` excluded: it filters nothing). */
export function narrowKeyOf(terms: readonly CanonicalTerm[]): string {
  const parts = terms
    .filter((t) => t.operator !== 'near')
    .map((t) => JSON.stringify([t.operator, t.operand, t.negated]))
    .sort();
  return `[${[...new Set(parts)].join(',')}]`;
}

/*
 * Helpers of `compileLocalNarrow` at module level, not closures made per call: the bench runs
 * through tsx, whose esbuild names each closure assigned to a const with a defineProperty call
 * per call, which cost a fifth of a compile.
 */
const hasPositive = (terms: readonly CanonicalTerm[], pred: (t: CanonicalTerm) => boolean) => terms.some((t) => !t.negated && pred(t));
const isDmTerm = (t: CanonicalTerm) =>
  t.operator === 'dm' || t.operator === 'dm-including' || (t.operator === 'is' && (t.operand === 'dm' || t.operand === 'private'));
const isChannelTerm = (t: CanonicalTerm) => t.operator === 'channel' || t.operator === 'channels';
const keepsHistory = (t: CanonicalTerm) => t.operator === 'channel' || (t.operator === 'channels' && t.operand === 'public');

export function compileLocalNarrow(db: LocalDb, narrow: unknown, selfUserId: number): CompiledLocalNarrow {
  const terms = canonicalTerms(db, narrow, selfUserId);
  if (hasPositive(terms, isChannelTerm) && hasPositive(terms, isDmTerm)) {
    throw new LocalNarrowError('channel_and_dm', 'No message can be both a channel message and direct message');
  }
  const includesHistory =
    hasPositive(terms, keepsHistory) &&
    !terms.some((t) => t.operator === 'is' && !HISTORY_SAFE_IS.has(String(t.operand)));
  const conds: string[] = includesHistory ? [] : [`(m.flags & ${HAS_ROW}) != 0`];
  const params: Array<string | number> = [];
  // The same conditions without the positive search terms, whose MATCH expressions are ANDed.
  const rest: string[] = [...conds];
  const restParams: Array<string | number> = [];
  const matches: string[] = [];
  let near: number | undefined;
  for (const t of terms) {
    if (t.operator === 'near') {
      near = Number(t.operand);
      continue;
    }
    const c = termSql(t, params);
    // A comparison with a NULL column (a DM has no channel_id) is unknown, not false: negated, it
    // must still keep those messages, as Zulip's recipient-based narrows do.
    const cond = t.negated ? `NOT COALESCE((${c}), 0)` : c;
    conds.push(cond);
    const match = t.operator === 'search' && !t.negated ? ftsQuery(String(t.operand)) : null;
    if (match !== null) {
      matches.push(`(${match})`);
      continue;
    }
    rest.push(cond);
    termSql(t, restParams);
  }
  const search = matches.length > 0 ? { match: matches.join(' AND '), where: rest.length ? rest.join(' AND ') : '1', params: restParams } : undefined;
  const shape = shapeOf(terms);
  return {
    where: conds.length ? conds.join(' AND ') : '1',
    params,
    key: narrowKeyOf(terms),
    terms,
    near,
    includesHistory,
    ...(search ? { search } : {}),
    ...(shape ? { shape } : {}),
  };
}

/** The narrow's `NarrowShape`, if it has one (`near` filters nothing, so it may come along). */
function shapeOf(terms: readonly CanonicalTerm[]): NarrowShape | undefined {
  const filters = terms.filter((t) => t.operator !== 'near');
  if (filters.some((t) => t.negated)) return undefined;
  const [a] = filters;
  if (filters.length === 1 && a?.operator === 'channel') return { kind: 'channel', channelId: Number(a.operand) };
  if (filters.length === 1 && a?.operator === 'dm') return { kind: 'dm', dmKey: (a.operand as readonly number[]).join(',') };
  if (filters.length === 1 && a?.operator === 'is' && a.operand === 'starred') return { kind: 'starred' };
  const channel = filters.find((t) => t.operator === 'channel');
  const topic = filters.find((t) => t.operator === 'topic');
  if (filters.length === 2 && channel && topic) return { kind: 'topic', channelId: Number(channel.operand), topicKey: String(topic.operand) };
  return undefined;
}

function termSql(t: CanonicalTerm, params: Array<string | number>): string {
  const o = t.operand;
  switch (t.operator) {
    case 'channel':
      params.push(Number(o));
      return "(m.type = 'stream' AND m.channel_id = ?)";
    case 'channels':
      if (o === 'public') return "m.channel_id IN (SELECT id FROM channels WHERE json_extract(json, '$.invite_only') = 0)";
      if (o === 'web-public') return "m.channel_id IN (SELECT id FROM channels WHERE json_extract(json, '$.is_web_public') = 1)";
      return "m.channel_id IN (SELECT id FROM channels WHERE json_extract(json, '$.is_archived') = 1)";
    case 'topic':
      params.push(String(o));
      return "(m.type = 'stream' AND m.topic_key = ?)";
    case 'sender':
      params.push(Number(o));
      return 'm.sender_id = ?';
    case 'dm':
      params.push((o as readonly number[]).join(','));
      return "(m.type = 'private' AND m.dm_key = ?)";
    case 'dm-including':
      params.push(`%,${Number(o)},%`);
      return "(m.type = 'private' AND (',' || m.dm_key || ',') LIKE ?)";
    case 'is':
      return isSql(String(o));
    case 'has':
      if (o === 'attachment') return 'm.has_attachment = 1';
      if (o === 'image') return 'm.has_image = 1';
      if (o === 'link') return 'm.has_link = 1';
      return 'm.has_reaction = 1';
    case 'in':
      return o === 'home' ? `NOT ${MUTED}` : '1';
    case 'search': {
      const q = ftsQuery(String(o));
      if (q === null) return '1';
      params.push(q);
      return 'm.id IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?)';
    }
    case 'id':
      params.push(Number(o));
      return 'm.id = ?';
    case 'mentions':
      // Explicit personal mentions only (FL 446), as the server checks the rendered HTML.
      params.push(`<span class="user-mention" data-user-id="${Number(o)}">`);
      return "instr(json_extract(m.json, '$.content'), ?) > 0";
    default:
      throw new LocalNarrowError('invalid_narrow', `unsupported operator ${t.operator}`);
  }
}

function isSql(operand: string): string {
  switch (operand) {
    case 'dm':
    case 'private':
      return "m.type = 'private'";
    case 'starred':
      return `(m.flags & ${FLAG.starred}) != 0`;
    case 'unread':
      return `(m.flags & ${FLAG.read}) = 0`;
    case 'mentioned':
      return `(m.flags & ${MENTION_BITS}) != 0`;
    case 'alerted':
      return `(m.flags & ${FLAG.has_alert_word}) != 0`;
    case 'followed':
      return FOLLOWED;
    case 'muted':
      return MUTED;
    case 'resolved':
      return "(m.type = 'stream' AND m.topic LIKE '✔ %')";
    default:
      throw new LocalNarrowError('invalid_narrow', `unsupported is:${operand}`);
  }
}

