/**
 * The bridge without a DOM: the WebSocket transport over a fake socket and fake timers (queueing
 * until open, results by id, OFFLINE on close, reconnect with backoff, listeners surviving
 * reconnects, frames outside the contract dropped), the preload transport over a fake
 * `window.zulip`, and typed answers / BridgeError from `createBridge`.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeError, createBridge } from '../../../renderer/src/core/bridge.js';
import { PreloadTransport } from '../../../renderer/src/core/bridge-preload.js';
import { reconnectDelay, SocketTransport, type SocketLike, type SocketSeams } from '../../../renderer/src/core/bridge-socket.js';
import type { EngineEvent } from '../../../sync/protocol/index.js';
import { message } from '../fixtures.js';
import { HOST_WS_REFUSED } from '../../../sync/protocol/browser-host.js';

class FakeSocket implements SocketLike {
  sent: { type: string; id: number; name: string; request: unknown }[] = [];
  closed = false;
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.closed = true;
  }
  open() {
    this.onopen?.(new Event('open'));
  }
  frame(f: unknown) {
    this.onmessage?.(new MessageEvent('message', { data: typeof f === 'string' ? f : JSON.stringify(f) }));
  }
  drop() {
    this.onclose?.(new Event('close') as CloseEvent);
  }
  /** The host closes it with a code (HOST_WS_REFUSED: it does not know this tab's secret). */
  closeWith(code: number) {
    this.onclose?.(Object.assign(new Event('close'), { code }) as CloseEvent);
  }
}

function harness() {
  const sockets: FakeSocket[] = [];
  const delays: number[] = [];
  const seams: SocketSeams = {
    open: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    setTimeout: (f, ms) => {
      delays.push(ms);
      return setTimeout(f, ms);
    },
    clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    random: () => 1,
  };
  const transport = new SocketTransport('ws://127.0.0.1:1/ws', seams);
  const bridge = createBridge(transport);
  const last = () => sockets[sockets.length - 1]!;
  return { sockets, delays, transport, bridge, last };
}

