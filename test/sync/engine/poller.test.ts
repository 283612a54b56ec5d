/**
 * Every transition of the event-stream policy with a fake clock, a fake sleep (records the delay,
 * returns at once unless held) and a scripted fake API.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  NetworkError,
  RateLimitedError,
  ServerError,
  UnauthorizedError,
  ZulipApiError,
  type ZulipEvent,
} from '../../../sync/api/index.js';
import {
  backoffMs,
  EventApplyError,
  EventPoller,
  retryDelayMs,
  type PollerActions,
  type PollerStatus,
  type QueuePosition,
  type RegisterReason,
} from '../../../sync/engine/poller.js';
import { SleepAborted, watchClockJumps, type Seams } from '../../../sync/base/seams.js';
import { sessionStatus } from '../../../sync/protocol/status.js';

const ctx = { method: 'GET', path: '/events' };
const network = () => new NetworkError(ctx, new Error('ECONNREFUSED'));
const badQueue = (id: string) => new ZulipApiError(ctx, 400, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${id}`, undefined, { queue_id: id });
const heartbeat = (id: number): ZulipEvent => ({ type: 'heartbeat', id });

type Step = readonly ZulipEvent[] | Error | 'hang';

/** A scripted API: each getEvents call takes the next step; `hang` waits until aborted. */
class FakeApi implements PollerActions {
  registers: RegisterReason[] = [];
  polls: Array<{ pos: QueuePosition; dontBlock: boolean }> = [];
  applied: Array<{ events: readonly ZulipEvent[]; next: QueuePosition }> = [];
  registerFailures: Error[] = [];
  applyFailure: Error | undefined;
  private n = 0;
  onIdle: (() => void) | undefined;
  constructor(private readonly steps: Step[]) {}

  async register(reason: RegisterReason): Promise<QueuePosition> {
    this.registers.push(reason);
    const f = this.registerFailures.shift();
    if (f) throw f;
    return { queue_id: `q${++this.n}`, last_event_id: -1 };
  }
  getEvents(pos: QueuePosition, dontBlock: boolean, signal: AbortSignal): Promise<readonly ZulipEvent[]> {
    this.polls.push({ pos, dontBlock });
    const step = this.steps.shift();
    if (step === undefined || step === 'hang') {
      if (step === undefined) this.onIdle?.();
      return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
    }
    if (step instanceof Error) return Promise.reject(step);
    return Promise.resolve(step);
  }
  apply(events: readonly ZulipEvent[], next: QueuePosition): void {
    if (this.applyFailure) {
      const f = this.applyFailure;
      this.applyFailure = undefined;
      throw new EventApplyError(events[0], f);
    }
    this.applied.push({ events, next });
  }
}

function fakeSeams(): Seams & { delays: number[]; logs: Array<{ level: string; message: string; data: unknown }>; t: number } {
  const s = {
    t: 1_000_000,
    delays: [] as number[],
    logs: [] as Array<{ level: string; message: string; data: unknown }>,
    clock: { now: () => s.t },
    sleep: (ms: number, signal?: AbortSignal) => {
      s.delays.push(ms);
      if (signal?.aborted) return Promise.reject(new SleepAborted());
      s.t += ms;
      return Promise.resolve();
    },
    random: () => 0.5,
    logger: {
      info: (message: string, data?: unknown) => s.logs.push({ level: 'info', message, data }),
      warn: (message: string, data?: unknown) => s.logs.push({ level: 'warn', message, data }),
      error: (message: string, data?: unknown) => s.logs.push({ level: 'error', message, data }),
    },
  };
  return s;
}

/** Run until the fake API has no more steps (the poller then hangs in a poll), then stop. */
async function runToIdle(api: FakeApi, poller: EventPoller): Promise<void> {
  const idle = new Promise<void>((resolve) => (api.onIdle = resolve));
  poller.start();
  await Promise.race([idle, poller.done()]);
  await poller.stop();
}

