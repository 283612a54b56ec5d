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
import { ChangeCollector, type StoreChanges } from './changes.js';
import { fetchNarrowPage } from './narrow/fetcher.js';
import { LiveNarrowView } from './narrow/view.js';
import type { EngineLogger } from './seams.js';

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
  const fill = async () => {
    const s = view.snapshot();
    if ((s.before.complete && s.after.complete) || !host.online()) return;
    try {
      const changes = new ChangeCollector();
      await fetchNarrowPage(host.db, req.narrow, page, { conn: host.conn, selfUserId: host.selfUserId, changes });
      if (!changes.empty) host.emit(changes.freeze());
      else if (!closed) push(view.recheck());
    } catch (e) {
      host.logger.warn('filling a narrow view failed; showing the cache', { error: e instanceof Error ? e.message : String(e) });
    }
  };
  void fill();
  return {
    id: `view-${nextId++}`,
    snapshot: view.snapshot(),
    loadOlder: (n) => {
      push(view.loadOlder(n));
      void fill();
    },
    loadNewer: (n) => {
      push(view.loadNewer(n));
      void fill();
    },
    close: () => {
      closed = true;
      off();
    },
  };
}
