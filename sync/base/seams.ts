/**
 * The engine's small injectable seams (docs/architecture.md rule 12): time, sleeping, randomness and
 * logging. Production uses the real ones; tests pass fakes so backoff, expiry and resume-from-sleep
 * are testable without waiting or flaking.
 */
import { seededRandom as seededPrng } from '../../common/random.js';

export interface Clock {
  /** Milliseconds since the UNIX epoch. */
  now(): number;
}

/** Resolves after `ms`, or rejects with `SleepAborted` as soon as `signal` fires. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Uniform in [0, 1). */
export type Random = () => number;

export interface EngineLogger {
  info(message: string, data?: Readonly<Record<string, unknown>>): void;
  warn(message: string, data?: Readonly<Record<string, unknown>>): void;
  error(message: string, data?: Readonly<Record<string, unknown>>): void;
}

export interface Seams {
  readonly clock: Clock;
  readonly sleep: Sleep;
  readonly random: Random;
  readonly logger: EngineLogger;
}

export class SleepAborted extends Error {
  override readonly name = 'SleepAborted';
  constructor() {
    super('sleep aborted');
  }
}

export const systemClock: Clock = { now: () => Date.now() };

/** The largest delay `setTimeout` honours (2^31 - 1 ms, about 24.8 days); beyond it fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A delay any timer can take: NaN and negatives are 0, fractions are kept, Infinity stays Infinity
 * (callers that chain timers, like `realSleep`, wait for ever; `setTimeout` itself must never see it).
 */
export function sanitizeDelayMs(ms: number): number {
  return Number.isNaN(ms) || ms <= 0 ? 0 : ms;
}

/**
 * Safe for any value: NaN or negative waits 0; beyond 2^31 - 1 ms (where `setTimeout` would fire
 * at once, and a retry loop would spin) the wait is chained in chunks, so it really lasts that
 * long; Infinity waits until aborted.
 */
export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new SleepAborted());
      return;
    }
    let left = sanitizeDelayMs(ms);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => {
      clearTimeout(timer);
      reject(new SleepAborted());
    };
    const step = () => {
      if (left <= 0) {
        signal?.removeEventListener('abort', onAbort);
        resolve();
        return;
      }
      const chunk = Math.min(left, MAX_TIMER_MS);
      left -= chunk;
      timer = setTimeout(step, chunk);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const first = Math.min(left, MAX_TIMER_MS);
    left -= first;
    timer = setTimeout(step, first);
  });

export const silentEngineLogger: EngineLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

export const consoleEngineLogger: EngineLogger = {
  info: (m, d) => console.info(`[engine] ${m}`, d ?? ''),
  warn: (m, d) => console.warn(`[engine] ${m}`, d ?? ''),
  error: (m, d) => console.error(`[engine] ${m}`, d ?? ''),
};

export const defaultSeams: Seams = { clock: systemClock, sleep: realSleep, random: Math.random, logger: consoleEngineLogger };

/** Deterministic PRNG (mulberry32) for seeded tests and scenarios. */
export const seededRandom: (seed: number) => Random = seededPrng;

/**
 * Detects resume from sleep: a timer that should fire every `periodMs` notices the wall clock
 * jumped much further (the machine was suspended, timers did not run) and calls `onJump`. The
 * engine then aborts the stalled long-poll, whose TCP connection is probably dead.
 */
export function watchClockJumps(clock: Clock, onJump: (gapMs: number) => void, periodMs = 5_000, slackMs = 10_000): () => void {
  let last = clock.now();
  const timer = setInterval(() => {
    const now = clock.now();
    const gap = now - last;
    last = now;
    if (gap > periodMs + slackMs) onJump(gap);
  }, periodMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
