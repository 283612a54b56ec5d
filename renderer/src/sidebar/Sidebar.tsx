/**
 * The left sidebar: the views (inbox with the unread total, recent conversations, combined feed,
 * starred messages and mentions with their counts), direct-message conversations, then channels →
 * topics with unread counts (the open channel shows its cached topics, and "More topics" asks the
 * engine for the channel's complete list). Every row is a link to its Zulip URL fragment, so
 * clicking it moves the app (and Back / Forward / reload keep the place); the open channel unfolds
 * its topics. Muted channels and topics are dimmed. Each channel and topic row has a menu of its
 * actions (TopicMenu.tsx), shown on hover and reachable with the keyboard.
 */
import { createSignal, For, onCleanup, Show } from 'solid-js';
import { QUERY_AREAS, type ChannelSummary, type ChannelTopicsView } from '../../../sync/protocol/commands.js';
import { createAreaQuery } from '../core/area-query-store.js';
import { bridge } from '../core/bridge.js';
import { dmNames, dmTarget } from '../data/dms.js';
import { useHome } from '../data/home.js';
import { Button } from '../kit/Button.js';
import { topicLabel } from '../kit/format.js';
import { useNarrow } from '../data/narrow.js';
import { channelOfTarget, hashOfTarget, sameTarget, type NarrowTarget } from '../data/target.js';
import { useRouter } from '../router/router.js';
import { useUsers } from '../data/users.js';
import { NavViewsList } from '../navviews/NavViewsList.js';
import { isTopicMuted } from '../data/channels-reducer.js';
import { useChannels } from '../data/channels.js';
import { UnreadBadge } from '../kit/UnreadBadge.js';
import { ChannelMenu, TopicMenu } from './TopicMenu.js';
import './sidebar.css';

/** Topics shown before "Show all". */
const FIRST_TOPICS = 8;

/** Direct-message conversations shown before "More conversations". */
const FIRST_DMS = 8;

/**
 * A channel's complete topic list (`channelTopics`), kept current while shown: re-run on the areas
 * `QUERY_AREAS.channelTopics` names.
 */
function AllTopics(props: { channelId: number; children: (v: ChannelTopicsView | null, error: string | null) => import('solid-js').JSX.Element }) {
  const q = createAreaQuery<ChannelTopicsView | null>(bridge, {
    fetch: () => bridge.invoke('channelTopics', { channel_id: props.channelId }),
    areas: QUERY_AREAS.channelTopics,
    debounceMs: 150,
    initial: null,
    key: 'topic',
  });
  onCleanup(q.dispose);
  return <>{props.children(q.state.data, q.state.error)}</>;
}

function TopicRow(props: { channel: ChannelSummary; topic: { topic: string; unread_count: number; visibility_policy: number; max_message_id: number }; current: boolean }) {
  const t = () => props.topic;
  return (
    <li classList={{ topic: true, muted: isTopicMuted(props.channel, t()) }}>
      <div class="row">
        <a
          class="row-button topic-button"
          classList={{ 'empty-topic': t().topic === '' }}
          href={hashOfTarget({ kind: 'topic', channelId: props.channel.channel_id, channelName: props.channel.name, topic: t().topic })}
          aria-current={props.current ? 'page' : undefined}
        >
          <span class="row-name">{topicLabel(t().topic)}</span>
        </a>
        <UnreadBadge count={t().unread_count} />
        <TopicMenu
          channelId={props.channel.channel_id}
          channelName={props.channel.name}
          channelMuted={props.channel.is_muted}
          topic={t().topic}
          visibility={t().visibility_policy}
          messageId={t().max_message_id}
        />
      </div>
    </li>
  );
}

