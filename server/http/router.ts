/**
 * A small router: `:name` matches one path segment, `*name` the rest of the path (navigation-view
 * fragments contain `/`). Matching is on the path below `/api/v1`.
 */
export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface RouteOptions {
  /** False for the unauthenticated endpoints (fetch_api_key, server_settings). Default true. */
  readonly auth?: boolean;
  /** Counted against the strict authentication-attempt rate limit. */
  readonly authAttempt?: boolean;
  /**
   * The handler is asynchronous (a long-poll) and manages its own transactions; every other
   * handler runs inside one transaction with its events sent after the commit.
   */
  readonly async?: boolean;
}

export interface Route<Ctx> {
  readonly method: Method;
  readonly pattern: string;
  readonly segments: readonly string[];
  readonly options: RouteOptions;
  readonly handler: (ctx: Ctx) => unknown;
}

export type MatchResult<Ctx> =
  | { kind: 'found'; route: Route<Ctx>; pathParams: Record<string, string> }
  | { kind: 'method_not_allowed'; allowed: Method[] }
  | { kind: 'not_found' };

export class Router<Ctx> {
  private readonly routes: Route<Ctx>[] = [];

  add(method: Method, pattern: string, handler: (ctx: Ctx) => unknown, options: RouteOptions = {}): void {
    this.routes.push({ method, pattern, segments: pattern.split('/').filter(Boolean), options, handler });
  }

  match(method: string, path: string): MatchResult<Ctx> {
    let parts: string[];
    try {
      parts = path.split('/').filter(Boolean).map(decodeURIComponent);
    } catch {
      return { kind: 'not_found' };
    }
    const allowed: Method[] = [];
    for (const route of this.routes) {
      const pathParams = matchSegments(route.segments, parts);
      if (!pathParams) continue;
      if (route.method === method) return { kind: 'found', route, pathParams };
      allowed.push(route.method);
    }
    return allowed.length ? { kind: 'method_not_allowed', allowed } : { kind: 'not_found' };
  }
}

function matchSegments(pattern: readonly string[], parts: readonly string[]): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    if (p.startsWith('*')) {
      if (i >= parts.length) return undefined;
      out[p.slice(1)] = parts.slice(i).join('/');
      return out;
    }
    const part = parts[i];
    if (part === undefined) return undefined;
    if (p.startsWith(':')) out[p.slice(1)] = part;
    else if (p !== part) return undefined;
  }
  return parts.length === pattern.length ? out : undefined;
}
