/**
 * Pure: what the screen shows for a route. A message view for the narrows this app has, the
 * inbox and recent conversations, the user's home view for no fragment, and otherwise a placeholder saying plainly what is not built yet
 * (or why a link cannot be followed), never a blank or a crash.
 */
import { describeTerms, targetOfTerms, type Lookups, type NarrowTarget } from '../data/target.js';
import type { Route } from '../core/hash.js';

export type Screen =
  | { kind: 'inbox' }
  | { kind: 'recent' }
  | { kind: 'narrow'; target: NarrowTarget }
  | { kind: 'loading'; what: string }
  | { kind: 'placeholder'; title: string; body: string };

/** Zulip web's other fragments, by their first component. */
const SECTIONS: Record<string, string> = {
  settings: 'Personal settings',
  organization: 'Organization settings',
  drafts: 'Drafts',
  scheduled: 'Scheduled messages',
  reminders: 'Reminders',
  channels: 'Channel settings',
  streams: 'Channel settings',
  groups: 'User groups',
  'keyboard-shortcuts': 'Keyboard shortcuts',
  'message-formatting': 'Message formatting help',
  'search-operators': 'Search filters help',
  user: 'User profiles',
  'profile': 'User profiles',
};

const NOT_BUILT = 'This app does not have it yet. Pick a channel or a topic on the left.';

/**
 * The view no fragment shows: the user's `web_home_view`, as in Zulip web (`inbox`, Zulip's default
 * and what is shown while the setting is not known yet, `recent_topics` or `all_messages`).
 */
export function homeScreen(homeView: unknown): Screen {
  if (homeView === 'recent_topics') return { kind: 'recent' };
  if (homeView === 'all_messages') return { kind: 'narrow', target: { kind: 'feed' } };
  return { kind: 'inbox' };
}

export function screenOf(route: Route, lookups: Lookups, homeView?: unknown): Screen {
  switch (route.kind) {
    case 'home':
      return homeScreen(homeView);
    case 'inbox':
      return { kind: 'inbox' };
    case 'recent':
      return { kind: 'recent' };
    case 'other': {
      const name = SECTIONS[route.section];
      return { kind: 'placeholder', title: name ? `${name}: not built yet` : `“#${route.section}” is not built yet`, body: NOT_BUILT };
    }
    case 'invalid':
      return { kind: 'placeholder', title: 'This link could not be read', body: `${route.reason[0]?.toUpperCase() ?? ''}${route.reason.slice(1)}.` };
    case 'narrow': {
      const r = targetOfTerms(route.terms, lookups);
      switch (r.kind) {
        case 'target':
          return { kind: 'narrow', target: r.target };
        case 'pending':
          return { kind: 'loading', what: r.what };
        case 'unknown':
          return { kind: 'placeholder', title: 'Nothing to show for this link', body: r.what };
        case 'invalid':
          return { kind: 'placeholder', title: 'This search is not valid', body: `${r.what} Change the search and try again.` };
        case 'unsupported':
          return { kind: 'placeholder', title: 'This view is not built yet', body: `It filters messages by “${describeTerms(route.terms)}”, which this app cannot show yet.` };
      }
    }
  }
}

/** Same screen (so a recomputation with nothing new does not reopen the view). */
export function sameScreen(a: Screen, b: Screen): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
