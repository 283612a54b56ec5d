/**
 * Property: every status the engine can produce is valid under the contract (`sessionStatus`),
 * whatever the sequence of answers and failures, the jitter draws, the clock and the options.
 * The renderer drops a frame that does not parse (a fractional `nextRetryAt` once froze the header
 * on "Live" from the 5th failure on), so this is checked over random runs of the real poller,
 * composed with random sync progress and outbox drains the way the session composes them.
 * Hand-rolled generator, seeded (FAULT_SEED-style replay: STATUS_SEED=N), bounded iterations.
 */
import { describe, expect, it } from 'vitest';
import {
  MalformedResponseError,
  NetworkError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
  ZulipApiError,
  type ZulipEvent,
} from '../../../sync/api/index.js';
import { EventApplyError, EventPoller, type PollerActions, type PollerStatus, type QueuePosition } from '../../../sync/engine/poller.js';
import { seededRandom, SleepAborted, type Random, type Seams } from '../../../sync/base/seams.js';
import { composeStatus } from '../../../sync/engine/session.js';
import { sessionStatus, type SyncProgress } from '../../../sync/protocol/status.js';

const ctx = { method: 'GET', path: '/events' };
const RUNS = 300;
const STEPS = 40;

function pick<T>(r: Random, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

/** Awkward numbers: fractions, zero, huge, beyond setTimeout's range. */
function awkward(r: Random): number {
  return pick(r, [0, 0.4, 1, 10.5, 999.999, 45_000, 86_400_000, 1e8 * 1000, 2 ** 31, Number.MAX_SAFE_INTEGER / 7, r() * 1e6]);
}

function randomError(r: Random): Error {
  switch (Math.floor(r() * 9)) {
    case 0:
      return new NetworkError(ctx, Object.assign(new Error('reset'), { code: 'ECONNRESET' }));
    case 1:
      return new TimeoutError(ctx, awkward(r));
    case 2:
      return new ServerError(ctx, pick(r, [500, 502, 503, 504]), undefined, undefined, '<html>');
    case 3:
      return new RateLimitedError(ctx, 429, r() < 0.2 ? undefined : awkward(r), undefined, 'slow down');
    case 4:
      return new ZulipApiError(ctx, 400, 'BAD_EVENT_QUEUE_ID', 'Bad event queue ID', undefined, {});
    case 5:
      return new ZulipApiError(ctx, 400, 'BAD_REQUEST', 'nope', undefined, {});
    case 6:
      return new MalformedResponseError(ctx, 200, ['events: Required'], '{}');
    case 7:
      return new Error('not an ApiError at all');
    default:
      return r() < 0.3 ? new UnauthorizedError(ctx, 401, 'INVALID_API_KEY', 'Invalid API key', undefined) : new NetworkError(ctx, new Error('x'));
  }
}

type Step = { kind: 'events'; n: number } | { kind: 'fail'; error: Error } | { kind: 'apply_fail' };

class RandomApi implements PollerActions {
  steps = 0;
  private q = 0;
  constructor(
    private readonly r: Random,
    private readonly onEnd: () => void,
  ) {}
  private next(): Step | undefined {
    if (++this.steps > STEPS) return undefined;
    const x = this.r();
    if (x < 0.45) return { kind: 'events', n: Math.floor(this.r() * 3) };
    if (x < 0.55) return { kind: 'apply_fail' };
    return { kind: 'fail', error: randomError(this.r) };
  }
  register(_reason: string, signal: AbortSignal): Promise<QueuePosition> {
    const s = this.next();
    if (s === undefined) return this.hang(signal);
    if (s.kind === 'fail') return Promise.reject(s.error);
    return Promise.resolve({ queue_id: `q${++this.q}`, last_event_id: -1 });
  }
  getEvents(pos: QueuePosition, _dontBlock: boolean, signal: AbortSignal): Promise<readonly ZulipEvent[]> {
    const s = this.next();
    if (s === undefined) return this.hang(signal);
    if (s.kind === 'fail') return Promise.reject(s.error);
    const batch: ZulipEvent[] = Array.from({ length: s.kind === 'apply_fail' ? 1 : s.n }, (_, i) => ({ type: 'heartbeat', id: pos.last_event_id + 1 + i }));
    if (s.kind === 'apply_fail') this.failing.add(batch);
    return Promise.resolve(batch);
  }
  /** Batches whose apply throws (the transaction rolled back). */
  private readonly failing = new WeakSet<readonly ZulipEvent[]>();
  /** Half the runs probe a 401 (confirmed, not, or no answer); the others stop at once. */
  confirmUnauthorized?: () => Promise<boolean | undefined>;
  apply(events: readonly ZulipEvent[]): void {
    if (this.failing.has(events)) throw new EventApplyError(events[0], new Error('constraint failed'));
  }
  private hang(signal: AbortSignal): Promise<never> {
    this.onEnd();
    return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new SleepAborted()), { once: true }));
  }
}

