/** Turning anything a handler throws into the contract's closed error shape (`RpcError`). */
import { isApiError, UnsupportedFeatureError } from '../api/index.js';
import { describeConnectFailure } from '../api/network.js';
import { LocalNarrowError } from '../db/narrow/resolve.js';
import { STORAGE_REFUSED_MESSAGE, storageFault } from '../db/storage.js';
import type { RpcError, RpcErrorCode } from '../protocol/rpc.js';

/** A handler's deliberate refusal with a contract code. */
export class RpcFailure extends Error {
  constructor(
    readonly code: RpcErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'RpcFailure';
  }
}

export function toRpcError(e: unknown): RpcError {
  if (e instanceof RpcFailure) return { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) };
  // A write the disk refused (docs/sync-design.md "A full disk"): said in words, whatever wrote it.
  const disk = storageFault(e);
  if (disk !== undefined) return { code: 'DISK_FULL', message: STORAGE_REFUSED_MESSAGE[disk], details: { reason: disk } };
  if (e instanceof LocalNarrowError) return { code: 'INVALID_REQUEST', message: e.message };
  if (e instanceof UnsupportedFeatureError) return { code: 'UNAVAILABLE', message: `the server is too old for this (${e.message})` };
  if (isApiError(e)) {
    switch (e.kind) {
      case 'network': {
        // The certificate or the proxy, said as such (never only "cannot be reached").
        const f = describeConnectFailure(e);
        if (f?.kind === 'certificate') return { code: 'OFFLINE', message: `the server's certificate is not trusted: ${f.reason}`, details: { kind: 'certificate', code: f.code } };
        if (f?.kind === 'proxy') return { code: 'OFFLINE', message: `the proxy stopped the connection: ${f.reason}`, details: { kind: 'proxy' } };
        return { code: 'OFFLINE', message: `the server cannot be reached right now (${e.message})`, details: { kind: e.kind } };
      }
      case 'timeout':
      case 'aborted':
      case 'rate_limited':
      case 'server':
        return { code: 'OFFLINE', message: `the server cannot be reached right now (${e.message})`, details: { kind: e.kind } };
      case 'unauthorized':
        return { code: 'SERVER', message: e.serverMsg, details: { kind: e.kind, code: e.code, http_status: e.httpStatus } };
      case 'api':
        return { code: 'SERVER', message: e.serverMsg, details: { kind: e.kind, code: e.code, http_status: e.httpStatus, ...(e.details ? { details: e.details } : {}) } };
      case 'malformed':
        return { code: 'SERVER', message: `the server answered something unexpected (${e.message})`, details: { kind: e.kind } };
    }
  }
  return { code: 'INTERNAL', message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
}