describe('backoff', () => {
  it('is min(2^((n+1)/2), 90) * U(0.5, 1) seconds', () => {
    for (let n = 1; n <= 20; n++) {
      const scale = Math.min(2 ** ((n + 1) / 2), 90) * 1000;
      expect(backoffMs(n, () => 0)).toBeCloseTo(scale * 0.5);
      expect(backoffMs(n, () => 0.999999)).toBeCloseTo(scale, -1);
    }
    expect(backoffMs(1, () => 0)).toBe(1000);
    expect(backoffMs(30, () => 0.999999)).toBeLessThanOrEqual(90_000);
  });
  it('waits at least Retry-After on 429', () => {
    const e = new RateLimitedError(ctx, 429, 30_500, undefined, 'slow down');
    expect(retryDelayMs(e, 1, () => 0)).toBe(30_500);
    expect(retryDelayMs(new RateLimitedError(ctx, 429, 10, undefined, ''), 1, () => 0)).toBe(1000);
  });
});

describe('EventPoller', () => {
  it('registers, polls, applies each batch with the new position, and is live', async () => {
    const api = new FakeApi([[heartbeat(0)], [heartbeat(1), heartbeat(4)]]);
    const seams = fakeSeams();
    const statuses: PollerStatus[] = [];
    const poller = new EventPoller(api, { onStatus: (s) => statuses.push(s) }, seams);
    await runToIdle(api, poller);
    expect(api.registers).toEqual(['initial']);
    expect(api.applied.map((a) => a.next)).toEqual([
      { queue_id: 'q1', last_event_id: 0 },
      { queue_id: 'q1', last_event_id: 4 },
    ]);
    // The first poll on a new queue answers at once: `live` waits for a poll, not a long-poll period.
    expect(api.polls.map((p) => p.dontBlock)).toEqual([true, false, false]);
    expect(statuses.map((s) => s.state)).toEqual(['connecting', 'live', 'stopped']);
  });

  it('resumes a stored queue with a non-blocking first poll', async () => {
    const api = new FakeApi([[heartbeat(8)]]);
    const poller = new EventPoller(api, { resumeFrom: { queue_id: 'old', last_event_id: 7 } }, fakeSeams());
    await runToIdle(api, poller);
    expect(api.registers).toEqual([]);
    expect(api.polls[0]).toEqual({ pos: { queue_id: 'old', last_event_id: 7 }, dontBlock: true });
    expect(api.polls[1]!.dontBlock).toBe(false);
    expect(api.applied[0]!.next).toEqual({ queue_id: 'old', last_event_id: 8 });
  });

  it('BAD_EVENT_QUEUE_ID: re-registers at once (reason expired), no backoff', async () => {
    const api = new FakeApi([badQueue('old'), [heartbeat(0)]]);
    const seams = fakeSeams();
    const poller = new EventPoller(api, { resumeFrom: { queue_id: 'old', last_event_id: 3 } }, seams);
    await runToIdle(api, poller);
    expect(api.registers).toEqual(['expired']);
    expect(seams.delays).toEqual([]);
    expect(api.applied[0]!.next.queue_id).toBe('q1');
  });

  it('BAD_EVENT_QUEUE_ID forever: the first re-register is immediate, later ones back off (bounded registers in 60 s)', async () => {
    const seams = fakeSeams();
    const start = seams.t;
    const statuses: PollerStatus[] = [];
    let registers = 0;
    const ref: { poller?: EventPoller } = {};
    const api: PollerActions = {
      register: async () => {
        registers++;
        // 60 s of (fake) time, or a runaway loop: stop either way.
        if (seams.t - start > 60_000 || registers > 1000) void ref.poller?.stop();
        return { queue_id: `q${registers}`, last_event_id: -1 };
      },
      getEvents: async (pos) => Promise.reject(badQueue(pos.queue_id)),
      apply: () => undefined,
    };
    const poller = new EventPoller(api, { resumeFrom: { queue_id: 'old', last_event_id: 1 }, onStatus: (st) => statuses.push(st) }, seams);
    ref.poller = poller;
    poller.start();
    await poller.done();
    // Backoff 1.5, 2.1, 3, 4.2, 6, 8.5, 12, 17, 24 s (random 0.5): 10 registers reach past 60 s.
    expect(registers).toBeLessThanOrEqual(11);
    expect(seams.delays[0]).toBe(1500);
    expect(seams.delays.length).toBe(registers - 1);
    const err = statuses.find((st) => st.state === 'error');
    expect(err).toMatchObject({ state: 'error', failures: 1, cause: 'api', error: expect.stringContaining('BAD_EVENT_QUEUE_ID') });
  });

  it('BAD_EVENT_QUEUE_ID after a successful poll is immediate again', async () => {
    const api = new FakeApi([badQueue('old'), badQueue('q1'), [heartbeat(0)], badQueue('q2'), [heartbeat(0)]]);
    const seams = fakeSeams();
    await runToIdle(api, new EventPoller(api, { resumeFrom: { queue_id: 'old', last_event_id: 3 } }, seams));
    expect(api.registers).toEqual(['expired', 'expired', 'expired']);
    // Only the second in a row waited: the third followed a successful poll.
    expect(seams.delays).toEqual([1500]);
  });

  it('transient errors back off with growing delays, reset after a success; status offline only from the threshold', async () => {
    const api = new FakeApi([network(), network(), new ServerError(ctx, 502, undefined, undefined, ''), [heartbeat(0)], network()]);
    const seams = fakeSeams();
    const statuses: PollerStatus[] = [];
    const poller = new EventPoller(api, { failuresBeforeStatus: 3, onStatus: (s) => statuses.push(s) }, seams);
    await runToIdle(api, poller);
    // random() = 0.5 -> factor 0.75 of the scale 2^((n+1)/2).
    expect(seams.delays).toEqual([2, 2 ** 1.5, 4, 2].map((s) => s * 750));
    const offline = statuses.filter((s) => s.state === 'offline');
    expect(offline).toHaveLength(1);
    expect(offline[0]).toMatchObject({ state: 'offline', failures: 3 });
    if (offline[0]!.state === 'offline') expect(offline[0]!.nextRetryAt).toBeGreaterThan(1_000_000);
    // `live` only once a poll succeeded: the register alone does not vouch for anything.
    expect(statuses.map((s) => s.state)).toEqual(['connecting', 'offline', 'live', 'stopped']);
  });

  it('status: offline at the first failure by default, with an integer next retry time (the contract drops fractions)', async () => {
    const api = new FakeApi([[heartbeat(0)], network(), [heartbeat(1)]]);
    const seams = { ...fakeSeams(), random: () => 0.123456789 }; // a fractional delay
    const statuses: PollerStatus[] = [];
    await runToIdle(api, new EventPoller(api, { onStatus: (s) => statuses.push(s) }, seams));
    expect(statuses.map((s) => s.state)).toEqual(['connecting', 'live', 'offline', 'live', 'stopped']);
    const off = statuses[2]!;
    // The kind of failure travels with the status, so the page can say it in words.
    expect(off).toMatchObject({ state: 'offline', failures: 1, cause: 'network' });
    expect(sessionStatus.safeParse(off).success).toBe(true);
    if (off.state === 'offline') expect(Number.isInteger(off.nextRetryAt)).toBe(true);
  });

  it('after live, an expired queue goes back to connecting and is live again only once a poll succeeds', async () => {
    const api = new FakeApi([[heartbeat(0)], badQueue('q1'), [heartbeat(0)]]);
    const statuses: PollerStatus[] = [];
    await runToIdle(api, new EventPoller(api, { onStatus: (s) => statuses.push(s) }, fakeSeams()));
    expect(api.registers).toEqual(['initial', 'expired']);
    expect(statuses.map((s) => s.state)).toEqual(['connecting', 'live', 'connecting', 'live', 'stopped']);
    expect(api.polls.map((p) => p.dontBlock)).toEqual([true, false, true, false]);
  });

  it('429 waits at least Retry-After', async () => {
    const api = new FakeApi([new RateLimitedError(ctx, 429, 45_000, undefined, ''), [heartbeat(0)]]);
    const seams = fakeSeams();
    await runToIdle(api, new EventPoller(api, {}, seams));
    expect(seams.delays).toEqual([45_000]);
  });

  it('an absurd Retry-After (86400 s, 10^8 s) waits at most 90 s, and the status says what the server asked', async () => {
    for (const asked of [86_400_000, 1e8 * 1000]) {
      const api = new FakeApi([new RateLimitedError(ctx, 429, asked, undefined, ''), [heartbeat(0)]]);
      const seams = fakeSeams();
      const statuses: PollerStatus[] = [];
      await runToIdle(api, new EventPoller(api, { onStatus: (st) => statuses.push(st) }, seams));
      expect(seams.delays).toEqual([90_000]);
      const off = statuses.find((st) => st.state === 'offline');
      expect(off).toMatchObject({ state: 'offline', cause: 'rate_limited', serverAskedRetryAfterMs: asked, nextRetryAt: 1_000_000 + 90_000 });
      expect(sessionStatus.safeParse(off).success).toBe(true);
    }
    // Within the cap: honoured, and nothing extra to say.
    const api = new FakeApi([new RateLimitedError(ctx, 429, 45_000, undefined, ''), [heartbeat(0)]]);
    const statuses: PollerStatus[] = [];
    await runToIdle(api, new EventPoller(api, { onStatus: (st) => statuses.push(st) }, fakeSeams()));
    expect(statuses.find((st) => st.state === 'offline')).not.toHaveProperty('serverAskedRetryAfterMs');
  });

  it('a failure while applying: logs the event, backs off, re-registers (reason resync)', async () => {
    const api = new FakeApi([[heartbeat(0)], [heartbeat(1)]]);
    api.applyFailure = new Error('constraint failed');
    const seams = fakeSeams();
    await runToIdle(api, new EventPoller(api, {}, seams));
    expect(api.registers).toEqual(['initial', 'resync']);
    expect(seams.delays).toHaveLength(1);
    const err = seams.logs.find((l) => l.level === 'error');
    expect(err?.data).toMatchObject({ error: 'constraint failed', event: { type: 'heartbeat', id: 0 } });
    expect(api.applied.map((a) => a.next)).toEqual([{ queue_id: 'q2', last_event_id: 1 }]);
  });

  it('401 stops the loop and reports unauthorized', async () => {
    const api = new FakeApi([new UnauthorizedError(ctx, 401, 'INVALID_API_KEY', 'Invalid API key', undefined)]);
    const statuses: PollerStatus[] = [];
    const poller = new EventPoller(api, { onStatus: (s) => statuses.push(s) }, fakeSeams());
    poller.start();
    await poller.done();
    expect(poller.status.state).toBe('unauthorized');
    await poller.stop();
    expect(poller.status.state).toBe('unauthorized');
    expect(statuses.at(-1)?.state).toBe('unauthorized');
  });

  it('with a probe: a 401 the probe does not confirm is retried; a confirmed one stops', async () => {
    const unauth = () => new UnauthorizedError(ctx, 401, 'UNAUTHORIZED', 'Invalid API key', undefined);
    const answers: Array<boolean | undefined> = [false, undefined, true];
    const api = Object.assign(new FakeApi([[heartbeat(0)], unauth(), [heartbeat(1)], unauth(), unauth(), unauth()]), {
      probes: 0,
      async confirmUnauthorized() {
        this.probes++;
        return answers.shift();
      },
    });
    const seams = fakeSeams();
    const statuses: PollerStatus[] = [];
    const poller = new EventPoller(api, { onStatus: (st) => statuses.push(st) }, seams);
    poller.start();
    await poller.done();
    // works -> retried and live; no answer -> retried; refused again -> stopped.
    expect(api.probes).toBe(3);
    expect(api.applied.map((a) => a.next.last_event_id)).toEqual([0, 1]);
    expect(seams.delays).toHaveLength(3); // a short backoff before each probe
    expect(poller.status.state).toBe('unauthorized');
    expect(statuses.map((st) => st.state)).toEqual(['connecting', 'live', 'error', 'live', 'error', 'error', 'unauthorized']);
  });

  it('credentialsRefused() from outside stops the loop with status unauthorized', async () => {
    const api = new FakeApi(['hang']);
    const poller = new EventPoller(api, {}, fakeSeams());
    poller.start();
    await until(() => api.polls.length === 1);
    poller.credentialsRefused('refused by the server');
    await poller.done();
    expect(poller.status).toEqual({ state: 'unauthorized', error: 'refused by the server' });
    await poller.stop();
    expect(poller.status.state).toBe('unauthorized');
  });

  it('401 at register also stops', async () => {
    const api = new FakeApi([]);
    api.registerFailures.push(new UnauthorizedError(ctx, 401, 'USER_DEACTIVATED', 'deactivated', undefined));
    const poller = new EventPoller(api, {}, fakeSeams());
    poller.start();
    await poller.done();
    expect(poller.status.state).toBe('unauthorized');
  });

  it('register failures back off and retry the register', async () => {
    const api = new FakeApi([[heartbeat(0)]]);
    api.registerFailures.push(network(), network());
    const seams = fakeSeams();
    await runToIdle(api, new EventPoller(api, {}, seams));
    expect(api.registers).toEqual(['initial', 'initial', 'initial']);
    expect(seams.delays).toHaveLength(2);
  });

  it('non-transient errors report error (not offline) at the threshold', async () => {
    const api = new FakeApi([new ZulipApiError(ctx, 400, 'BAD_REQUEST', 'nope', undefined, {}), [heartbeat(0)]]);
    const statuses: PollerStatus[] = [];
    await runToIdle(api, new EventPoller(api, { failuresBeforeStatus: 1, onStatus: (s) => statuses.push(s) }, fakeSeams()));
    expect(statuses.map((s) => s.state)).toContain('error');
  });

  it('nudge aborts a stalled poll and polls again at once, and cuts a backoff short', async () => {
    const api = new FakeApi(['hang', network(), 'hang', [heartbeat(0)]]);
    const seams = fakeSeams();
    let release: (() => void) | undefined;
    // Hold the backoff sleep until aborted, to prove the nudge cuts it.
    const sleep: Seams['sleep'] = (ms, signal) => {
      seams.delays.push(ms);
      return new Promise((_, reject) => {
        release = () => reject(new SleepAborted());
        signal?.addEventListener('abort', () => reject(new SleepAborted()), { once: true });
      });
    };
    const poller = new EventPoller(api, {}, { ...seams, sleep });
    const idle = new Promise<void>((resolve) => (api.onIdle = resolve));
    poller.start();
    await until(() => api.polls.length === 1);
    poller.nudge('resume'); // stalled poll -> poll again
    await until(() => seams.delays.length === 1); // the network error's backoff is running
    poller.nudge('network'); // cut it short
    await until(() => api.polls.length === 3);
    poller.nudge('resume');
    await idle;
    await poller.stop();
    expect(release).toBeDefined();
    expect(api.polls).toHaveLength(5);
    expect(api.applied.map((a) => a.next.last_event_id)).toEqual([0]);
    expect(api.registers).toEqual(['initial']);
  });

  it('stop during a long-poll ends the loop promptly', async () => {
    const api = new FakeApi(['hang']);
    const poller = new EventPoller(api, {}, fakeSeams());
    poller.start();
    await until(() => api.polls.length === 1);
    await poller.stop();
    expect(poller.status.state).toBe('stopped');
  });
});

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !cond(); i++) await new Promise((r) => setTimeout(r, 1));
  if (!cond()) throw new Error('condition not reached');
}

describe('watchClockJumps (resume from sleep)', () => {
  it('calls back when the wall clock jumped far beyond the timer period, not on normal ticks', () => {
    vi.useFakeTimers();
    try {
      let now = 0;
      const jumps: number[] = [];
      const stop = watchClockJumps({ now: () => now }, (gap) => jumps.push(gap), 1000, 2000);
      now += 1000;
      vi.advanceTimersByTime(1000);
      now += 1100;
      vi.advanceTimersByTime(1000);
      expect(jumps).toEqual([]);
      now += 60_000; // the machine slept: timers did not run, the clock moved on
      vi.advanceTimersByTime(1000);
      expect(jumps).toEqual([60_000]);
      stop();
      now += 60_000;
      vi.advanceTimersByTime(1000);
      expect(jumps).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
