/**
 * The left sidebar: the views across conversations (combined feed, starred messages, mentions),
 * then channels → topics with unread counts. Every row is a link to its Zulip URL fragment, so
 * clicking it moves the app (and Back / Forward / reload keep the place); the open channel unfolds
 * its topics. Muted channels and topics are dimmed. Each channel and topic row has a menu of its
 * actions (TopicMenu.tsx), shown on hover and reachable with the keyboard.
 */
import { createSignal, For, Show } from 'solid-js';
import type { ChannelSummary } from '../../../sync/protocol/commands.js';
import { Button } from '../kit/Button.js';
import { topicLabel } from '../narrow/format.js';
import { useNarrow } from '../narrow/store.js';
import { channelOfTarget, hashOfTarget, sameTarget, type NarrowTarget } from '../narrow/target.js';
import { isTopicMuted } from './channels-reducer.js';
import { useChannels } from './store.js';
import { UnreadBadge } from './UnreadBadge.js';
import { ChannelMenu, TopicMenu } from './TopicMenu.js';
import './sidebar.css';

/** Topics shown before "Show all". */
const FIRST_TOPICS = 8;

const VIEWS: { label: string; target: NarrowTarget }[] = [
  { label: 'Combined feed', target: { kind: 'feed' } },
  { label: 'Starred messages', target: { kind: 'starred' } },
  { label: 'Mentions', target: { kind: 'mentioned' } },
];

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
  const topics = () => (showAll() ? props.channel.topics : props.channel.topics.slice(0, FIRST_TOPICS));
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
          <For each={topics()}>
            {(t) => (
              <li classList={{ topic: true, muted: isTopicMuted(props.channel, t) }}>
                <div class="row">
                  <a
                    class="row-button topic-button"
                    classList={{ 'empty-topic': t.topic === '' }}
                    href={hashOfTarget({ kind: 'topic', channelId: props.channel.channel_id, channelName: props.channel.name, topic: t.topic })}
                    aria-current={isTopicNarrow(t.topic) ? 'page' : undefined}
                  >
                    <span class="row-name">{topicLabel(t.topic)}</span>
                  </a>
                  <UnreadBadge count={t.unread_count} />
                  <TopicMenu
                    channelId={props.channel.channel_id}
                    channelName={props.channel.name}
                    channelMuted={props.channel.is_muted}
                    topic={t.topic}
                    visibility={t.visibility_policy}
                    messageId={t.max_message_id}
                  />
                </div>
              </li>
            )}
          </For>
          <Show when={props.channel.topics.length > FIRST_TOPICS}>
            <li>
              <Button variant="link" onClick={() => setShowAll(!showAll())}>
                {showAll() ? 'Show fewer topics' : `Show all ${props.channel.topics.length} topics`}
              </Button>
            </li>
          </Show>
          <Show when={props.channel.topics.length === 0}>
            <li class="hint">No topics yet</li>
          </Show>
        </ul>
      </Show>
    </li>
  );
}

export function Sidebar() {
  const channels = useChannels();
  const narrow = useNarrow();
  return (
    <nav class="sidebar" aria-label="Channels">
      <ul class="view-list" aria-label="Views">
        <For each={VIEWS}>
          {(v) => (
            <li class="view">
              <div class="row">
                <a class="row-button view-button" href={hashOfTarget(v.target)} aria-current={sameTarget(narrow.state.view?.target, v.target) ? 'page' : undefined}>
                  <span class="row-name">{v.label}</span>
                </a>
              </div>
            </li>
          )}
        </For>
      </ul>
      <a class="row-button view-button sidebar-scheduled" href="#scheduled">Scheduled messages</a>
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
