/**
 * Live narrow views opened through the session: NARROW's `LiveNarrowView` fed with every committed
 * store change, plus "fetch what's missing" when a side is incomplete and we are online. The
 * subscriber receives change sets that, applied in order to the first snapshot
 * (`applyChangeSet`), give the view's current state.
 */
import type { ApiConnection } from '../api/index.js';
import type { LocalDb } from '../db/open.js';
import type { NarrowChangeSet, NarrowRequest, NarrowSnapshot } from '../protocol/views.js';
import { isEmptyChangeSet } from '../protocol/views.js';
import { ChangeCollector, type StoreChanges } from '../db/changes.js';
import { isDamageError } from '../db/damage.js';
import { fetchNarrowPage } from './narrow/fetcher.js';
import { LiveNarrowView } from './narrow/view.js';
import type { EngineLogger } from '../base/seams.js';

export interface ViewHandle {
  readonly id: string;
  readonly snapshot: NarrowSnapshot;
  loadOlder(count: number): void;
  loadNewer(count: number): void;
  close(): void;
}

export interface ViewHost {
  readonly db: LocalDb;
  readonly conn: ApiConnection;
  readonly selfUserId: number;
  readonly logger: EngineLogger;
  online(): boolean;
  onChanges(listener: (c: StoreChanges) => void): () => void;
  /** Share fetched changes with the other views. */
  emit(c: StoreChanges): void;
  /** The database was found damaged while filling the view: its owner rebuilds it (docs/sync-design.md "Damaged data"). */
  damaged?(error: unknown): void;
}

let nextId = 1;

export function openView(host: ViewHost, req: NarrowRequest, onChange: (cs: NarrowChangeSet) => void): ViewHandle {
  const page = { anchor: req.anchor, before: req.before, after: req.after };
  const view = LiveNarrowView.open(host.db, req.narrow, page, host.selfUserId);
  const push = (cs: NarrowChangeSet) => {
    if (!isEmptyChangeSet(cs)) onChange(cs);
  };
  let closed = false;
  // Store changes reach the view through the session's listener, including the fetch's own.
  const off = host.onChanges((c) => {
    if (!closed) push(view.apply(c));
  });
  /**
   * Fetch what the cache lacks. Without `edge`: the page the view was opened with. With `edge`
   * (after loadOlder / loadNewer ran out of cached messages): the next `count` messages beyond the
   * oldest / newest one shown, so scrolling keeps going past the cache until the server says the
   * conversation ends there (the old page would be covered already and prove nothing new).
   */
  const fill = async (edge?: { side: 'older' | 'newer'; count: number }) => {
    const s = view.snapshot();
    if (!host.online()) return;
    let want: typeof page = page;
    if (edge) {
      const ids = s.messages.map((m) => m.id);
      const side = edge.side === 'older' ? s.before : s.after;
      if (side.found_end || ids.length === 0) return;
      want = edge.side === 'older' ? { anchor: ids[0]!, before: edge.count, after: 0 } : { anchor: ids.at(-1)!, before: 0, after: edge.count };
    } else if (s.before.complete && s.after.complete) return;
    try {
      const changes = new ChangeCollector();
      const fetched = await fetchNarrowPage(host.db, req.narrow, want, { conn: host.conn, selfUserId: host.selfUserId, changes });
      // Before the store's changes reach the view, so the messages they add come with their marks.
      if (fetched.matches.size > 0 && !closed) push(view.addSearchMatches(fetched.matches));
      if (!changes.empty) host.emit(changes.freeze());
      else if (!closed) push(view.recheck());
    } catch (e) {
      host.logger.warn('filling a narrow view failed; showing the cache', { error: e instanceof Error ? e.message : String(e) });
      if (isDamageError(e)) host.damaged?.(e);
    }
  };
  void fill();
  return {
    id: `view-${nextId++}`,
    snapshot: view.snapshot(),
    loadOlder: (n) => {
      const cs = view.loadOlder(n);
      push(cs);
      void (cs.added.length < n ? fill({ side: 'older', count: n - cs.added.length }) : fill());
    },
    loadNewer: (n) => {
      const cs = view.loadNewer(n);
      push(cs);
      void (cs.added.length < n ? fill({ side: 'newer', count: n - cs.added.length }) : fill());
    },
    close: () => {
      closed = true;
      off();
    },
  };
}