function ChannelRow(props: { channel: ChannelSummary }) {
  const narrow = useNarrow();
  const [showAll, setShowAll] = createSignal(false);
  const target = () => narrow.state.view?.target;
  const isOpen = () => {
    const t = target();
    return t !== undefined && channelOfTarget(t)?.channelId === props.channel.channel_id;
  };
  const isChannelNarrow = () => isOpen() && target()?.kind === 'channel';
  const isTopicNarrow = (topic: string) => {
    const t = target();
    return t?.kind === 'topic' && t.channelId === props.channel.channel_id && t.topic === topic;
  };
  const shortList = () => props.channel.topics.slice(0, FIRST_TOPICS);
  return (
    <li classList={{ channel: true, muted: props.channel.is_muted, open: isOpen() }}>
      <div class="row">
        <a
          class="row-button channel-button"
          href={hashOfTarget({ kind: 'channel', channelId: props.channel.channel_id, channelName: props.channel.name })}
          aria-current={isChannelNarrow() ? 'page' : undefined}
          aria-expanded={isOpen()}
        >
          <span class="swatch" aria-hidden="true" style={props.channel.color ? { 'background-color': props.channel.color } : undefined} />
          <span class="row-name">{props.channel.name}</span>
        </a>
        <UnreadBadge count={props.channel.unread_count} />
        <ChannelMenu channelId={props.channel.channel_id} name={props.channel.name} />
      </div>
      <Show when={isOpen()}>
        <ul class="topic-list" aria-label={`Topics in ${props.channel.name}`}>
          <Show when={showAll()} fallback={<For each={shortList()}>{(t) => <TopicRow channel={props.channel} topic={t} current={isTopicNarrow(t.topic)} />}</For>}>
            <AllTopics channelId={props.channel.channel_id}>
              {(all, error) => (
                <>
                  <For each={all?.topics ?? props.channel.topics}>{(t) => <TopicRow channel={props.channel} topic={t} current={isTopicNarrow(t.topic)} />}</For>
                  <Show when={error}>{(e) => <li class="hint">Could not list every topic: {e()}</li>}</Show>
                  <Show when={all !== null && !all.complete}>
                    <li class="hint">Older topics may be missing until the server can be asked.</li>
                  </Show>
                </>
              )}
            </AllTopics>
          </Show>
          <Show when={props.channel.topics.length === 0 && !showAll()}>
            <li class="hint">No topics yet</li>
          </Show>
          <li>
            <Button variant="link" onClick={() => setShowAll(!showAll())} aria-expanded={showAll()}>
              {showAll() ? 'Fewer topics' : 'More topics'}
            </Button>
          </li>
        </ul>
      </Show>
    </li>
  );
}

/** A link of the "Manage" list (the screens that are not message lists). */
export interface ManageLink {
  section: string;
  label: string;
  href: string;
}

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
  const viewIsOpen = (t: NarrowTarget) => sameTarget(narrow.state.view?.target, t);
  return (
    <nav class="sidebar" aria-label="Channels">
      <NavViewsList />
      <ul class="manage-list" aria-label="Manage">
        <For each={props.manage}>
          {(s) => (
            <li>
              <a class={`row-button view-button sidebar-${s.section}`} href={s.href} aria-current={isSectionOpen(s.section) ? 'page' : undefined}>
                {s.label}
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
                    <a class="row-button dm-button" href={hashOfTarget(target(), userName)} aria-current={viewIsOpen(target()) ? 'page' : undefined}>
                      <span class="row-name">{dmNames(d)}</span>
                    </a>
                    <UnreadBadge count={d.unread_count} />
                  </div>
                </li>
              );
            }}
          </For>
          <Show when={home.dms().length > FIRST_DMS}>
            <li>
              <Button variant="link" onClick={() => setAllDms(!allDms())} aria-expanded={allDms()}>
                {allDms() ? 'Fewer conversations' : 'More conversations'}
              </Button>
            </li>
          </Show>
        </ul>
      </Show>
      <h2 class="sidebar-title">Channels</h2>
      <Show when={channels.state.loaded} fallback={<p class="hint">Loading channels…</p>}>
        <Show when={channels.state.channels.length > 0} fallback={<p class="hint">No channels yet. They appear once the first sync is done.</p>}>
          <ul class="channel-list">
            <For each={channels.state.channels}>{(c) => <ChannelRow channel={c} />}</For>
          </ul>
        </Show>
      </Show>
    </nav>
  );
}
