/**
 * Outbox: the badge counts and the unfinished rows (whose kind tells a message being sent from one
 * being edited), kept current by `createAreaQuery` (the `outbox` area, the account, the host coming
 * back); plus the user's actions on a row (retry, discard, resolve a conflict: keep mine, take
 * theirs or a merge), and the progress of uploads being sent (pushed `upload_progress` events).
 */
import { createMemo } from 'solid-js';
import { createStore } from 'solid-js/store';
import type { OutboxRowOf } from '../../../sync/outbox/registry.js';
import type { OutboxCounts } from '../../../sync/protocol/outbox.js';
import { createAreaQuery } from '../core/area-query-store.js';
import type { Bridge } from '../core/bridge.js';
import { kindsById } from './outbox-reducer.js';
import { storeContext } from './store-context.js';
import { createUploadProgress } from './upload-progress.js';

interface State {
  readonly counts: OutboxCounts | null;
  readonly rows: readonly OutboxRowOf[];
  /** The user's own text of a conflicting edit they resolved by taking theirs, by message id. */
  readonly drafts: Readonly<Record<number, string | undefined>>;
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
  /** How far a queued upload's request went (the engine's `upload_progress`), while it is sent. */
  uploadProgress(uploadId: number): { sent: number; total: number } | undefined;
  dispose(): void;
}

export function createOutboxStore(bridge: Bridge): OutboxStore {
  const q = createAreaQuery<{ counts: OutboxCounts | null; rows: OutboxRowOf[] }>(bridge, {
    fetch: async () => {
      const [counts, rows] = await Promise.all([bridge.invoke('outboxCounts', {}), bridge.invoke('outbox', {})]);
      return { counts, rows };
    },
    areas: ['outbox'],
    initial: { counts: null, rows: [] },
    key: 'outbox_id',
    // No account yet, or the host is away: no badge rather than a stale one.
    onError: 'reset',
  });
  const [drafts, setDrafts] = createStore<Record<number, string | undefined>>({});
  const progress = createUploadProgress(bridge);
  const state: State = {
    get counts() {
      return q.state.data.counts;
    },
    get rows() {
      return q.state.data.rows;
    },
    drafts,
  };

  const kinds = createMemo(() => kindsById(q.state.data.rows));
  return {
    state,
    kinds,
    refresh: q.refresh,
    retry: async (id) => void (await bridge.invoke('outboxRetry', { outbox_id: id })),
    discard: async (id) => void (await bridge.invoke('outboxDiscard', { outbox_id: id })),
    resolve: async (id, choice, messageId) => {
      const { draft } = await bridge.invoke('outboxResolveConflict', { outbox_id: id, choice: { choice } });
      if (draft !== null) setDrafts(messageId, draft);
    },
    merge: async (id, text) => void (await bridge.invoke('outboxResolveConflict', { outbox_id: id, choice: { choice: 'edited', text } })),
    dismissDraft: (messageId) => setDrafts(messageId, undefined),
    uploadProgress: progress.get,
    dispose: () => {
      progress.dispose();
      q.dispose();
    },
  };
}

const ctx = storeContext('Outbox', (bridge) => createOutboxStore(bridge));
export const OutboxProvider = ctx.Provider;
export const useOutbox = ctx.use;
