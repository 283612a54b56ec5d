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
  /** Fold bursts of events into one fetch this many ms after the first (default: fetch at once). */
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
}

export const globalTimers: Timers = {
  set: (f, ms) => globalThis.setTimeout(f, ms),
  clear: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
};

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

  const refresh = singleFlight(async () => {
    if (disposed) return;
    let value: T;
    try {
      value = await spec.fetch();
    } catch (e) {
      if (!disposed) spec.onError(e);
      return;
    }
    if (!disposed) spec.onData(value);
  });

  const soon = () => {
    const ms = spec.debounceMs ?? 0;
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
