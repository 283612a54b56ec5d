/**
 * The renderer's only door to the engine. `bridge.invoke(name, request)` resolves to the operation's
 * typed answer (parsed with the contract's response schema) or throws a `BridgeError` with the
 * engine's code; `bridge.subscribe(listener)` hears pushed engine events. Which transport carries
 * them is decided here and nowhere else: the Electron preload (`window.zulip`) when present, else a
 * WebSocket to the browser-mode host on the page's own origin.
 */
import type { EngineEvent } from '../../../sync/protocol/commands.js';
import { queuedAnswerSchema } from '../../../sync/protocol/outbox.js';
import { isOperationName, operations, type RpcResult } from '../../../sync/protocol/rpc.js';
import type { OperationName, OperationRequest, OperationResponse } from './operations.js';
import { BridgeError } from './bridge-error.js';
import { PreloadTransport, type PreloadApi } from './bridge-preload.js';
import { SocketTransport, browserSocketSeams } from './bridge-socket.js';
import { hostSession } from './host-session.js';
import { hostWsProtocols, SIGNED_OUT_PATH } from '../../../sync/protocol/browser-host.js';

export { BridgeError, isBridgeError } from './bridge-error.js';

/** What carries calls and events; both transports implement it. */
export interface Transport {
  /** Resolves to the engine's envelope; rejects with `BridgeError('OFFLINE')` when the host is unreachable. */
  call(name: string, request: unknown): Promise<RpcResult>;
  onEvent(listener: (e: EngineEvent) => void): () => void;
  /**
   * `down` when the host went away, `up` when it is back (never for the first connection),
   * `refused` when it answers but does not know this tab any more (no retry after that).
   */
  onConnection(listener: (state: HostConnection) => void): () => void;
}

export type HostConnection = 'up' | 'down' | 'refused';

export interface Bridge {
  invoke<N extends OperationName>(name: N, request: OperationRequest<N>): Promise<OperationResponse<N>>;
  subscribe(listener: (e: EngineEvent) => void): () => void;
  /**
   * Hear the host going away and coming back. Live views and subscriptions held by the host die with
   * the connection, so stores reopen and refetch on `up`. Never fires under Electron.
   */
  onConnection(listener: (state: HostConnection) => void): () => void;
}

function parseResponse<N extends OperationName>(name: N, value: unknown): OperationResponse<N> {
  const r = (isOperationName(name) ? operations[name].response : queuedAnswerSchema).safeParse(value);
  if (!r.success) throw new BridgeError('INTERNAL', `${name}: the answer does not match the contract`);
  // The table's response schema for N produces OperationResponse<N> (a queued command's answer was
  // checked against its own schema by the engine); TypeScript cannot follow a generic index into a
  // union of schemas, so the parsed value is narrowed here, once.
  return r.data as OperationResponse<N>;
}

export function createBridge(transport: Transport): Bridge {
  const listeners = new Set<(e: EngineEvent) => void>();
  let detach: (() => void) | undefined;
  return {
    async invoke(name, request) {
      const result = await transport.call(name, request);
      if (!result.ok) throw new BridgeError(result.error.code, result.error.message, result.error.details);
      return parseResponse(name, result.value);
    },
    subscribe(listener) {
      listeners.add(listener);
      // One transport subscription fans out to every listener; it outlives any reconnect.
      detach ??= transport.onEvent((e) => {
        for (const l of [...listeners]) {
          try {
            l(e);
          } catch (err) {
            console.error('bridge: an event listener failed', err);
          }
        }
      });
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && detach) {
          detach();
          detach = undefined;
        }
      };
    },
    onConnection: (listener) => transport.onConnection(listener),
  };
}

declare global {
  interface Window {
    /** Exposed by the Electron preload; absent in a browser. */
    zulip?: Partial<PreloadApi>;
  }
}

function pickTransport(): Transport {
  const api = window.zulip;
  if (api && typeof api.invoke === 'function' && typeof api.subscribe === 'function' && typeof api.unsubscribe === 'function') {
    return new PreloadTransport({ invoke: api.invoke, subscribe: api.subscribe, unsubscribe: api.unsubscribe });
  }
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const session = hostSession();
  // Not signed in (opened without the link): the host's page says how to get one.
  if (session === undefined) location.replace(SIGNED_OUT_PATH);
  return new SocketTransport(`${scheme}//${location.host}/ws`, browserSocketSeams(session === undefined ? [] : hostWsProtocols(session)));
}

let shared: Bridge | undefined;
const current = (): Bridge => (shared ??= createBridge(pickTransport()));

/** The app's bridge. The transport is chosen on first use, so importing this touches no global. */
export const bridge: Bridge = {
  invoke: (name, request) => current().invoke(name, request),
  subscribe: (listener) => current().subscribe(listener),
  onConnection: (listener) => current().onConnection(listener),
};
