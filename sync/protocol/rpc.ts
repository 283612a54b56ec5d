/**
 * The wire shape of the engine ↔ UI contract, shared by both hosts (Electron IPC and the browser
 * host's WebSocket): one table of operations (every query, command and account operation, each with
 * its request and response schema), the result envelope (never a thrown error across the boundary),
 * and the frames the WebSocket carries. The receiving side parses every payload with these schemas.
 */
import * as z from 'zod';
import { accountOperations } from './accounts.js';
import { networkOperations } from './network.js';
import { commands, engineEventSchema, queries } from './commands.js';
import { outboxOperations } from './outbox.js';

/** Every operation the UI may invoke, by name. */
export const operations = { ...queries, ...commands, ...accountOperations, ...networkOperations, ...outboxOperations } as const;
export type OperationName = keyof typeof operations;
export type OperationRequest<N extends OperationName> = z.input<(typeof operations)[N]['request']>;
export type OperationResponse<N extends OperationName> = z.output<(typeof operations)[N]['response']>;

export function isOperationName(name: unknown): name is OperationName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(operations, name);
}

/**
 * Why an operation failed, closed: the UI switches on `code`.
 *   INVALID_REQUEST   the payload does not match the operation's schema (nothing happened)
 *   UNKNOWN_OPERATION no such operation
 *   NO_ACCOUNT        the operation needs an open account
 *   OFFLINE           an online-only operation while the server is unreachable (nothing happened)
 *   SERVER            the server refused (`details.code` is its error code, `details.msg` its text)
 *   PLAIN_STORAGE_CONSENT_REQUIRED  no encryption on this platform: ask, then retry with consent
 *   UNAVAILABLE       this host cannot do it (e.g. no sandbox)
 *   PENDING_CHANGES   signing out would drop queued changes: `details` has the counts; ask the user
 *                     (wait for them, keep them for later, or discard them) and call again
 *   DISK_FULL         the disk is full (or refuses writes: `details.reason` is `io`): the change was
 *                     not saved, and nothing else changed; the message says so in words
 *   INTERNAL          a bug: the message says what
 */
export const rpcErrorCodeSchema = z.enum([
  'INVALID_REQUEST',
  'UNKNOWN_OPERATION',
  'NO_ACCOUNT',
  'OFFLINE',
  'SERVER',
  'PLAIN_STORAGE_CONSENT_REQUIRED',
  'UNAVAILABLE',
  'PENDING_CHANGES',
  'DISK_FULL',
  'INTERNAL',
]);
export type RpcErrorCode = z.output<typeof rpcErrorCodeSchema>;

export const rpcErrorSchema = z.lazy(() => z.object({
  code: rpcErrorCodeSchema,
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
}));
export type RpcError = z.output<typeof rpcErrorSchema>;

export const rpcResultSchema = z.lazy(() => z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: rpcErrorSchema }),
]));
export type RpcResult = z.output<typeof rpcResultSchema>;

/** What the UI sends to invoke one operation (IPC payload; inside a WebSocket `invoke` frame). */
export const invokeRequestSchema = z.lazy(() => z.object({ name: z.string().min(1).max(100), request: z.unknown() }));
export type InvokeRequest = z.output<typeof invokeRequestSchema>;

/** WebSocket frames, page → host. */
export const clientFrameSchema = z.lazy(() => z.object({ type: z.literal('invoke'), id: z.number().int().nonnegative(), name: z.string().min(1).max(100), request: z.unknown() }));
export type ClientFrame = z.output<typeof clientFrameSchema>;

/** WebSocket frames, host → page: a result for an `invoke` by id, or a pushed engine event. */
export const hostFrameSchema = z.lazy(() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('result'), id: z.number().int().nonnegative(), result: rpcResultSchema }),
  z.object({ type: z.literal('event'), event: engineEventSchema }),
]));
export type HostFrame = z.output<typeof hostFrameSchema>;

/** IPC channel names (Electron). The preload exposes exactly these, nothing else. */
export const IPC_INVOKE = 'zulip:invoke';
export const IPC_EVENT = 'zulip:event';
export const IPC_SUBSCRIBE = 'zulip:subscribe';
export const IPC_UNSUBSCRIBE = 'zulip:unsubscribe';
/** A file the user attached: its bytes to the engine's staging (answers the envelope around `{file, size}`). */
export const IPC_STAGE_UPLOAD = 'zulip:stage-upload';
/** A file link clicked under Electron: `{ path }` fetched by the engine, saved where the user says (answers the envelope around `{saved, reason}`). */
export const IPC_SAVE_UPLOAD = 'zulip:save-upload';
/** The desktop app's own settings (main/desktop-settings.ts): `null` reads them, a patch changes them (answers the envelope around the settings). */
export const IPC_DESKTOP_SETTINGS = 'zulip:desktop-settings';
/** Main to page: open this conversation (a desktop notification was clicked); the payload is an `OpenTarget` (sync/protocol/notify.ts). */
export const IPC_OPEN = 'zulip:open';
/** Updates (main/updater.ts): `{ action: 'status' | 'check' | 'install' }` (answers the envelope around an `UpdateStatus`, sync/protocol/desktop.ts). */
export const IPC_UPDATE = 'zulip:update';
/** Main to page: the updater's state changed; the payload is an `UpdateStatus`. */
export const IPC_UPDATE_STATUS = 'zulip:update-status';

/** Parse a request for `name`; the caller answers INVALID_REQUEST / UNKNOWN_OPERATION on failure. */
export function parseOperationRequest(name: string, payload: unknown): { ok: true; name: OperationName; request: unknown } | { ok: false; error: RpcError } {
  return parseRequestIn(operations, name, payload);
}

/**
 * The same over a table that adds operations to `operations` (the service adds the queued
 * commands, declared with their kinds in sync/outbox).
 */
export function parseRequestIn<T extends Record<string, { request: z.ZodType }>>(table: T, name: string, payload: unknown): { ok: true; name: keyof T & string; request: unknown } | { ok: false; error: RpcError } {
  if (!Object.prototype.hasOwnProperty.call(table, name)) return { ok: false, error: { code: 'UNKNOWN_OPERATION', message: `no operation named ${JSON.stringify(name.slice(0, 100))}` } };
  const r = table[name]!.request.safeParse(payload ?? {});
  if (!r.success) return { ok: false, error: { code: 'INVALID_REQUEST', message: `${name}: ${z.prettifyError(r.error)}` } };
  return { ok: true, name, request: r.data };
}
