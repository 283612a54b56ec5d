/**
 * A live view of a narrow: a window of ids [lo, hi] in which the view shows every cached message
 * of the narrow (lo = OLDEST / hi = NEWEST when the window is open at that end, so messages older
 * than everything shown, or newly arriving, enter it). Pure: SQLite only, no network; the caller
 * feeds it the store's `StoreChanges` after each commit and, when a side is incomplete, runs the
 * fetcher and feeds the resulting changes too.
 *
 * Every method returns a `NarrowChangeSet` such that `applyChangeSet(before, cs)` equals the new
 * `snapshot()` exactly (the property the view tests check after random edits).
 *
 *   open ──> snapshot()
 *     │        apply(changes)   touched ids re-checked against the narrow and the window;
 *     │                         areas that change membership (user_topics, subscriptions,
 *     │                         channels, users) reconcile the whole window
 *     │        loadOlder(n) / loadNewer(n)   widen the window by n cached messages
 *     │        recheck()        completeness re-read (after a fetch that stored nothing new)
 */
import type { LocalDb } from '../../db/open.js';
import type { LocalMessage } from '../../protocol/messages.js';
import type { NarrowChangeSet, NarrowSnapshot, SideState } from '../../protocol/views.js';
import type { StoreArea, StoreChanges } from '../../db/changes.js';
import { compileLocalNarrow, type CompiledLocalNarrow } from '../../db/narrow/compile.js';
import { rowToLocalMessage } from './local-message.js';
import { isCovered, NEWEST, OLDEST } from './ranges.js';
import { readCompiledPage, readIds, readRange, resolvePivot, type PageRequest, type Pivot } from './reader.js';
import { narrowMessageRowsIn, type ViewRow } from '../../db/queries/narrow-rows.js';
import { withSearchMatch, type SearchMatch } from './search-matches.js';

/** Areas whose changes can move messages in or out of a narrow, or change how they are shown. */
const RECONCILE_AREAS: ReadonlySet<StoreArea> = new Set<StoreArea>(['user_topics', 'subscriptions', 'channels', 'users']);

interface Shown {
  readonly message: LocalMessage;
  /** What the message was built from, to tell a real change from a no-op on reconcile. */
  readonly version: string;
}

// The outbox marker is part of what is shown: a row changing state re-emits the message.
const versionOf = (r: ViewRow) => `${r.flags}|${r.channel_name ?? ''}|${r.local ?? ''}|${r.json}`;

export class LiveNarrowView {
  private readonly shown = new Map<number, Shown>();
  private readonly matches = new Map<number, SearchMatch>();
  private before: SideState;
  private after: SideState;

  private constructor(
    private readonly db: LocalDb,
    private readonly n: CompiledLocalNarrow,
    private readonly pivot: Pivot,
    private lo: number,
    private hi: number,
    rows: readonly ViewRow[],
  ) {
    for (const r of rows) this.shown.set(r.id, { message: this.build(r), version: versionOf(r) });
    this.before = this.beforeState();
    this.after = this.afterState();
  }

  /** Open on a narrow (either wire encoding) around an anchor, from what is cached. */
  static open(db: LocalDb, narrow: unknown, req: PageRequest, selfUserId: number): LiveNarrowView {
    const n = compileLocalNarrow(db, narrow, selfUserId);
    const pivot = resolvePivot(db, n, req.anchor);
    const page = readCompiledPage(db, n, pivot, req.before, req.after);
    return new LiveNarrowView(db, n, pivot, page.lo, page.hi, readRange(db, n, page.lo, page.hi));
  }

  get key(): string {
    return this.n.key;
  }

  /** The window's ends (for the fetcher: anchor there to fill an incomplete side). */
  get bounds(): { lo: number; hi: number; oldestShown: number | undefined; newestShown: number | undefined } {
    const ids = [...this.shown.keys()].sort((a, b) => a - b);
    return { lo: this.lo, hi: this.hi, oldestShown: ids[0], newestShown: ids.at(-1) };
  }

  snapshot(): NarrowSnapshot {
    const messages = [...this.shown.values()].map((s) => s.message).sort((a, b) => a.id - b.id);
    return { key: this.n.key, anchor_id: this.pivot.kind === 'id' ? this.pivot.id : null, messages, before: this.before, after: this.after };
  }

  /** React to one committed store write. */
  apply(changes: StoreChanges): NarrowChangeSet {
    if ([...changes.areas].some((a) => RECONCILE_AREAS.has(a))) return this.reconcile();
    const touched = new Set<number>([...changes.addedMessageIds, ...changes.updatedMessageIds, ...changes.removedMessageIds]);
    const candidates = [...touched].filter((id) => id >= this.lo && id <= this.hi && !changes.removedMessageIds.has(id));
    const rows = new Map(readIds(this.db, this.n, candidates).map((r) => [r.id, r]));
    const cs = emptyChangeSet();
    for (const id of touched) {
      const row = rows.get(id);
      const was = this.shown.get(id);
      if (row) {
        const version = versionOf(row);
        if (was && was.version === version) continue;
        const message = this.build(row);
        this.shown.set(id, { message, version });
        (was ? cs.updated : cs.added).push(message);
      } else if (was) {
        this.shown.delete(id);
        cs.removed.push(id);
      }
    }
    return this.withSideStates(cs);
  }

