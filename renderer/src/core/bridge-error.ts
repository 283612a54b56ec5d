/**
 * The one error the bridge throws: the engine's `RpcError` code and message carried across, so
 * screens switch on `code` (never on the text). Kept apart from the transports so pure reducers can
 * describe errors without pulling in a WebSocket or `window`.
 */
import type { RpcErrorCode } from '../../../sync/protocol/rpc.js';

export class BridgeError extends Error {
  override readonly name = 'BridgeError';
  constructor(
    readonly code: RpcErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export function isBridgeError(e: unknown): e is BridgeError {
  return e instanceof BridgeError;
}

/** The transport to the app host went away: what every pending call is rejected with. */
export function hostUnreachable(): BridgeError {
  return new BridgeError('OFFLINE', 'lost the connection to the app; reconnecting');
}
