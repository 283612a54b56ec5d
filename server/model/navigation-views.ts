/**
 * Navigation views (FL 390): the user's left-sidebar views, keyed by URL-hash `fragment`. Built-in
 * views (Zulip's own fragments) carry no name; custom views need one. Changes reach the user's
 * clients as `navigation_view` events (singular; docs/zulip-behaviour.md "Navigation views").
 */
import { emit } from '../events/emit.js';
import { JsonableError } from '../http/errors.js';
import type { ServerState } from '../state.js';

/**
 * Fragments of Zulip's built-in views (server `BUILT_IN_VIEW_FRAGMENTS`, plus the web app's other
 * built-in entries such as alerted, followed and the public-channels view).
 */
export const BUILT_IN_VIEW_FRAGMENTS: ReadonlySet<string> = new Set([
  'inbox',
  'recent',
  'feed',
  'drafts',
  'scheduled',
  'reminders',
  'narrow/has/reaction/sender/me',
  'narrow/is/alerted',
  'narrow/is/mentioned',
  'narrow/is/starred',
  'narrow/is/followed',
  'narrow/channels/public',
]);

export interface NavigationView {
  fragment: string;
  is_pinned: boolean;
  name: string | null;
}

interface Row {
  fragment: string;
  is_pinned: number;
  name: string | null;
}

const toApi = (r: Row): NavigationView => ({ fragment: r.fragment, is_pinned: r.is_pinned === 1, name: r.name });

export function listNavigationViews(srv: ServerState, userId: number): NavigationView[] {
  return (srv.db.prepare('SELECT fragment, is_pinned, name FROM navigation_views WHERE user_id = ? ORDER BY id').all(userId) as Row[]).map(toApi);
}

export function getNavigationView(srv: ServerState, userId: number, fragment: string): NavigationView | undefined {
  const row = srv.db.prepare('SELECT fragment, is_pinned, name FROM navigation_views WHERE user_id = ? AND fragment = ?').get(userId, fragment) as
    | Row
    | undefined;
  return row && toApi(row);
}

/** The spec's error for a missing view: code NOT_FOUND (real Zulip sends BAD_REQUEST; both 404). */
export const navigationViewNotFound = () => new JsonableError('NOT_FOUND', 'Navigation view does not exist.', 404);

export function requireNavigationView(srv: ServerState, userId: number, fragment: string): NavigationView {
  const v = getNavigationView(srv, userId, fragment);
  if (!v) throw navigationViewNotFound();
  return v;
}

export function nameInUse(srv: ServerState, userId: number, name: string): boolean {
  return !!srv.db.prepare('SELECT 1 FROM navigation_views WHERE user_id = ? AND name = ?').get(userId, name);
}

export function addNavigationView(srv: ServerState, userId: number, view: NavigationView): void {
  srv.db
    .prepare('INSERT INTO navigation_views (user_id, fragment, is_pinned, name) VALUES (?, ?, ?, ?)')
    .run(userId, view.fragment, view.is_pinned ? 1 : 0, view.name);
  emit(srv, [userId], { type: 'navigation_view', op: 'add', navigation_view: view });
}

export function updateNavigationView(srv: ServerState, userId: number, fragment: string, data: { is_pinned?: boolean; name?: string }): void {
  if (data.is_pinned !== undefined) {
    srv.db.prepare('UPDATE navigation_views SET is_pinned = ? WHERE user_id = ? AND fragment = ?').run(data.is_pinned ? 1 : 0, userId, fragment);
  }
  if (data.name !== undefined) {
    srv.db.prepare('UPDATE navigation_views SET name = ? WHERE user_id = ? AND fragment = ?').run(data.name, userId, fragment);
  }
  emit(srv, [userId], { type: 'navigation_view', op: 'update', fragment, data });
}

export function removeNavigationView(srv: ServerState, userId: number, fragment: string): void {
  srv.db.prepare('DELETE FROM navigation_views WHERE user_id = ? AND fragment = ?').run(userId, fragment);
  emit(srv, [userId], { type: 'navigation_view', op: 'remove', fragment });
}