  /** Re-read the whole window and report the difference (membership rules changed). */
  reconcile(): NarrowChangeSet {
    const rows = readRange(this.db, this.n, this.lo, this.hi);
    const cs = emptyChangeSet();
    const seen = new Set<number>();
    for (const r of rows) {
      seen.add(r.id);
      const was = this.shown.get(r.id);
      const version = versionOf(r);
      if (was && was.version === version) continue;
      const message = this.build(r);
      this.shown.set(r.id, { message, version });
      (was ? cs.updated : cs.added).push(message);
    }
    for (const id of [...this.shown.keys()]) {
      if (!seen.has(id)) {
        this.shown.delete(id);
        cs.removed.push(id);
      }
    }
    return this.withSideStates(cs);
  }

  /** Show up to `count` more cached messages below the window. */
  loadOlder(count: number): NarrowChangeSet {
    const cs = emptyChangeSet();
    if (this.lo > OLDEST && count > 0) {
      const rows = narrowMessageRowsIn(this.db, this.n, { below: this.lo }, count + 1);
      const shownRows = rows.slice(0, count);
      this.lo = rows.length > count ? shownRows.at(-1)!.id : OLDEST;
      for (const r of shownRows) this.addRow(r, cs);
    }
    return this.withSideStates(cs);
  }

  /** Show up to `count` more cached messages above the window. */
  loadNewer(count: number): NarrowChangeSet {
    const cs = emptyChangeSet();
    if (this.hi < NEWEST && count > 0) {
      const rows = narrowMessageRowsIn(this.db, this.n, { above: this.hi }, count + 1);
      const shownRows = rows.slice(0, count);
      this.hi = rows.length > count ? shownRows.at(-1)!.id : NEWEST;
      for (const r of shownRows) this.addRow(r, cs);
    }
    return this.withSideStates(cs);
  }

  /** Completeness re-read only (ranges changed without any message changing). */
  recheck(): NarrowChangeSet {
    return this.withSideStates(emptyChangeSet());
  }

  /**
   * Keep the server's marked search matches (a search fetched online): messages shown get them now,
   * as `updated`; the others when they enter the window.
   */
  addSearchMatches(found: ReadonlyMap<number, SearchMatch>): NarrowChangeSet {
    const cs = emptyChangeSet();
    for (const [id, match] of found) {
      this.matches.set(id, match);
      const was = this.shown.get(id);
      if (was === undefined) continue;
      const message = withSearchMatch(was.message, match);
      if (message === was.message || message.match_content === was.message.match_content) continue;
      this.shown.set(id, { message, version: was.version });
      cs.updated.push(message);
    }
    return this.withSideStates(cs);
  }

  private build(r: ViewRow): LocalMessage {
    return withSearchMatch(rowToLocalMessage(this.db, r), this.matches.get(r.id));
  }

  private addRow(r: ViewRow, cs: MutableChangeSet): void {
    const message = this.build(r);
    const had = this.shown.has(r.id);
    this.shown.set(r.id, { message, version: versionOf(r) });
    (had ? cs.updated : cs.added).push(message);
  }

  /**
   * Before side: complete when no message is missing between the oldest message shown below the
   * anchor and the anchor (with none shown and the window open at the bottom: when none exists at
   * all); found_end when the window is open at the bottom and the range reaches the oldest.
   */
  private beforeState(): SideState {
    const top = this.pivot.kind === 'newest' ? NEWEST : this.pivot.id - 1;
    let lowest: number | undefined;
    for (const id of this.shown.keys()) if (id <= top && (lowest === undefined || id < lowest)) lowest = id;
    const from = lowest ?? (this.lo === OLDEST ? OLDEST : top + 1);
    return {
      complete: isCovered(this.db, this.n.key, from, top),
      found_end: this.lo === OLDEST && isCovered(this.db, this.n.key, OLDEST, Math.max(top, OLDEST)),
    };
  }

  /** After side: the mirror image of `beforeState`, from the anchor up. */
  private afterState(): SideState {
    const bottom = this.pivot.id;
    const foundEnd = this.hi === NEWEST && isCovered(this.db, this.n.key, bottom, NEWEST);
    if (this.pivot.kind === 'newest') return { complete: true, found_end: foundEnd };
    let highest: number | undefined;
    for (const id of this.shown.keys()) if (id > bottom && (highest === undefined || id > highest)) highest = id;
    const to = highest ?? (this.hi === NEWEST ? NEWEST : bottom);
    return { complete: isCovered(this.db, this.n.key, bottom, to), found_end: foundEnd };
  }

  private withSideStates(cs: MutableChangeSet): NarrowChangeSet {
    const before = this.beforeState();
    const after = this.afterState();
    const out: NarrowChangeSet = { added: cs.added, updated: cs.updated, removed: cs.removed };
    if (before.complete !== this.before.complete || before.found_end !== this.before.found_end) out.before = this.before = before;
    if (after.complete !== this.after.complete || after.found_end !== this.after.found_end) out.after = this.after = after;
    return out;
  }
}

interface MutableChangeSet {
  added: LocalMessage[];
  updated: LocalMessage[];
  removed: number[];
}

const emptyChangeSet = (): MutableChangeSet => ({ added: [], updated: [], removed: [] });
