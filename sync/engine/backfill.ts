/**
 * Catching up on messages (docs/sync-design.md "Initial sync"):
 *
 *  - history: the most recent messages, newest first, in batches of at most 1,000 per request (the
 *    server's hard maximum is 5,000), down to the engine setting `backfill_depth` (default 5,000).
 *  - gap: after the server forgot our queue (or we resynced), the messages we missed: everything
 *    newer than the newest cached one (`anchor` = that id, `include_anchor=false`), then a refresh of
 *    the cached messages' content and flags by `message_ids` (FL 300+) in batches, instead of
 *    reloading everything. Cached messages the server no longer returns were deleted or became
 *    inaccessible while we were away: they are removed. Below FL 300 the refresh falls back to
 *    anchored fetches over the cached id range.
 *
 * Each batch is stored in its own short transaction (never one held across HTTP); progress is
 * reported after each batch.
 */
import { getMessages, type ApiConnection, type Message } from '../api/index.js';
import type { LocalDb } from '../db/open.js';
import { flagsToBits, NO_ROW_FLAGS } from '../db/flags.js';
import { deleteMessages, newestStoredMessageId, upsertMessages, type RowSource } from '../db/queries/messages.js';
import { serverIdsAtOrBelow } from '../db/queries/message-rows.js';
import { getEngineSetting } from '../db/queries/state.js';
import { ChangeCollector, type StoreChanges } from '../db/changes.js';
import type { SyncProgress } from '../protocol/status.js';
import { compileLocalNarrow } from '../db/narrow/compile.js';
import { NEWEST, recordFetch, type FetchAnswer } from './narrow/ranges.js';

export const DEFAULT_BACKFILL_DEPTH = 5_000;
/** The recommended batch size (docs/zulip-behaviour.md "GET /messages": max 5000, recommended ≤ 1000). */
export const BACKFILL_BATCH = 1_000;
const HARD_MAX = 5_000;

/** How every message is fetched, so stored objects equal what `GET /messages` returns to the UI. */
export const FETCH_FORMAT = { apply_markdown: true, client_gravatar: false, allow_empty_topic_name: true } as const;

export interface BackfillContext {
  readonly conn: ApiConnection;
  readonly db: LocalDb;
  readonly signal?: AbortSignal;
  readonly onProgress?: (p: SyncProgress) => void;
  /** Each committed batch's changes, for the open live views. */
  readonly onChanges?: (c: StoreChanges) => void;
  /** Batch size override (tests); clamped to [1, 5000]. */
  readonly batchSize?: number;
}

export function backfillDepth(db: LocalDb): number {
  const v = getEngineSetting(db, 'backfill_depth');
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : DEFAULT_BACKFILL_DEPTH;
}

function batchOf(ctx: BackfillContext): number {
  return Math.max(1, Math.min(HARD_MAX, ctx.batchSize ?? BACKFILL_BATCH));
}

/** Store a batch (and what its answer proves about a narrow, when given) in one transaction. */
/** The empty narrow by anchor searches personal history only: every answer has a per-user row. */
const PERSONAL: RowSource = { personal: true };

function store(ctx: BackfillContext, messages: readonly Message[], source: RowSource, removed: readonly number[] = [], proves?: { key: string; answer: FetchAnswer }): void {
  const changes = new ChangeCollector();
  ctx.db.transaction(() => {
    upsertMessages(ctx.db, messages, changes, source);
    if (removed.length > 0) deleteMessages(ctx.db, removed, changes);
    if (proves) recordFetch(ctx.db, proves.key, proves.answer);
  })();
  if (!changes.empty) ctx.onChanges?.(changes.freeze());
}

/**
 * The most recent history, newest first, down to `depth` messages. Returns how many were fetched.
 * With `selfUserId`, each answer is also recorded as completeness of the all-messages narrow, so
 * "all messages" reads offline without asking the server again.
 */
export async function backfillHistory(ctx: BackfillContext, depth = backfillDepth(ctx.db), selfUserId?: number): Promise<number> {
  const opts = { signal: ctx.signal };
  const key = selfUserId === undefined ? undefined : compileLocalNarrow(ctx.db, [], selfUserId).key;
  let anchor: number | 'newest' = 'newest';
  let done = 0;
  ctx.onProgress?.({ phase: 'history', done, total: depth });
  while (done < depth) {
    const want = Math.min(batchOf(ctx), depth - done);
    const res = await getMessages(
      ctx.conn,
      { anchor, include_anchor: anchor === 'newest', num_before: want, num_after: 0, narrow: [], ...FETCH_FORMAT },
      opts,
    );
    const answer: FetchAnswer = {
      anchor: anchor === 'newest' ? NEWEST : anchor,
      includeAnchor: anchor === 'newest',
      numBefore: want,
      numAfter: 0,
      foundOldest: res.found_oldest,
      foundNewest: res.found_newest,
      ids: res.messages.map((m) => m.id),
    };
    store(ctx, res.messages, PERSONAL, [], key === undefined ? undefined : { key, answer });
    done += res.messages.length;
    ctx.onProgress?.({ phase: 'history', done, total: depth });
    const oldest = res.messages[0];
    if (res.found_oldest || oldest === undefined) break;
    anchor = oldest.id;
  }
  return done;
}