function randomProgress(r: Random): SyncProgress | undefined {
  if (r() < 0.5) return undefined;
  const done = Math.floor(r() * 5000);
  return { phase: pick(r, ['register', 'history', 'gap', 'refresh'] as const), done, total: r() < 0.3 ? null : done + Math.floor(r() * 5000) };
}

function randomDrain(r: Random): { done: number; total: number } | undefined {
  if (r() < 0.5) return undefined;
  const done = Math.floor(r() * 100);
  return { done, total: done + Math.floor(r() * 100) };
}

describe('every status the engine emits parses under the contract', () => {
  it(`over ${RUNS} random runs of the poller, composed with random progress and drains`, async () => {
    const seed = Number(process.env['STATUS_SEED'] ?? 20260601);
    const r = seededRandom(seed);
    let checked = 0;
    const seen = new Set<string>();
    for (let run = 0; run < RUNS; run++) {
      // A clock with a fractional start and fractional sleeps, as a monotonic-time-based clock has.
      let t = 1_700_000_000_000 + r() * 1000;
      const seams: Seams = {
        clock: { now: () => t },
        sleep: (ms, signal) => {
          if (signal?.aborted) return Promise.reject(new SleepAborted());
          t += Number.isFinite(ms) && ms > 0 ? Math.min(ms, 1e12) : 0;
          return Promise.resolve();
        },
        random: () => r(),
        logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
      };
      const statuses: PollerStatus[] = [];
      let end: () => void = () => undefined;
      const ended = new Promise<void>((resolve) => (end = resolve));
      const api = new RandomApi(r, end);
      if (r() < 0.5) api.confirmUnauthorized = () => Promise.resolve(pick(r, [true, false, undefined]));
      const resumeFrom = r() < 0.5 ? { queue_id: 'stored', last_event_id: Math.floor(r() * 100) } : undefined;
      const poller = new EventPoller(
        api,
        { failuresBeforeStatus: 1 + Math.floor(r() * 6), maxBackoffSeconds: pick(r, [90, 60, 1, 0.5]), resumeFrom, onStatus: (s) => statuses.push(s) },
        seams,
      );
      poller.start();
      await Promise.race([ended, poller.done()]);
      await poller.stop();
      for (const s of statuses) {
        const composed = composeStatus(s, randomProgress(r), randomDrain(r));
        for (const candidate of [s, composed]) {
          const parsed = sessionStatus.safeParse(candidate);
          expect(parsed.success, `seed ${seed} run ${run}: ${JSON.stringify(candidate)} ${parsed.error?.message ?? ''}`).toBe(true);
          checked++;
          seen.add(candidate.state);
        }
      }
    }
    // The generator reached every state the poller and the session can produce.
    expect([...seen].sort()).toEqual(['connecting', 'error', 'live', 'offline', 'stopped', 'syncing', 'unauthorized']);
    expect(checked).toBeGreaterThan(RUNS * 4);
  });
});
