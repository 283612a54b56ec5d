/**
 * Navigation views (FL 390): GET, POST /navigation_views; PATCH, DELETE /navigation_views/{fragment}.
 * Fragments contain `/` (e.g. `narrow/is/alerted`), hence the catch-all `*fragment` pattern.
 */
import { badRequest } from '../http/errors.js';
import type { Params } from '../http/params.js';
import {
  addNavigationView,
  BUILT_IN_VIEW_FRAGMENTS,
  getNavigationView,
  listNavigationViews,
  nameInUse,
  removeNavigationView,
  requireNavigationView,
  updateNavigationView,
} from '../model/navigation-views.js';
import { route, type ApiRouter, type Ctx } from './context.js';

const builtInNamed = () => badRequest('Built-in views cannot have a custom name');
const alreadyExists = () => badRequest('Navigation view already exists.');

/** `name`: a string (stripped, not blank) or, on POST, JSON-less `null` meaning no name. */
function readName(params: Params, allowNull: boolean): string | null | undefined {
  const raw = params.str('name');
  if (raw === undefined) return undefined;
  if (allowNull && raw === 'null') return null;
  const v = raw.trim();
  if (v === '') throw badRequest('name cannot be blank');
  return v;
}

/** The path fragment (router-decoded, may contain `/`), stripped as Zulip does. */
function pathFragment(ctx: Ctx): string {
  const v = (ctx.path.fragment ?? '').trim();
  if (v === '') throw badRequest('fragment cannot be blank');
  return v;
}

export function registerNavigationViewRoutes(r: ApiRouter): void {
  route(r, 'GET', '/navigation_views', ({ srv, user }) => ({ navigation_views: listNavigationViews(srv, user.id) }));

  route(r, 'POST', '/navigation_views', ({ srv, user, params }) => {
    const fragment = params.reqStr('fragment').trim();
    const isPinned = params.reqBool('is_pinned');
    const name = readName(params, true) ?? null;
    if (fragment === '') throw badRequest('fragment cannot be blank');
    if (BUILT_IN_VIEW_FRAGMENTS.has(fragment)) {
      if (name !== null) throw builtInNamed();
    } else if (name === null) {
      throw badRequest('Custom views must have a valid name.');
    }
    if (getNavigationView(srv, user.id, fragment)) throw alreadyExists();
    if (name !== null && nameInUse(srv, user.id, name)) throw alreadyExists();
    addNavigationView(srv, user.id, { fragment, is_pinned: isPinned, name });
  });

  route(r, 'PATCH', '/navigation_views/*fragment', (ctx) => {
    const { srv, user, params } = ctx;
    const fragment = pathFragment(ctx);
    const isPinned = params.bool('is_pinned');
    const name = readName(params, false) ?? undefined;
    if (name !== undefined && BUILT_IN_VIEW_FRAGMENTS.has(fragment)) throw builtInNamed();
    const view = requireNavigationView(srv, user.id, fragment);
    if (name !== undefined && name !== view.name && nameInUse(srv, user.id, name)) throw alreadyExists();
    const data: { is_pinned?: boolean; name?: string } = {};
    if (isPinned !== undefined) data.is_pinned = isPinned;
    if (name !== undefined) data.name = name;
    if (Object.keys(data).length === 0) return;
    updateNavigationView(srv, user.id, fragment, data);
  });

  route(r, 'DELETE', '/navigation_views/*fragment', (ctx) => {
    const fragment = pathFragment(ctx);
    requireNavigationView(ctx.srv, ctx.user.id, fragment);
    removeNavigationView(ctx.srv, ctx.user.id, fragment);
  });
}