/** Everything newer than the newest cached message. Returns how many were fetched. */
export async function backfillNewer(ctx: BackfillContext): Promise<number> {
  let anchor = newestStoredMessageId(ctx.db);
  if (anchor === 0) return backfillHistory(ctx);
  let done = 0;
  ctx.onProgress?.({ phase: 'gap', done, total: null });
  for (;;) {
    const res = await getMessages(
      ctx.conn,
      { anchor, include_anchor: false, num_before: 0, num_after: batchOf(ctx), narrow: [], ...FETCH_FORMAT },
      { signal: ctx.signal },
    );
    store(ctx, res.messages, PERSONAL);
    done += res.messages.length;
    ctx.onProgress?.({ phase: 'gap', done, total: null });
    const newest = res.messages.at(-1);
    if (res.found_newest || newest === undefined) break;
    anchor = newest.id;
  }
  return done;
}

/**
 * Messages by id, with history: the empty narrow only searches personal history (our per-user
 * rows) on a server that applies the narrow to `message_ids`, so ids without a row (channel
 * history, `historical`) are asked again under `channels:public`, which includes public channels'
 * history as the server does for channel narrows. Ids in neither answer are gone (deleted, or no
 * longer accessible). The reference server answers `message_ids` from everything the user may
 * read whatever the narrow, so callers derive per-user rows from the flags (`rowBitOf`), which
 * is right either way.
 */
export async function fetchByIds(conn: ApiConnection, ids: readonly number[], signal?: AbortSignal): Promise<Message[]> {
  if (ids.length === 0) return [];
  const personal = (await getMessages(conn, { message_ids: ids, narrow: [], ...FETCH_FORMAT }, { signal })).messages;
  const got = new Set(personal.map((m) => m.id));
  const rest = ids.filter((id) => !got.has(id));
  if (rest.length === 0) return personal;
  const history = (
    await getMessages(conn, { message_ids: rest, narrow: [{ operator: 'channels', operand: 'public' }], ...FETCH_FORMAT }, { signal })
  ).messages;
  return [...personal, ...history].sort((a, b) => a.id - b.id);
}

/**
 * Whether we hold a per-user row, for the fetched messages whose flags cannot tell (exactly
 * `read` + `historical`: a historical row, or none). After a gap the stored knowledge may be stale
 * (a move took the row away, a flag change made one), so the server is asked: the narrow `id:<id>`
 * names no channel, so it searches personal history only and answers the message iff it has a row.
 * One small request per such message; they are few (channel history the user did not receive).
 */
export async function askRows(conn: ApiConnection, messages: readonly Message[], signal?: AbortSignal): Promise<Map<number, boolean>> {
  const out = new Map<number, boolean>();
  for (const m of messages) {
    if (flagsToBits(m.flags) !== NO_ROW_FLAGS) continue;
    const res = await getMessages(conn, { anchor: m.id, include_anchor: true, num_before: 0, num_after: 0, narrow: [{ operator: 'id', operand: m.id }], ...FETCH_FORMAT }, { signal });
    out.set(m.id, res.messages.some((x) => x.id === m.id));
  }
  return out;
}

function cachedIds(db: LocalDb, below: number): number[] {
  // Never local echoes: the server does not know them, and "not returned" would delete them.
  return serverIdsAtOrBelow(db, below);
}

/**
 * Re-read cached messages (content, topic, channel, flags, reactions may have changed while the
 * queue was gone), newest first, and drop the ones the server no longer returns.
 */
export async function refreshCached(ctx: BackfillContext, upTo: number): Promise<{ refreshed: number; removed: number }> {
  const ids = cachedIds(ctx.db, upTo);
  const size = batchOf(ctx);
  let refreshed = 0;
  let removed = 0;
  ctx.onProgress?.({ phase: 'refresh', done: 0, total: ids.length });
  for (let i = 0; i < ids.length; i += size) {
    const batch = ids.slice(i, i + size);
    let got: Message[];
    let source: RowSource = PERSONAL;
    if (ctx.conn.supports(300)) {
      // By id the server answers from channel history too: rows are derived from the flags.
      got = await fetchByIds(ctx.conn, batch, ctx.signal);
      source = { knownRows: await askRows(ctx.conn, got, ctx.signal) };
    } else {
      // No `message_ids` before FL 300: the same id range by anchor (newest first). The range may
      // also bring uncached messages in between; storing them is harmless.
      const hi = batch[0]!;
      const lo = batch.at(-1)!;
      const res = await getMessages(
        ctx.conn,
        { anchor: hi, include_anchor: true, num_before: size - 1, num_after: 0, narrow: [], ...FETCH_FORMAT },
        { signal: ctx.signal },
      );
      got = res.messages.filter((m) => m.id >= lo);
    }
    const present = new Set(got.map((m) => m.id));
    const gone = batch.filter((id) => !present.has(id));
    store(ctx, got, source, gone);
    refreshed += got.length;
    removed += gone.length;
    ctx.onProgress?.({ phase: 'refresh', done: Math.min(ids.length, i + batch.length), total: ids.length });
  }
  return { refreshed, removed };
}

/** After a queue loss: the new messages, then a refresh of what we had. */
export async function backfillGap(ctx: BackfillContext): Promise<{ added: number; refreshed: number; removed: number }> {
  const newestBefore = newestStoredMessageId(ctx.db);
  if (newestBefore === 0) return { added: await backfillHistory(ctx), refreshed: 0, removed: 0 };
  const added = await backfillNewer(ctx);
  const r = await refreshCached(ctx, newestBefore);
  return { added, ...r };
}
