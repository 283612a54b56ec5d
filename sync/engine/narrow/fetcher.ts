/**
 * Fetch only what a page lacks. Given a page request, read it locally; for each side the
 * completeness ranges do not vouch for, ask `GET /messages` for just the missing part (starting
 * at the edge of the known range, not at the anchor), store the answer with the store's
 * `upsertMessages`, record the range it proves, and read the page again.
 *
 * Requests ask for at most 1,000 messages a side (the server's recommended batch; pages above that
 * take several rounds), never more than 5,000 in total. Transient failures (network, timeout,
 * 5xx, 429) are not errors here: the cached page is served with its incomplete sides marked, and
 * `offline` set; permanent ones (a bad narrow, 401) are thrown.
 * No transaction is held across a request: each answer is stored in its own.
 */
import { getMessages, isApiError, parseNarrow, type ApiConnection, type GetMessagesArgs, type MessageAnchor, type NarrowTerm } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { upsertMessages } from '../../db/queries/messages.js';
import { ChangeCollector, type StoreChanges } from '../../db/changes.js';
import { compileLocalNarrow, LocalNarrowError, type CompiledLocalNarrow } from '../../db/narrow/compile.js';
import { readCompiledPage, resolvePivot, type NarrowPage, type PageRequest, type Pivot } from './reader.js';
import { NEWEST, OLDEST, rangeAt, recordFetch } from './ranges.js';
import { dropStale, forgetRanges, isVolatile } from './volatile.js';
import { searchMatchesOf, type SearchMatch } from './search-matches.js';

export const MAX_PER_SIDE_PER_REQUEST = 1000;
export const MAX_PAGE = 5000;

export interface FetchOptions {
  readonly conn: ApiConnection;
  readonly selfUserId: number;
  readonly signal?: AbortSignal;
  /** Collects what the fetched answers changed in the store (else a fresh collector). */
  readonly changes?: ChangeCollector;
}

export interface FetchedPage extends NarrowPage {
  /** The server could not be reached: this is the cached page, incomplete sides marked. */
  readonly offline: boolean;
  /** `GET /messages` requests made (0 when the cache already had the whole page). */
  readonly requests: number;
  readonly changes: StoreChanges;
  /** A search narrow: the server's marked matches of the messages it answered (search-matches.ts). */
  readonly matches: ReadonlyMap<number, SearchMatch>;
}

interface Plan {
  readonly anchor: MessageAnchor;
  readonly rangeAnchor: number;
  readonly includeAnchor: boolean;
  readonly numBefore: number;
  readonly numAfter: number;
}

export async function fetchNarrowPage(db: LocalDb, narrow: unknown, req: PageRequest, opts: FetchOptions): Promise<FetchedPage> {
  if (req.before + req.after > MAX_PAGE) throw new RangeError(`a page holds at most ${MAX_PAGE} messages (asked ${req.before} + ${req.after})`);
  const n = compileLocalNarrow(db, narrow, opts.selfUserId);
  const parsed = parseNarrow(narrow);
  if (!parsed.ok) throw new LocalNarrowError('invalid_narrow', parsed.error);
  const terms = parsed.terms;
  const changes = opts.changes ?? new ChangeCollector();
  // Unsubscribed channel history: no event keeps it current, so only the server's answer counts.
  const volatile = isVolatile(db, n);
  if (volatile) forgetRanges(db, n);
  const pivot = resolvePivot(db, n, req.anchor);
  let requests = 0;
  let page = readCompiledPage(db, n, pivot, req.before, req.after);
  const matches = new Map<number, SearchMatch>();
  // Each side needs at most MAX_PAGE / MAX_PER_SIDE_PER_REQUEST rounds; the bound only guards
  // against a server whose answers prove nothing.
  for (let round = 0; round < 12 && !(page.before.complete && page.after.complete); round++) {
    const plans = planRequests(db, n, pivot, page, req);
    let progress = false;
    for (const plan of plans) {
      let answer;
      try {
        answer = await getMessages(opts.conn, requestOf(terms, plan), { signal: opts.signal });
      } catch (e) {
        // Any transient failure (no network, timeout, 5xx, 429) serves the cache, marked incomplete.
        if (isApiError(e) && e.transient) {
          return { ...readCompiledPage(db, n, pivot, req.before, req.after), offline: true, requests, changes: changes.freeze(), matches };
        }
        throw e;
      }
      requests++;
      searchMatchesOf(answer.messages, matches);
      const span = db.transaction(() => {
        // A narrow searching personal history only answers from the user's per-user rows.
        upsertMessages(db, answer.messages, changes, { personal: !n.includesHistory });
        const proved = recordFetch(db, n.key, {
          anchor: plan.rangeAnchor,
          includeAnchor: plan.includeAnchor,
          numBefore: plan.numBefore,
          numAfter: plan.numAfter,
          foundOldest: answer.found_oldest,
          foundNewest: answer.found_newest,
          ids: answer.messages.map((m) => m.id),
        });
        if (volatile && proved) dropStale(db, n, proved, answer.messages.map((m) => m.id), changes);
        return proved;
      })();
      if (span) progress = true;
    }
    page = readCompiledPage(db, n, pivot, req.before, req.after);
    if (!progress) break;
  }
  return { ...page, offline: false, requests, changes: changes.freeze(), matches };
}

function requestOf(terms: readonly NarrowTerm[], p: Plan): GetMessagesArgs {
  return {
    narrow: terms,
    anchor: p.anchor,
    include_anchor: p.includeAnchor,
    num_before: p.numBefore,
    num_after: p.numAfter,
    apply_markdown: true,
    client_gravatar: false,
    allow_empty_topic_name: true,
  };
}

const cap = (n: number) => Math.min(Math.max(n, 0), MAX_PER_SIDE_PER_REQUEST);

/** The requests for the sides still incomplete, each starting where the known range ends. */
function planRequests(db: LocalDb, n: CompiledLocalNarrow, p: Pivot, page: NarrowPage, req: PageRequest): Plan[] {
  const plans: Plan[] = [];
  let beforeFromPivot = false;
  let afterFromPivot = false;
  if (!page.before.complete) {
    const top = p.kind === 'newest' ? NEWEST : p.id - 1;
    const r = rangeAt(db, n.key, top);
    if (r && r.hi >= top && r.lo > OLDEST) {
      const known = page.messages.filter((m) => m.id >= r.lo && m.id <= top).length;
      plans.push({ anchor: r.lo, rangeAnchor: r.lo, includeAnchor: false, numBefore: cap(req.before - known), numAfter: 0 });
    } else beforeFromPivot = true;
  }
  if (!page.after.complete) {
    const r = rangeAt(db, n.key, p.id);
    if (r && r.hi >= p.id && r.hi < NEWEST) {
      const known = page.messages.filter((m) => m.id > p.id && m.id <= r.hi).length;
      plans.push({ anchor: r.hi, rangeAnchor: r.hi, includeAnchor: false, numBefore: 0, numAfter: cap(req.after - known) });
    } else afterFromPivot = true;
  }
  if (beforeFromPivot || afterFromPivot) {
    // One request for both sides when neither has a known range to continue from.
    const anchor: MessageAnchor = p.kind === 'id' ? p.id : p.kind;
    plans.push({
      anchor,
      rangeAnchor: p.id,
      includeAnchor: p.kind === 'id',
      numBefore: beforeFromPivot ? cap(req.before) : 0,
      numAfter: afterFromPivot ? cap(req.after) : 0,
    });
  }
  return plans;
}
