/**
 * Pure: the sidebar's views from the user's navigation views (FL 390). Built-in views (Zulip's own
 * fragments: inbox, recent, feed, starred, mentions, ...) are shown with their default pinning
 * until the user's list says otherwise; custom views (any other fragment, with a name) follow in the
 * order the server keeps them. Pinned ones are rows of the sidebar, the others are under "More
 * views". Each view carries a "not saved yet" marker while an outbox row about it is unfinished.
 *
 * The intents the UI queues (add, pin / unpin, rename, delete) are checked here first with the
 * server's own rules and words (blank fragment, a name for a built-in view, a name or fragment
 * already used), so a change the server would refuse is never queued, online or offline.
 */
import type { OutboxRowView } from '../../../sync/protocol/outbox.js';
import type { OperationRequest } from '../core/operations.js';

export interface StoredView {
  fragment: string;
  is_pinned: boolean;
  name: string | null;
}

export type ViewCount = 'total' | 'mentions' | 'starred' | null;

export interface BuiltInView {
  fragment: string;
  label: string;
  /** Zulip web's default before the user changed anything. */
  pinnedByDefault: boolean;
  count: ViewCount;
}

/** The built-in views this app shows, in the sidebar's order. */
export const BUILT_IN_VIEWS: readonly BuiltInView[] = [
  { fragment: 'inbox', label: 'Inbox', pinnedByDefault: true, count: 'total' },
  { fragment: 'recent', label: 'Recent conversations', pinnedByDefault: true, count: null },
  { fragment: 'feed', label: 'Combined feed', pinnedByDefault: true, count: null },
  { fragment: 'narrow/is/starred', label: 'Starred messages', pinnedByDefault: true, count: 'starred' },
  { fragment: 'narrow/is/mentioned', label: 'Mentions', pinnedByDefault: true, count: 'mentions' },
  { fragment: 'scheduled', label: 'Scheduled messages', pinnedByDefault: false, count: null },
];

/**
 * Every fragment the server treats as built-in (it refuses to name them), with a label for the
 * ones only shown when the user's list has them.
 */
export const SERVER_BUILT_IN_LABELS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(BUILT_IN_VIEWS.map((v) => [v.fragment, v.label])),
  drafts: 'Drafts',
  reminders: 'Reminders',
  'narrow/has/reaction/sender/me': 'Reactions',
  'narrow/is/alerted': 'Alerted messages',
  'narrow/is/followed': 'Followed topics',
  'narrow/channels/public': 'Public channels',
};

export const isBuiltIn = (fragment: string): boolean => Object.prototype.hasOwnProperty.call(SERVER_BUILT_IN_LABELS, fragment);

/** The server's words for the refusals checked before queuing (docs/zulip-behaviour.md "Navigation views"). */
export const SERVER_WORDS = {
  blankFragment: 'fragment cannot be blank',
  builtInNamed: 'Built-in views cannot have a custom name',
  customNeedsName: 'Custom views must have a valid name.',
  blankName: 'name cannot be blank',
  exists: 'Navigation view already exists.',
} as const;

export interface SidebarView {
  fragment: string;
  href: string;
  label: string;
  builtIn: boolean;
  pinned: boolean;
  count: ViewCount;
  /** "not saved yet" / "change failed" while an outbox row about the view is unfinished. */
  pending: string | null;
  /** The first failed row's error (the server's words), if any. */
  error: string | null;
}

/** Outbox rows about one view: target `navigation_view:<fragment>`, neither done nor discarded. */
export function rowsForView(rows: readonly OutboxRowView[], fragment: string): OutboxRowView[] {
  const target = `navigation_view:${fragment}`;
  return rows.filter((r) => r.target === target && r.state !== 'done' && r.state !== 'discarded');
}

function marker(rows: readonly OutboxRowView[]): { pending: string | null; error: string | null } {
  if (rows.length === 0) return { pending: null, error: null };
  const failed = rows.find((r) => r.state === 'failed' || r.state === 'conflict');
  return failed ? { pending: 'change failed', error: failed.last_error?.message ?? null } : { pending: 'not saved yet', error: null };
}

