/**
 * Telling others we are typing, as Zulip web does (its `typing_status`): the first keystroke for a
 * target sends `start`; further keystrokes send it again once `server_typing_started_wait_period`
 * has passed since the last one; after `server_typing_stopped_wait_period` without a keystroke
 * (when `idleStop` is on: the composer) `stop` goes, as it does at once when the target changes
 * (the old one gets its `stop` first), on `stop()` (send, blur, save, cancel) and on `dispose()`.
 * The periods are the realm's: the engine answers every notice with them (defaults until then).
 *
 * Plain TypeScript with injectable timers (unit-tested without a DOM). Sending never throws into
 * the caller: the engine's typing commands answer `sent: false` when they cannot send.
 */
import type { Timers } from '../core/area-query.js';
import { globalTimers } from '../core/area-query.js';

/** Zulip's defaults, until the engine tells the realm's. */
export const TYPING_STARTED_WAIT_MS = 10_000;
export const TYPING_STOPPED_WAIT_MS = 5_000;

export type TypingOp = 'start' | 'stop';
export interface TypingTiming {
  started_wait_ms: number;
  stopped_wait_ms: number;
}

export interface TypingSenderDeps<T> {
  send(target: T, op: TypingOp): Promise<TypingTiming | undefined>;
  /** Equal keys, same target (a topic folded as the server folds it). */
  keyOf(target: T): string;
  /** Send `stop` after the stopped-wait period without a keystroke (the composer; not the editor). */
  idleStop: boolean;
  timers?: Timers;
  now?: () => number;
}

export interface TypingSender<T> {
  /** A keystroke (or the editor opening) for `target`; null: there is nowhere to type to (stops). */
  typed(target: T | null): void;
  /** Stop now (sent, saved, cancelled, left); nothing when not typing. */
  stop(): void;
  /** Whom we are telling we type, if anyone. */
  current(): T | null;
  dispose(): void;
}

export function createTypingSender<T>(deps: TypingSenderDeps<T>): TypingSender<T> {
  const timers = deps.timers ?? globalTimers;
  const now = deps.now ?? (() => Date.now());
  let timing: TypingTiming = { started_wait_ms: TYPING_STARTED_WAIT_MS, stopped_wait_ms: TYPING_STOPPED_WAIT_MS };
  let target: T | null = null;
  let key: string | null = null;
  let nextStartAt = 0;
  let idle: unknown;

  const send = (to: T, op: TypingOp) =>
    void deps.send(to, op).then(
      (t) => {
        if (t && t.started_wait_ms > 0 && t.stopped_wait_ms > 0) timing = { started_wait_ms: t.started_wait_ms, stopped_wait_ms: t.stopped_wait_ms };
      },
      () => undefined,
    );
  const clearIdle = () => {
    if (idle !== undefined) timers.clear(idle);
    idle = undefined;
  };
  const armIdle = () => {
    clearIdle();
    if (deps.idleStop) idle = timers.set(stop, timing.stopped_wait_ms);
  };
  function stop(): void {
    clearIdle();
    if (target === null) return;
    const was = target;
    target = null;
    key = null;
    send(was, 'stop');
  }
  const start = (to: T, k: string) => {
    target = to;
    key = k;
    nextStartAt = now() + timing.started_wait_ms;
    send(to, 'start');
  };

  return {
    typed(to) {
      if (to === null) return stop();
      const k = deps.keyOf(to);
      if (k !== key) {
        stop();
        start(to, k);
      } else if (now() >= nextStartAt) {
        start(to, k);
      }
      armIdle();
    },
    stop,
    current: () => target,
    dispose: stop,
  };
}

/** "King Hamlet is typing…", "A and B are typing…", "A, B and C are typing…", "Several people are typing…". */
export function typingText(names: readonly string[]): string | null {
  if (names.length === 0) return null;
  if (names.length === 1) return `${names[0]} is typing…`;
  if (names.length > 3) return 'Several people are typing…';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]} are typing…`;
}
