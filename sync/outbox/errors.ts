/**
 * What an outbox row keeps as `last_error`, and how it crosses the contract: the API error
 * union's shape, `{ kind, code, message, details }` (sync/protocol/outbox.ts `outboxErrorSchema`).
 * `message` is a sentence a person can read (the server's own words when it gave some), never a
 * string the UI must take apart; `technical` keeps the request and status for bug reports.
 */
import { isApiError, type ApiError } from '../api/errors.js';
import type { OutboxError } from '../protocol/outbox.js';
import { OutboxConflict } from './kinds.js';

/** A failure as stored in the row (JSON): the contract's fields plus what the engine acts on later. */
export function describeError(e: unknown): Record<string, unknown> {
  if (e instanceof OutboxConflict) return { kind: 'conflict', message: e.message, ...e.details };
  if (isApiError(e)) {
    const out: Record<string, unknown> = { kind: e.kind, message: sentenceOf(e), technical: e.message };
    if ('code' in e && e.code !== undefined) out['code'] = e.code;
    if ('httpStatus' in e) out['httpStatus'] = e.httpStatus;
    if (e.kind === 'rate_limited') out['retryAfterMs'] = e.retryAfterMs;
    // Typed extra fields (e.g. the movable part of a topic) are what the user acts on later.
    if (e.kind === 'api' && e.details !== undefined) out['details'] = e.details;
    return out;
  }
  return { kind: 'internal', message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
}

function sentenceOf(e: ApiError): string {
  switch (e.kind) {
    case 'api':
    case 'unauthorized':
      return e.serverMsg;
    case 'server':
      return e.serverMsg ? `The server had a problem (HTTP ${e.httpStatus}): ${e.serverMsg}` : `The server had a problem (HTTP ${e.httpStatus}).`;
    case 'rate_limited':
      return e.retryAfterMs !== undefined ? `The server asked to wait ${Math.ceil(e.retryAfterMs / 1000)} s before trying again.` : 'The server asked to slow down.';
    case 'network':
      return `The server could not be reached${e.errno ? ` (${e.errno})` : ''}.`;
    case 'timeout':
      return 'The server did not answer in time.';
    case 'aborted':
      return 'The request was stopped before it finished.';
    case 'malformed':
      return "The server's answer could not be read.";
  }
}

/** Older rows kept the whole technical line as the message: "PATCH /m/4: CODE (HTTP 400): words". */
const LEGACY_LINE = /^[A-Z]+ \S+: [A-Z_]+ \(HTTP \d+\): (.+)$/s;

/** The stored `last_error` as the contract shows it (null: no error, or not an object). */
export function outboxErrorView(e: unknown): OutboxError | null {
  if (typeof e !== 'object' || e === null) return null;
  const rec = e as Record<string, unknown>;
  const kind = typeof rec['kind'] === 'string' ? rec['kind'] : 'internal';
  const raw = typeof rec['message'] === 'string' ? rec['message'] : '';
  const message = typeof rec['technical'] === 'string' ? raw : (LEGACY_LINE.exec(raw)?.[1] ?? raw);
  const code = typeof rec['code'] === 'string' ? rec['code'] : null;
  const d = rec['details'];
  const details = typeof d === 'object' && d !== null && !Array.isArray(d) ? (d as Record<string, unknown>) : null;
  return { kind, code, message, details };
}
