/** Navigation views (FL 390): spec "POST /navigation_views", "PATCH /navigation_views/{fragment}", and list/delete. */
import { z } from 'zod';
import type { ApiConnection, RequestOptions } from '../core.js';
import { pathSegment } from '../encoding.js';
import { emptySuccess, success } from '../schemas/envelope.js';
import { navigationView } from '../schemas/navigation-views.js';

export const getNavigationViewsResponse = success({ navigation_views: z.array(navigationView) });

/** Response schemas by OpenAPI operation, for the example-conformance test. */
export const navigationViewResponses = {
  'GET /navigation_views': getNavigationViewsResponse,
  'POST /navigation_views': emptySuccess,
  'PATCH /navigation_views/{fragment}': emptySuccess,
  'DELETE /navigation_views/{fragment}': emptySuccess,
} as const;

/** The fragment as a path: it may contain `/` (e.g. `narrow/is/alerted`), which stays unescaped. */
function viewPath(fragment: string): string {
  return `/navigation_views/${pathSegment(fragment, { keepSlashes: true })}`;
}

/** GET /navigation_views (referenced operation). */
export function getNavigationViews(conn: ApiConnection, opts: RequestOptions = {}) {
  return conn.request({ method: 'GET', path: '/navigation_views', schema: getNavigationViewsResponse, ...opts });
}

/** Spec "POST /navigation_views": configure a built-in view (no `name`) or add a custom one. */
export function addNavigationView(
  conn: ApiConnection,
  args: { fragment: string; is_pinned: boolean; name?: string | null },
  opts: RequestOptions = {},
) {
  return conn.request({
    method: 'POST',
    path: '/navigation_views',
    // The server reads `name` as a raw string, so `null` (built-in view) is sent by leaving it out.
    params: { fragment: args.fragment, is_pinned: args.is_pinned, name: args.name ?? undefined },
    schema: emptySuccess,
    ...opts,
  });
}

/** Spec "PATCH /navigation_views/{fragment}": pin/unpin or rename a view; built-in views take no name. */
export function editNavigationView(
  conn: ApiConnection,
  args: { fragment: string; is_pinned?: boolean; name?: string },
  opts: RequestOptions = {},
) {
  return conn.request({
    method: 'PATCH',
    path: viewPath(args.fragment),
    params: { is_pinned: args.is_pinned, name: args.name },
    schema: emptySuccess,
    ...opts,
  });
}

/** DELETE /navigation_views/{fragment} (referenced operation). */
export function deleteNavigationView(conn: ApiConnection, args: { fragment: string }, opts: RequestOptions = {}) {
  return conn.request({ method: 'DELETE', path: viewPath(args.fragment), schema: emptySuccess, ...opts });
}