const live: EngineEvent = { type: 'status', status: { state: 'live' } };

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('WebSocket transport', () => {
  it('queues calls until the socket opens, then resolves each by its frame id with the parsed answer', async () => {
    const h = harness();
    const a = h.bridge.invoke('accounts', {});
    const b = h.bridge.invoke('status', {});
    expect(h.last().sent).toEqual([]);
    h.last().open();
    expect(h.last().sent.map((f) => [f.type, f.name])).toEqual([
      ['invoke', 'accounts'],
      ['invoke', 'status'],
    ]);
    const [fa, fb] = h.last().sent;
    // Answered out of order: ids route them.
    h.last().frame({ type: 'result', id: fb!.id, result: { ok: true, value: { state: 'live' } } });
    h.last().frame({ type: 'result', id: fa!.id, result: { ok: true, value: { accounts: [], active: null, secret_storage: 'plain', sandbox_available: true } } });
    await expect(b).resolves.toEqual({ state: 'live' });
    await expect(a).resolves.toMatchObject({ secret_storage: 'plain' });
    expect(h.last().url).toBe('ws://127.0.0.1:1/ws');
  });

  it('throws a BridgeError with the engine code and message on ok:false', async () => {
    const h = harness();
    h.last().open();
    const p = h.bridge.invoke('channels', {});
    h.last().frame({ type: 'result', id: h.last().sent[0]!.id, result: { ok: false, error: { code: 'NO_ACCOUNT', message: 'sign in first', details: { x: 1 } } } });
    const e = await p.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(BridgeError);
    expect(e).toMatchObject({ code: 'NO_ACCOUNT', message: 'sign in first', details: { x: 1 } });
  });

  it('refuses an answer outside the operation contract', async () => {
    const h = harness();
    h.last().open();
    const p = h.bridge.invoke('status', {});
    h.last().frame({ type: 'result', id: h.last().sent[0]!.id, result: { ok: true, value: { state: 'dancing' } } });
    await expect(p).rejects.toMatchObject({ code: 'INTERNAL' });
  });

  it('rejects every pending and queued call with OFFLINE when the socket closes, and reconnects with backoff', async () => {
    const h = harness();
    h.last().open();
    const sent = h.bridge.invoke('status', {});
    h.last().drop();
    await expect(sent).rejects.toMatchObject({ code: 'OFFLINE' });
    expect(h.sockets).toHaveLength(1);
    // Each failed attempt waits longer (random() = 1: the ceiling), capped at 10 s.
    for (let i = 0; i < 8; i++) {
      vi.advanceTimersByTime(h.delays[h.delays.length - 1]!);
      h.last().drop();
    }
    expect(h.delays).toEqual([250, 500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]);
    expect(h.sockets).toHaveLength(9);
    expect(h.sockets.slice(0, -1).every((s) => s.closed)).toBe(true);
  });

  it('a host that does not know this tab any more (HOST_WS_REFUSED) is reported once, and never tried again', async () => {
    const h = harness();
    const states: string[] = [];
    h.bridge.onConnection((s) => states.push(s));
    h.last().open();
    const sent = h.bridge.invoke('status', {});
    h.last().drop();
    await expect(sent).rejects.toMatchObject({ code: 'OFFLINE' });
    vi.advanceTimersByTime(h.delays[h.delays.length - 1]!);
    h.last().closeWith(HOST_WS_REFUSED);
    expect(states).toEqual(['down', 'refused']);
    vi.advanceTimersByTime(60_000);
    expect(h.sockets).toHaveLength(2);
    // A call fails at once instead of opening another socket.
    await expect(h.bridge.invoke('status', {})).rejects.toMatchObject({ code: 'OFFLINE' });
    expect(h.sockets).toHaveLength(2);
  });

  it('a call during the backoff connects at once instead of waiting the timer out', async () => {
    const h = harness();
    h.last().drop(); // the first attempt failed
    expect(h.sockets).toHaveLength(1);
    const p = h.bridge.invoke('status', {});
    expect(h.sockets).toHaveLength(2);
    h.last().open();
    h.last().frame({ type: 'result', id: h.last().sent[0]!.id, result: { ok: true, value: { state: 'connecting' } } });
    await expect(p).resolves.toEqual({ state: 'connecting' });
    vi.advanceTimersByTime(60_000);
    expect(h.sockets).toHaveLength(2); // the old timer was cleared
  });

  it('keeps event listeners across reconnects and reports down / up', () => {
    const h = harness();
    const events: EngineEvent[] = [];
    const conn: string[] = [];
    h.bridge.subscribe((e) => events.push(e));
    h.bridge.onConnection((s) => conn.push(s));
    h.last().open();
    h.last().frame({ type: 'event', event: live });
    h.last().drop();
    vi.advanceTimersByTime(250);
    h.last().open();
    h.last().frame({ type: 'event', event: { type: 'areas', areas: ['channels'] } });
    expect(events).toEqual([live, { type: 'areas', areas: ['channels'] }]);
    expect(conn).toEqual(['down', 'up']);
  });

  it('reports up after a first connection that failed, so stores waiting for the host retry', () => {
    const h = harness();
    const conn: string[] = [];
    h.bridge.onConnection((s) => conn.push(s));
    h.last().drop();
    vi.advanceTimersByTime(250);
    h.last().open();
    expect(conn).toEqual(['down', 'up']);
  });

  it('drops frames that are not JSON or not in the contract, and results for unknown ids', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const h = harness();
    const events: EngineEvent[] = [];
    h.bridge.subscribe((e) => events.push(e));
    h.last().open();
    h.last().frame('{not json');
    h.last().frame({ type: 'event', event: { type: 'view', view_id: 'v', changes: { added: [{ id: 'x' }], updated: [], removed: [] } } });
    h.last().frame({ type: 'shutdown' });
    h.last().frame({ type: 'result', id: 999, result: { ok: true, value: 1 } });
    h.last().frame({ type: 'event', event: { type: 'view', view_id: 'v', changes: { added: [message(3)], updated: [], removed: [] } } });
    expect(events).toHaveLength(1);
    expect(warn).toHaveBeenCalledTimes(3);
    warn.mockRestore();
  });

  it('stops delivering to a listener after unsubscribe, and a throwing listener does not stop the others', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const h = harness();
    const a: EngineEvent[] = [];
    const b: EngineEvent[] = [];
    h.bridge.subscribe(() => {
      throw new Error('listener bug');
    });
    const offA = h.bridge.subscribe((e) => a.push(e));
    h.bridge.subscribe((e) => b.push(e));
    h.last().open();
    h.last().frame({ type: 'event', event: live });
    offA();
    h.last().frame({ type: 'event', event: live });
    expect(a).toHaveLength(1);
    expect(b).toHaveLength(2);
    expect(error).toHaveBeenCalledTimes(2);
    error.mockRestore();
  });

  it('backs off exponentially with half jitter', () => {
    expect(reconnectDelay(0, 0)).toBe(125);
    expect(reconnectDelay(0, 1)).toBe(250);
    expect(reconnectDelay(3, 0.5)).toBe(1500);
    expect(reconnectDelay(50, 1)).toBe(10_000);
  });
});

describe('preload transport (Electron)', () => {
  function fakeZulip() {
    const subs = new Map<number, (e: unknown) => void>();
    let next = 1;
    const calls: [string, unknown][] = [];
    const answers: unknown[] = [];
    return {
      calls,
      answers,
      subs,
      push: (e: unknown) => subs.forEach((f) => f(e)),
      api: {
        invoke: async (name: string, request: unknown) => (calls.push([name, request]), answers.shift()),
        subscribe: (f: (e: unknown) => void) => (subs.set(next, f), next++),
        unsubscribe: (id: number) => void subs.delete(id),
      },
    };
  }

  it('invokes through window.zulip and parses the envelope and the answer', async () => {
    const z = fakeZulip();
    const bridge = createBridge(new PreloadTransport(z.api));
    z.answers.push({ ok: true, value: { ok: true } }, { ok: false, error: { code: 'OFFLINE', message: 'no network' } }, { what: 'ever' });
    await expect(bridge.invoke('nudge', { reason: 'network' })).resolves.toEqual({ ok: true });
    expect(z.calls).toEqual([['nudge', { reason: 'network' }]]);
    await expect(bridge.invoke('start', {})).rejects.toMatchObject({ code: 'OFFLINE', message: 'no network' });
    await expect(bridge.invoke('start', {})).rejects.toMatchObject({ code: 'INTERNAL' });
  });

  it('subscribes once, parses events, drops malformed ones, and unsubscribes when the last listener leaves', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const z = fakeZulip();
    const bridge = createBridge(new PreloadTransport(z.api));
    const got: EngineEvent[] = [];
    const off1 = bridge.subscribe((e) => got.push(e));
    const off2 = bridge.subscribe(() => undefined);
    expect(z.subs.size).toBe(1);
    z.push(live);
    z.push({ type: 'status', status: { state: 'weird' } });
    expect(got).toEqual([live]);
    off1();
    off2();
    expect(z.subs.size).toBe(0);
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });
});