/** The sidebar's pinned rows and the "More views" entries. */
export function sidebarViews(stored: readonly StoredView[], rows: readonly OutboxRowView[]): { pinned: SidebarView[]; more: SidebarView[] } {
  const byFragment = new Map(stored.map((v) => [v.fragment, v]));
  const all: SidebarView[] = [];
  const make = (fragment: string, label: string, builtIn: boolean, pinned: boolean, count: ViewCount): SidebarView => ({
    fragment,
    href: `#${fragment}`,
    label,
    builtIn,
    pinned,
    count,
    ...marker(rowsForView(rows, fragment)),
  });
  for (const b of BUILT_IN_VIEWS) all.push(make(b.fragment, b.label, true, byFragment.get(b.fragment)?.is_pinned ?? b.pinnedByDefault, b.count));
  const shown = new Set(BUILT_IN_VIEWS.map((b) => b.fragment));
  for (const v of stored) {
    if (shown.has(v.fragment)) continue;
    shown.add(v.fragment);
    const builtIn = isBuiltIn(v.fragment);
    all.push(make(v.fragment, builtIn ? SERVER_BUILT_IN_LABELS[v.fragment]! : (v.name ?? v.fragment), builtIn, v.is_pinned, null));
  }
  return { pinned: all.filter((v) => v.pinned), more: all.filter((v) => !v.pinned) };
}

export type ViewIntent =
  | { op: 'addNavigationView'; request: OperationRequest<'addNavigationView'> }
  | { op: 'editNavigationView'; request: OperationRequest<'editNavigationView'> }
  | { op: 'removeNavigationView'; request: OperationRequest<'removeNavigationView'> };

/**
 * Pin or unpin. A built-in view the user never changed has no entry yet: it is added (without a
 * name) with the new pinning; otherwise the entry is edited.
 */
export function pinIntent(fragment: string, pinned: boolean, stored: readonly StoredView[]): ViewIntent {
  if (stored.some((v) => v.fragment === fragment)) return { op: 'editNavigationView', request: { fragment, is_pinned: pinned } };
  return { op: 'addNavigationView', request: { fragment, is_pinned: pinned, name: null } };
}

/** A fragment as the user gives it: without `#`, trimmed (the server strips it too). */
export const normalFragment = (raw: string): string => raw.trim().replace(/^#+/, '').trim();

/** Add the view at `rawFragment` to the sidebar (pinned) under `rawName`, or the server's refusal. */
export function addIntent(rawFragment: string, rawName: string, stored: readonly StoredView[]): ViewIntent | { error: string } {
  const fragment = normalFragment(rawFragment);
  const name = rawName.trim();
  if (fragment === '') return { error: SERVER_WORDS.blankFragment };
  if (isBuiltIn(fragment)) {
    if (name !== '') return { error: SERVER_WORDS.builtInNamed };
    return pinIntent(fragment, true, stored);
  }
  if (name === '') return { error: SERVER_WORDS.customNeedsName };
  if (stored.some((v) => v.fragment === fragment || v.name === name)) return { error: SERVER_WORDS.exists };
  return { op: 'addNavigationView', request: { fragment, is_pinned: true, name } };
}

/** Rename a custom view; built-in views take no name. */
export function renameIntent(fragment: string, rawName: string, stored: readonly StoredView[]): ViewIntent | { error: string } {
  if (isBuiltIn(fragment)) return { error: SERVER_WORDS.builtInNamed };
  const name = rawName.trim();
  if (name === '') return { error: SERVER_WORDS.blankName };
  if (stored.some((v) => v.fragment !== fragment && v.name === name)) return { error: SERVER_WORDS.exists };
  return { op: 'editNavigationView', request: { fragment, name } };
}

/** Delete a custom view (a built-in one is unpinned instead). */
export function deleteIntent(fragment: string): ViewIntent | { error: string } {
  if (isBuiltIn(fragment)) return { error: 'A built-in view cannot be deleted; unpin it instead.' };
  return { op: 'removeNavigationView', request: { fragment } };
}

/** The server's words as a sentence for the screen. */
export const refusalText = (words: string): string => `${words.charAt(0).toUpperCase()}${words.slice(1)}${/[.!?]$/.test(words) ? '' : '.'}`;
