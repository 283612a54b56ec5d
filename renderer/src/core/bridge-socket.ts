/**
 * The browser-mode transport: one WebSocket to the host's `/ws`, reconnecting with backoff.
 *
 *   connecting --open--> open --close/error--> waiting --timer or a new call--> connecting
 *        \-------------------close/error------------^
 *
 * `down` is reported on the first close after an open (or of the very first attempt), `up` on the
 * next open after a reported `down`, so a store that saw `down` always hears `up` later.
 *
 * Calls made while not open are queued and sent on open. When a socket closes, every call sent or
 * queued on it is rejected with `OFFLINE` (the host may or may not have run it: the caller decides
 * whether to retry). Event listeners belong to the transport, not to a socket, so they survive
 * reconnects; live views do not (the host closes them with the socket), hence `onConnection('up')`.
 * Frames from the host are parsed with `hostFrameSchema`; anything else is dropped and logged.
 * A close with `HOST_WS_REFUSED` (the host does not know this tab's secret: it started again with
 * a new one) reports `refused` and ends the reconnecting: only a new sign-in link can help.
 */
import type { EngineEvent } from '../../../sync/protocol/commands.js';
import { hostFrameSchema, type RpcResult } from '../../../sync/protocol/rpc.js';
import { hostUnreachable } from './bridge-error.js';
import type { HostConnection, Transport } from './bridge.js';
import { HOST_WS_REFUSED } from '../../../sync/protocol/browser-host.js';

/** The part of a WebSocket we use, so tests can hand in a fake one. */
export interface SocketLike {
  send(data: string): void;
  close(): void;
  onopen: ((ev: Event) => void) | null;
  onmessage: ((ev: MessageEvent) => void) | null;
  onclose: ((ev: CloseEvent) => void) | null;
  onerror: ((ev: Event) => void) | null;
}

/** Seams (docs/architecture.md rule 12): the socket factory, timers and randomness. */
export interface SocketSeams {
  open(url: string): SocketLike;
  setTimeout(f: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  random(): number;
}

/** `protocols`: what the handshake offers (the browser-mode host's secret rides there). */
export function browserSocketSeams(protocols: readonly string[] = []): SocketSeams {
  return {
    open: (url) => new WebSocket(url, [...protocols]),
    setTimeout: (f, ms) => window.setTimeout(f, ms),
    clearTimeout: (h) => window.clearTimeout(typeof h === 'number' ? h : undefined),
    random: Math.random,
  };
}

const BASE_DELAY_MS = 250;
const MAX_DELAY_MS = 10_000;

/** Exponential backoff with half jitter: attempt 0 waits 125-250 ms, capped at 5-10 s. */
export function reconnectDelay(attempt: number, random: number): number {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.min(attempt, 16));
  return Math.round(ceiling * (0.5 + random / 2));
}

interface Pending {
  resolve(r: RpcResult): void;
  reject(e: Error): void;
}

export class SocketTransport implements Transport {
  private socket: SocketLike | undefined;
  private isOpen = false;
  /** `down` was reported and `up` not yet: a failed first connection counts too. */
  private reportedDown = false;
  private attempt = 0;
  /** The host refused this tab's secret: no more attempts, calls fail at once. */
  private refused = false;
  private timer: unknown;
  private nextId = 1;
  /** Sent on the current socket, by frame id. */
  private readonly sent = new Map<number, Pending>();
  /** Waiting for the socket to open. */
  private queued: { frame: string; id: number; pending: Pending }[] = [];
  private readonly eventListeners = new Set<(e: EngineEvent) => void>();
  private readonly connectionListeners = new Set<(s: HostConnection) => void>();

  constructor(
    private readonly url: string,
    private readonly seams: SocketSeams,
  ) {
    this.connect();
  }

  call(name: string, request: unknown): Promise<RpcResult> {
    return new Promise<RpcResult>((resolve, reject) => {
      const id = this.nextId++;
      const frame = JSON.stringify({ type: 'invoke', id, name, request });
      const pending = { resolve, reject };
      if (this.socket && this.isOpen) {
        this.sent.set(id, pending);
        this.socket.send(frame);
        return;
      }
      if (this.refused) return reject(hostUnreachable());
      this.queued.push({ frame, id, pending });
      // Someone needs the host now: do not sit out the rest of the backoff.
      if (!this.socket) this.connect();
    });
  }

  onEvent(listener: (e: EngineEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  onConnection(listener: (state: HostConnection) => void): () => void {
    this.connectionListeners.add(listener);
    return () => this.connectionListeners.delete(listener);
  }

  private connect(): void {
    if (this.timer !== undefined) {
      this.seams.clearTimeout(this.timer);
      this.timer = undefined;
    }
    let socket: SocketLike;
    try {
      socket = this.seams.open(this.url);
    } catch (e) {
      console.warn('bridge: could not open the socket', e);
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => this.opened(socket);
    socket.onmessage = (ev) => this.received(socket, ev.data);
    socket.onclose = (ev) => this.closed(socket, ev.code === HOST_WS_REFUSED);
    socket.onerror = () => this.closed(socket, false);
  }

  private opened(socket: SocketLike): void {
    if (socket !== this.socket) return;
    this.isOpen = true;
    this.attempt = 0;
    const queued = this.queued;
    this.queued = [];
    for (const q of queued) {
      this.sent.set(q.id, q.pending);
      socket.send(q.frame);
    }
    if (this.reportedDown) {
      this.reportedDown = false;
      this.emitConnection('up');
    }
  }

  private received(socket: SocketLike, data: unknown): void {
    if (socket !== this.socket || typeof data !== 'string') return;
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      console.warn('bridge: dropped a frame that is not JSON');
      return;
    }
    const f = hostFrameSchema.safeParse(json);
    if (!f.success) {
      console.warn('bridge: dropped a frame outside the contract');
      return;
    }
    if (f.data.type === 'result') {
      const p = this.sent.get(f.data.id);
      this.sent.delete(f.data.id);
      p?.resolve(f.data.result);
      return;
    }
    for (const l of [...this.eventListeners]) l(f.data.event);
  }

  /** `refused`: the host does not know this tab's secret (it started again with a new one). */
  private closed(socket: SocketLike, refused: boolean): void {
    if (socket !== this.socket) return; // error then close: handled once
    this.socket = undefined;
    this.isOpen = false;
    socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
    try {
      socket.close();
    } catch {
      // Already closed: nothing to release.
    }
    const failed = [...this.sent.values(), ...this.queued.map((q) => q.pending)];
    this.sent.clear();
    this.queued = [];
    for (const p of failed) p.reject(hostUnreachable());
    if (refused) {
      // Trying again cannot help: only a new sign-in link gives this tab a secret the host knows.
      this.refused = true;
      this.emitConnection('refused');
      return;
    }
    if (!this.reportedDown) {
      this.reportedDown = true;
      this.emitConnection('down');
    }
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    const delay = reconnectDelay(this.attempt++, this.seams.random());
    this.timer = this.seams.setTimeout(() => {
      this.timer = undefined;
      this.connect();
    }, delay);
  }

  private emitConnection(state: HostConnection): void {
    for (const l of [...this.connectionListeners]) l(state);
  }
}
