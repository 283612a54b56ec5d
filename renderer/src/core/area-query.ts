/**
 * The skeleton every engine-backed store used to repeat, once: fetch at start; fetch again when
 * the engine says an area the query reads changed (`accounts` always counts: another account may
 * be open now), when another event says so (`when`), and when the host connection comes back;
 * one fetch in flight at a time with the calls meanwhile folded into one more (`singleFlight`);
 * bursts of events optionally debounced; nothing heard or applied after `dispose`.
 *
 * `startAreaQuery` is plain TypeScript (unit-tested with a fake bridge and fake timers);
 * `createAreaQuery` (area-query-store.ts) wraps it in a Solid store of `{ data, loaded, error }`.
 */
import type { EventArea } from '../../../sync/protocol/areas.js';
import type { EngineEvent } from '../../../sync/protocol/commands.js';
import type { Bridge } from './bridge.js';
import { singleFlight } from './single-flight.js';

export interface AreaQuerySpec<T> {
  /** Ask the engine (one or more queries). */
  fetch(): Promise<T>;
  /** Areas (engine `areas` events) whose change refetches. */
  areas: readonly EventArea[];
  /** Other engine events that refetch (a status turning live, a view adding messages, ...). */
  when?(e: EngineEvent): boolean;
  /**
   * Fold bursts of events into one fetch this many ms after the first (default: fetch at once).
   * Longer when applying an answer is slow: at least APPLY_SHARE times what the last one took on
   * the page's thread (at most MAX_WAIT_MS), so a large organisation's channel list (50,000
   * topics, ~60 ms to apply) refreshes while its backfill runs without taking every other frame.
   */
  debounceMs?: number;
  onData(value: T): void;
  /** When to make the first fetch (default: at once), e.g. once the frame being prepared is painted. */
  start?(fetch: () => void): void;
  /** The fetch failed (no account open yet, the host away, a refusal): keep or clear what is shown. */
  onError(e: unknown): void;
}

export interface Timers {
  set(f: () => void, ms: number): unknown;
  clear(handle: unknown): void;
  /** A clock in ms (how long applying an answer took). */
  now(): number;
}

export const globalTimers: Timers = {
  set: (f, ms) => globalThis.setTimeout(f, ms),
  clear: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
  now: () => performance.now(),
};

/** A debounced query waits at least this many times its last answer's apply time (debounceMs). */
export const APPLY_SHARE = 10;
/** ... and never longer than this. */
export const MAX_WAIT_MS = 2_000;

export interface AreaQuery {
  /** Fetch now (folded into a fetch already running); resolves when the data is applied. */
  refresh(): Promise<void>;
  dispose(): void;
}

/** Whether `e` names one of `areas` (or `accounts`). */
export function touchesAreas(e: EngineEvent, areas: readonly EventArea[]): boolean {
  return e.type === 'areas' && e.areas.some((a) => a === 'accounts' || areas.some((x) => x === a));
}

export function startAreaQuery<T>(bridge: Pick<Bridge, 'subscribe' | 'onConnection'>, spec: AreaQuerySpec<T>, timers: Timers = globalTimers): AreaQuery {
  let disposed = false;
  let timer: unknown;
  let applyMs = 0;

  const refresh = singleFlight(async () => {
    if (disposed) return;
    let value: T;
    try {
      value = await spec.fetch();
    } catch (e) {
      if (!disposed) spec.onError(e);
      return;
    }
    if (disposed) return;
    const t0 = timers.now();
    spec.onData(value);
    applyMs = timers.now() - t0;
  });

  const soon = () => {
    const debounce = spec.debounceMs ?? 0;
    const ms = debounce <= 0 ? 0 : Math.max(debounce, Math.min(MAX_WAIT_MS, APPLY_SHARE * applyMs));
    if (ms <= 0) {
      void refresh();
      return;
    }
    if (timer !== undefined) return;
    timer = timers.set(() => {
      timer = undefined;
      void refresh();
    }, ms);
  };

  const offEvents = bridge.subscribe((e) => {
    if (touchesAreas(e, spec.areas) || spec.when?.(e) === true) soon();
  });
  const offConn = bridge.onConnection((s) => {
    if (s === 'up') soon();
  });
  (spec.start ?? ((f) => f()))(() => void refresh());

  return {
    refresh,
    dispose() {
      disposed = true;
      offEvents();
      offConn();
      if (timer !== undefined) timers.clear(timer);
      timer = undefined;
    },
  };
}
