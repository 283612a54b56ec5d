/**
 * The screens that are not message lists, by the first component of their Zulip fragment
 * (`#scheduled`, `#settings/...`, `#channels/...`, `#groups/...`, ...). Each feature folder adds one
 * entry; RouteView shows the entry's view for its route, and the sidebar's "Manage" list links to
 * the entries that have a label. A section without an entry keeps the "not built yet" placeholder.
 */
import type { Component } from 'solid-js';
import { ChannelsView } from '../channels/ChannelsView.js';
import { GroupsView } from '../groups/GroupsView.js';
import { InviteView } from '../invite/InviteView.js';
import { ScheduledView } from '../scheduled/ScheduledView.js';
import { DraftsView } from '../drafts/DraftsView.js';
import { useCompose } from '../data/compose.js';
import { SettingsView } from '../settings/SettingsView.js';
import type { ManageLink } from '../sidebar/Sidebar.js';

export interface SectionEntry {
  /** The fragment's first component, e.g. `settings`. Synonyms (Zulip's old names) list it again. */
  section: string;
  /** The view; `rest` is the remaining components of the fragment, raw (e.g. `['all']` for `#channels/all`). */
  view: Component<{ rest: readonly string[] }>;
  /** Shown in the sidebar's "Manage" list when present, linking to `href`. */
  label?: string;
  href?: string;
  /** A count shown after the label (read inside the app's stores). */
  count?: () => number;
}

export const SECTIONS: readonly SectionEntry[] = [
  { section: 'drafts', view: () => <DraftsView />, label: 'Drafts', href: '#drafts', count: () => useCompose().drafts.list.length },
  { section: 'scheduled', view: () => <ScheduledView />, label: 'Scheduled messages', href: '#scheduled' },
  { section: 'settings', view: (p) => <SettingsView rest={p.rest} />, label: 'Personal settings', href: '#settings' },
  { section: 'channels', view: (p) => <ChannelsView rest={p.rest} />, label: 'Channels', href: '#channels/subscribed' },
  // Zulip's old name for the same screen.
  { section: 'streams', view: (p) => <ChannelsView rest={p.rest} /> },
  { section: 'groups', view: (p) => <GroupsView rest={p.rest} />, label: 'User groups', href: '#groups/your' },
  { section: 'invite', view: () => <InviteView />, label: 'Invite users', href: '#invite' },
];

export function sectionEntry(section: string): SectionEntry | undefined {
  return SECTIONS.find((s) => s.section === section);
}

/** The sidebar's "Manage" list: the entries with a label. */
export const MANAGE_LINKS: readonly ManageLink[] = SECTIONS.flatMap((s) => (s.label !== undefined && s.href !== undefined ? [{ section: s.section, label: s.label, href: s.href, count: s.count }] : []));
