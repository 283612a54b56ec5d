/**
 * `createAreaQuery`: an engine query kept current (see area-query.ts) as a Solid store of
 * `{ data, loaded, error }`. Arrays are reconciled by `key`, so a refetch that changes one row
 * re-renders that row only.
 */
import { batch, createSignal, onCleanup, type Accessor } from 'solid-js';
import { createStore, reconcile, unwrap } from 'solid-js/store';
import type { EventArea } from '../../../sync/protocol/areas.js';
import type { EngineEvent } from '../../../sync/protocol/commands.js';
import type { Bridge } from './bridge.js';
import { startAreaQuery, type Timers } from './area-query.js';
import { errorText } from './errors.js';

export interface AreaQueryState<T> {
  readonly data: T;
  /** A fetch has succeeded at least once. */
  readonly loaded: boolean;
  /** The last fetch's error as a sentence; null after a success. */
  readonly error: string | null;
}

export interface AreaQueryOptions<T> {
  fetch(): Promise<T>;
  areas: readonly EventArea[];
  when?(e: EngineEvent): boolean;
  debounceMs?: number;
  /** What `data` holds before the first answer (and after a failure with `onError: 'reset'`). */
  initial: T;
  /** Row identity for `reconcile` when `data` is (or holds) arrays of objects. */
  key?: string;
  /** On a failed fetch: keep what was shown (default) or go back to `initial`. */
  onError?: 'keep' | 'reset';
  /** When to make the first fetch (default: at once). */
  start?(fetch: () => void): void;
  timers?: Timers;
}

export interface AreaQueryStore<T> {
  readonly state: AreaQueryState<T>;
  /**
   * `state.data` as plain objects (the store's own, unwrapped), tracked as a whole: it reports a
   * change on every answer. For derivations over all of it (the Inbox over every topic of a large
   * organisation), which then read it without a store's per-property tracking (50,000 topics read
   * through the store's proxies cost the Inbox tens of milliseconds per answer). Read it in a
   * derivation that runs again on the change, never keep its objects: the next answer is written
   * into them.
   */
  readonly plain: Accessor<T>;
  refresh(): Promise<void>;
  dispose(): void;
}

export function createAreaQuery<T>(bridge: Pick<Bridge, 'subscribe' | 'onConnection'>, opts: AreaQueryOptions<T>): AreaQueryStore<T> {
  const [state, setState] = createStore<{ data: T; loaded: boolean; error: string | null }>({ data: opts.initial, loaded: false, error: null });
  const [answered, setAnswered] = createSignal(0);
  const plain = (): T => {
    answered();
    return unwrap(state.data);
  };
  const q = startAreaQuery<T>(
    bridge,
    {
      fetch: opts.fetch,
      areas: opts.areas,
      when: opts.when,
      debounceMs: opts.debounceMs,
      start: opts.start,
      onData: (value) =>
        batch(() => {
          setState('data', reconcile(value, { key: opts.key ?? 'id', merge: false }));
          setAnswered((n) => n + 1);
          setState({ loaded: true, error: null });
        }),
      onError: (e) =>
        batch(() => {
          if (opts.onError === 'reset') {
            setState('data', reconcile(opts.initial, { merge: false }));
            setAnswered((n) => n + 1);
          }
          setState('error', errorText(e));
        }),
    },
    opts.timers,
  );
  return { state, plain, refresh: q.refresh, dispose: q.dispose };
}

/** The engine event saying the sync is live (the first sync done, or back after a gap): queries that could not answer before ask again. */
export const turnedLive = (e: EngineEvent): boolean => e.type === 'status' && e.status.state === 'live';

/** `createAreaQuery` for as long as the calling component lives: its state. */
export function useAreaQuery<T>(bridge: Pick<Bridge, 'subscribe' | 'onConnection'>, opts: AreaQueryOptions<T>): AreaQueryState<T> {
  const q = createAreaQuery(bridge, opts);
  onCleanup(q.dispose);
  return q.state;
}

/**
 * `useAreaQuery` for a query the engine answers from its cache: asked again when the sync turns
 * live (it may not have answered before the first sync), and a failed refetch keeps what was shown.
 */
export function useLiveQuery<T>(
  bridge: Pick<Bridge, 'subscribe' | 'onConnection'>,
  opts: Pick<AreaQueryOptions<T>, 'fetch' | 'areas' | 'initial' | 'key'>,
): AreaQueryState<T> {
  return useAreaQuery(bridge, { ...opts, when: turnedLive, onError: 'keep' });
}
