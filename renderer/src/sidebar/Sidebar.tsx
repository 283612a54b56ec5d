/**
 * The left sidebar: the views (inbox with the unread total, recent conversations, combined feed,
 * starred messages and mentions with their counts), direct-message conversations, then channels →
 * topics with unread counts (the open channel shows its cached topics, and "More topics" asks the
 * engine for the channel's complete list). Every row is a link to its Zulip URL fragment, so
 * clicking it moves the app (and Back / Forward / reload keep the place); the open channel unfolds
 * its topics. Muted channels and topics are dimmed. Each channel and topic row has a menu of its
 * actions (TopicMenu.tsx), shown on hover and reachable with the keyboard.
 */
import { createEffect, createSelector, createSignal, For, on, Show, type Accessor, type Signal } from 'solid-js';
import { dmNames, dmTarget } from '../data/dms.js';
import { useHome } from '../data/home.js';
import { MoreToggle } from './MoreToggle.js';
import { useNarrow } from '../data/narrow.js';
import { hashOfTarget, type NarrowTarget } from '../data/target.js';
import { useRouter } from '../router/router.js';
import { useUsers } from '../data/users.js';
import { NavViewsList } from '../navviews/NavViewsList.js';
import { useChannels } from '../data/channels.js';
import { UnreadBadge } from '../kit/UnreadBadge.js';
import { recentKeys } from '../kit/lru.js';
import { ChannelRow } from './ChannelRow.js';
import { PeopleList } from '../people/PeopleList.js';
import './sidebar.css';

/** Direct-message conversations shown before "More conversations". */
const FIRST_DMS = 8;

/** A link of the "Manage" list (the screens that are not message lists). */
export interface ManageLink {
  section: string;
  label: string;
  href: string;
  count?: () => number;
}

/** Channels whose topic list stays made once closed (ChannelRow's `kept`). */
const KEPT_TOPIC_LISTS = 8;

/**
 * Whether a channel was among the last KEPT_TOPIC_LISTS opened: one signal per channel, set as it
 * is opened and cleared as it drops out, so a switch re-runs the rows it concerns, not every row.
 */
function createKeptTopicLists(open: Accessor<number | null>): (channelId: number) => boolean {
  const flags = new Map<number, Signal<boolean>>();
  const flag = (id: number) => {
    let f = flags.get(id);
    if (f === undefined) flags.set(id, (f = createSignal(false)));
    return f;
  };
  const recent = recentKeys<number>(KEPT_TOPIC_LISTS);
  createEffect(
    on(open, (id) => {
      if (id === null) return;
      flag(id)[1](true);
      for (const old of recent.use(id)) flag(old)[1](false);
    }),
  );
  return (id) => flag(id)[0]();
}

/** A DM view's people, as a key (the same people in the same order: the same view, as `sameTarget` says). */
const dmKey = (t: NarrowTarget): string => (t.kind === 'dm' ? t.userIds.join(',') : '');

export function Sidebar(props: { manage: readonly ManageLink[] }) {
  const channels = useChannels();
  const narrow = useNarrow();
  const router = useRouter();
  const isSectionOpen = (section: string) => {
    const r = router.route();
    return r.kind === 'other' && r.section === section;
  };
  const home = useHome();
  const users = useUsers();
  const [allDms, setAllDms] = createSignal(false);
  const userName = (id: number) => users.byId().get(id)?.full_name;
  const dms = () => (allDms() ? home.dms() : home.dms().slice(0, FIRST_DMS));
  const keptTopics = createKeptTopicLists(narrow.openChannelId);
  // A selector: a switch re-runs the DM rows it opens and leaves, not every row.
  const dmIsOpen = createSelector(() => {
    const t = narrow.state.view?.target;
    return t?.kind === 'dm' && t.near === undefined ? dmKey(t) : null;
  });
  return (
    <nav class="sidebar" aria-label="Channels">
      <NavViewsList />
      <ul class="manage-list" aria-label="Manage">
        <For each={props.manage}>
          {(s) => (
            <li>
              <a class={`row-button view-button sidebar-${s.section}`} href={s.href} aria-current={isSectionOpen(s.section) ? 'page' : undefined}>
                {s.label}
                <Show when={s.count?.()}>{(n) => <span class="manage-count">{n()}</span>}</Show>
              </a>
            </li>
          )}
        </For>
      </ul>
      <h2 class="sidebar-title" id="sidebar-dms-title">Direct messages</h2>
      <Show when={home.dms().length > 0} fallback={<p class="hint">{home.dmsLoaded() ? 'No direct messages yet.' : 'Loading…'}</p>}>
        <ul class="dm-list" aria-labelledby="sidebar-dms-title">
          <For each={dms()}>
            {(d) => {
              const target = () => dmTarget(d);
              return (
                <li class="dm">
                  <div class="row">
                    <a class="row-button dm-button" href={hashOfTarget(target(), userName)} aria-current={dmIsOpen(dmKey(target())) ? 'page' : undefined}>
                      <span class="row-name">{dmNames(d)}</span>
                    </a>
                    <UnreadBadge count={d.unread_count} />
                  </div>
                </li>
              );
            }}
          </For>
          <Show when={home.dms().length > FIRST_DMS}>
            <MoreToggle what="conversations" open={allDms()} onToggle={() => setAllDms(!allDms())} />
          </Show>
        </ul>
      </Show>
      <h2 class="sidebar-title">Channels</h2>
      <Show when={channels.state.loaded} fallback={<p class="hint">Loading channels…</p>}>
        <Show when={channels.state.channels.length > 0} fallback={<p class="hint">No channels yet. They appear once the first sync is done.</p>}>
          <ul class="channel-list">
            <For each={channels.state.channels}>{(c) => <ChannelRow channel={c} kept={keptTopics(c.channel_id)} />}</For>
          </ul>
        </Show>
      </Show>
      <PeopleList />
    </nav>
  );
}
