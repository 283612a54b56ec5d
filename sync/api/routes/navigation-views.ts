/** Navigation views (FL 390): spec "POST /navigation_views", "PATCH /navigation_views/{fragment}", and list/delete. */
import * as z from 'zod';
import { operation, responseTable } from '../operation.js';
import { emptySuccess, success } from '../schemas/envelope.js';
import { navigationView } from '../schemas/navigation-views.js';

export const getNavigationViewsResponse = z.lazy(() => success({ navigation_views: z.array(navigationView) }));

/** GET /navigation_views (referenced operation). */
export const getNavigationViews = operation({ method: 'GET', path: '/navigation_views', schema: getNavigationViewsResponse });

/** Spec "POST /navigation_views": configure a built-in view (no `name`) or add a custom one. */
export const addNavigationView = operation({
  method: 'POST',
  path: '/navigation_views',
  schema: emptySuccess,
  request: (args: { fragment: string; is_pinned: boolean; name?: string | null }) => ({
    // The server reads `name` as a raw string, so `null` (built-in view) is sent by leaving it out.
    params: { fragment: args.fragment, is_pinned: args.is_pinned, name: args.name ?? undefined },
  }),
});

/** Spec "PATCH /navigation_views/{fragment}": pin/unpin or rename a view; built-in views take no name. */
export const editNavigationView = operation({
  method: 'PATCH',
  path: '/navigation_views/{fragment}',
  schema: emptySuccess,
  // The fragment may contain `/` (e.g. `narrow/is/alerted`), which stays unescaped.
  keepSlashes: true,
  request: (args: { fragment: string; is_pinned?: boolean; name?: string }) => ({
    path: { fragment: args.fragment },
    params: { is_pinned: args.is_pinned, name: args.name },
  }),
});

/** DELETE /navigation_views/{fragment} (referenced operation). */
export const deleteNavigationView = operation({
  method: 'DELETE',
  path: '/navigation_views/{fragment}',
  schema: emptySuccess,
  keepSlashes: true,
  request: (args: { fragment: string }) => ({ path: { fragment: args.fragment } }),
});

/** Response schemas by OpenAPI operation, for the example-conformance test. */
export const navigationViewResponses = responseTable(getNavigationViews, addNavigationView, editNavigationView, deleteNavigationView);
