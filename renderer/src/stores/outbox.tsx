/**
 * Outbox: the badge counts and the unfinished rows (whose kind tells a message being sent from one
 * being edited), refetched (coalesced: one request in flight, one more queued at most) when the
 * engine touches the `outbox` area, when the account changes and when the host comes back; plus the
 * user's actions on a row (retry, discard, resolve a conflict: keep mine, take theirs or a merge).
 */
import { createContext, createMemo, onCleanup, useContext, type JSX } from 'solid-js';
import { createStore, reconcile } from 'solid-js/store';
import type { OutboxCounts, OutboxRowView } from '../../../sync/protocol/outbox.js';
import { bridge as defaultBridge, type Bridge } from '../bridge.js';
import { kindsById } from '../outbox-reducer.js';
import { singleFlight } from '../single-flight.js';

interface State {
  counts: OutboxCounts | null;
  rows: OutboxRowView[];
  /** The user's own text of a conflicting edit they resolved by taking theirs, by message id. */
  drafts: Record<number, string | undefined>;
}

export interface OutboxStore {
  readonly state: State;
  /** Row kind by outbox id (rows the list holds). */
  kinds(): ReadonlyMap<number, string>;
  refresh(): Promise<void>;
  retry(outboxId: number): Promise<void>;
  discard(outboxId: number): Promise<void>;
  /** Taking theirs keeps the user's own text as a draft of `messageId` (the marker goes away). */
  resolve(outboxId: number, choice: 'keep_mine' | 'take_theirs', messageId: number): Promise<void>;
  /** Settle a conflict with a text the user merged from both versions (sent as the edit). */
  merge(outboxId: number, text: string): Promise<void>;
  dismissDraft(messageId: number): void;
  dispose(): void;
}

export function createOutboxStore(bridge: Bridge): OutboxStore {
  const [state, setState] = createStore<State>({ counts: null, rows: [], drafts: {} });

  const fetchOnce = async () => {
    try {
      const [counts, rows] = await Promise.all([bridge.invoke('outboxCounts', {}), bridge.invoke('outbox', {})]);
      setState('counts', counts);
      setState('rows', reconcile(rows, { key: 'outbox_id' }));
    } catch {
      // No account yet, or the host is away: no badge rather than a stale one.
      setState({ counts: null, rows: [] });
    }
  };

  const refresh = singleFlight(fetchOnce);

  const offEvents = bridge.subscribe((e) => {
    if (e.type === 'areas' && (e.areas.includes('outbox') || e.areas.includes('accounts'))) void refresh();
  });
  const offConn = bridge.onConnection((s) => {
    if (s === 'up') void refresh();
  });
  void refresh();

  const kinds = createMemo(() => kindsById(state.rows));
  return {
    state,
    kinds,
    refresh,
    retry: async (id) => void (await bridge.invoke('outboxRetry', { outbox_id: id })),
    discard: async (id) => void (await bridge.invoke('outboxDiscard', { outbox_id: id })),
    resolve: async (id, choice, messageId) => {
      const { draft } = await bridge.invoke('outboxResolveConflict', { outbox_id: id, choice: { choice } });
      if (draft !== null) setState('drafts', messageId, draft);
    },
    merge: async (id, text) => void (await bridge.invoke('outboxResolveConflict', { outbox_id: id, choice: { choice: 'edited', text } })),
    dismissDraft: (messageId) => setState('drafts', messageId, undefined),
    dispose: () => {
      offEvents();
      offConn();
    },
  };
}

const Ctx = createContext<OutboxStore>();

export function OutboxProvider(props: { bridge?: Bridge; children: JSX.Element }) {
  const store = createOutboxStore(props.bridge ?? defaultBridge);
  onCleanup(store.dispose);
  return <Ctx.Provider value={store}>{props.children}</Ctx.Provider>;
}

export function useOutbox(): OutboxStore {
  const s = useContext(Ctx);
  if (!s) throw new Error('useOutbox() used outside <OutboxProvider>');
  return s;
}
