/**
 * One declaration per API operation: its method, OpenAPI path template and response schema, and
 * how the caller's `args` become path and query/body parameters. `operation()` turns that into
 * the typed binding a route module exports (`(conn, args, opts?)`, or `(conn, opts?)` for an
 * operation without arguments); `responseTable()` derives the "METHOD /path/{param}" table of
 * response schemas, so method, path and schema are written once.
 */
import type * as z from 'zod';
import type { ApiConnection, RequestOptions } from './core.js';
import { pathSegment, type Params } from './encoding.js';
import type { HttpMethod } from './transport.js';

/** What the request needs besides the endpoint: path parameters by template name, parameters. */
export interface WireRequest {
  /** Values of the path template's `{name}`s, each encoded as one path segment. */
  readonly path?: Readonly<Record<string, string | number>>;
  readonly params?: Params;
  /** Use the long-poll deadline instead of the normal one. */
  readonly longPoll?: boolean;
  /** Body cap in bytes (default by method and path). */
  readonly maxResponseBytes?: number;
  /** A body of its own instead of form-encoded `params` (a multipart upload). */
  readonly body?: { readonly contentType: string; readonly data: Buffer };
}

export interface Endpoint<M extends HttpMethod = HttpMethod, P extends string = string, S extends z.ZodType = z.ZodType> {
  readonly method: M;
  /** The OpenAPI path template, relative to `/api/v1`, e.g. `/messages/{message_id}`. */
  readonly path: P;
  readonly schema: S;
  /** False only for the unauthenticated endpoints. */
  readonly auth?: boolean;
  /** Path parameter values keep their `/` separators (navigation-view fragments). */
  readonly keepSlashes?: boolean;
}

/** The path with every `{name}` replaced by its encoded value. */
export function fillPath(template: string, values: WireRequest['path'] = {}, keepSlashes = false): string {
  return template.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const v = values[name];
    if (v === undefined) throw new TypeError(`${template}: no value for path parameter ${name}`);
    return pathSegment(v, { keepSlashes });
  });
}

/** Send one request to `endpoint`: the one place a route turns its declaration into `conn.request`. */
export function send<S extends z.ZodType>(
  conn: ApiConnection,
  endpoint: Endpoint<HttpMethod, string, S>,
  wire: WireRequest = {},
  opts: RequestOptions = {},
): Promise<z.output<S>> {
  const { method, schema, auth } = endpoint;
  return conn.request({
    method,
    path: fillPath(endpoint.path, wire.path, endpoint.keepSlashes),
    schema,
    ...(wire.params === undefined ? {} : { params: wire.params }),
    ...(auth === undefined ? {} : { auth }),
    ...(wire.longPoll === undefined ? {} : { longPoll: wire.longPoll }),
    ...(wire.maxResponseBytes === undefined ? {} : { maxResponseBytes: wire.maxResponseBytes }),
    ...(wire.body === undefined ? {} : { body: wire.body }),
    ...opts,
  });
}

/** An endpoint declared for a route whose function has a body of its own (feature checks, filtering). */
export function endpoint<const M extends HttpMethod, const P extends string, S extends z.ZodType>(
  decl: Endpoint<M, P, S>,
): Endpoint<M, P, S> {
  return decl;
}

export interface NoArgsOperation<E extends Endpoint, O = z.output<E['schema']>> {
  (conn: ApiConnection, opts?: RequestOptions): Promise<O>;
  readonly endpoint: E;
}
export interface Operation<A, E extends Endpoint, O = z.output<E['schema']>> {
  (conn: ApiConnection, args: A, opts?: RequestOptions): Promise<O>;
  readonly endpoint: E;
}

/** The typed binding of one operation; with `request`, its `args` become path and parameters. */
export function operation<const M extends HttpMethod, const P extends string, S extends z.ZodType>(
  decl: Endpoint<M, P, S>,
): NoArgsOperation<Endpoint<M, P, S>, z.output<S>>;
export function operation<const M extends HttpMethod, const P extends string, S extends z.ZodType, A>(
  decl: Endpoint<M, P, S> & { readonly request: (args: A, conn: ApiConnection) => WireRequest },
): Operation<A, Endpoint<M, P, S>, z.output<S>>;
export function operation(
  decl: Endpoint & { readonly request?: (args: unknown, conn: ApiConnection) => WireRequest },
): NoArgsOperation<Endpoint> | Operation<unknown, Endpoint> {
  const { request, ...ep } = decl;
  const bound = request
    ? (conn: ApiConnection, args: unknown, opts?: RequestOptions) => send(conn, ep, request(args, conn), opts)
    : (conn: ApiConnection, opts?: RequestOptions) => send(conn, ep, {}, opts);
  return Object.assign(bound, { endpoint: ep });
}

type EndpointOf<T> = T extends { readonly endpoint: infer E extends Endpoint } ? E : T extends Endpoint ? T : never;

/** Response schemas by "METHOD /path/{param}", from operations and endpoints. */
export type ResponseTable<T extends readonly unknown[]> = {
  readonly [E in EndpointOf<T[number]> as `${E['method']} ${E['path']}`]: E['schema'];
};

/** The response-schema table of these operations (for the OpenAPI example-conformance test). */
export function responseTable<const T extends ReadonlyArray<Endpoint | { readonly endpoint: Endpoint }>>(
  ...ops: T
): ResponseTable<T>;
export function responseTable(...ops: ReadonlyArray<Endpoint | { readonly endpoint: Endpoint }>): Record<string, z.ZodType> {
  const table: Record<string, z.ZodType> = {};
  for (const op of ops) {
    const e = 'endpoint' in op ? op.endpoint : op;
    const key = `${e.method} ${e.path}`;
    if (key in table) throw new Error(`responseTable: ${key} declared twice`);
    table[key] = e.schema;
  }
  return table;
}
