/** What every route handler receives, and the helper that registers an area's routes. */
import { notLoggedIn } from '../http/auth.js';
import { invalidParam } from '../http/errors.js';
import type { Params } from '../http/params.js';
import type { RawResponse } from '../http/raw.js';
import type { Method, RouteOptions, Router } from '../http/router.js';
import type { UserRow } from '../model/users.js';
import type { ServerState } from '../state.js';

export interface PublicCtx {
  readonly srv: ServerState;
  /** Set when the route is authenticated (every route but fetch_api_key and server_settings). */
  readonly user: UserRow | undefined;
  readonly params: Params;
  /** Decoded path parameters (`:message_id`, `*fragment`). */
  readonly path: Readonly<Record<string, string>>;
  /** Aborted when the client disconnects (long-polls stop waiting). */
  readonly signal: AbortSignal;
  /** Client address, for per-address limits. */
  readonly remoteAddress: string;
}

export interface Ctx extends PublicCtx {
  readonly user: UserRow;
}

/**
 * A handler returns the extra fields of its success body (or nothing); the server wraps them in
 * `{result: "success", msg: ""}` and adds `ignored_parameters_unsupported` when needed, or a
 * `RawResponse` (a file) sent as is. Errors are thrown as `JsonableError`.
 */
type HandlerResult = Record<string, unknown> | RawResponse | void;
export type Handler = (ctx: Ctx) => HandlerResult | Promise<HandlerResult>;
export type PublicHandler = (ctx: PublicCtx) => HandlerResult | Promise<HandlerResult>;

export type ApiRouter = Router<PublicCtx>;

export function route(r: ApiRouter, method: Method, pattern: string, handler: Handler, options: RouteOptions = {}): void {
  r.add(
    method,
    pattern,
    (ctx: PublicCtx) => {
      if (!ctx.user) throw notLoggedIn();
      return handler({ ...ctx, user: ctx.user });
    },
    options,
  );
}

export function publicRoute(r: ApiRouter, method: Method, pattern: string, handler: PublicHandler, options: RouteOptions = {}): void {
  r.add(method, pattern, handler, { ...options, auth: false });
}

/** A path parameter that must be a non-negative integer id. */
export function pathId(ctx: PublicCtx, name: string): number {
  const raw = ctx.path[name] ?? '';
  if (!/^\d{1,15}$/.test(raw)) throw invalidParam(name, raw, `Invalid ${name}`);
  return Number(raw);
}
