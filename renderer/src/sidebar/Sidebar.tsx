/**
 * Channels → topics with unread counts. Clicking a channel opens the channel narrow (and unfolds
 * its topics); clicking a topic opens the topic narrow. Muted channels and topics are dimmed.
 */
import { createSignal, For, Show } from 'solid-js';
import type { ChannelSummary } from '../../../sync/protocol/commands.js';
import { isTopicMuted } from './channels-reducer.js';
import { topicLabel } from '../narrow/format.js';
import { useChannels } from './store.js';
import { useNarrow } from '../narrow/store.js';
import { UnreadBadge } from './UnreadBadge.js';
import './sidebar.css';

/** Topics shown before "Show all". */
const FIRST_TOPICS = 8;

function ChannelRow(props: { channel: ChannelSummary }) {
  const narrow = useNarrow();
  const [showAll, setShowAll] = createSignal(false);
  const target = () => narrow.state.view?.target;
  const isOpen = () => target()?.channelId === props.channel.channel_id;
  const isChannelNarrow = () => isOpen() && target()?.kind === 'channel';
  const isTopicNarrow = (topic: string) => {
    const t = target();
    return t?.kind === 'topic' && t.channelId === props.channel.channel_id && t.topic === topic;
  };
  const topics = () => (showAll() ? props.channel.topics : props.channel.topics.slice(0, FIRST_TOPICS));
  return (
    <li classList={{ channel: true, muted: props.channel.is_muted, open: isOpen() }}>
      <div class="row">
        <button
          type="button"
          class="row-button channel-button"
          aria-current={isChannelNarrow() ? 'page' : undefined}
          aria-expanded={isOpen()}
          onClick={() => narrow.open({ kind: 'channel', channelId: props.channel.channel_id, channelName: props.channel.name })}
        >
          <span class="swatch" aria-hidden="true" style={props.channel.color ? { 'background-color': props.channel.color } : undefined} />
          <span class="row-name">{props.channel.name}</span>
        </button>
        <UnreadBadge count={props.channel.unread_count} />
      </div>
      <Show when={isOpen()}>
        <ul class="topic-list" aria-label={`Topics in ${props.channel.name}`}>
          <For each={topics()}>
            {(t) => (
              <li classList={{ topic: true, muted: isTopicMuted(props.channel, t) }}>
                <div class="row">
                  <button
                    type="button"
                    class="row-button topic-button"
                    classList={{ 'empty-topic': t.topic === '' }}
                    aria-current={isTopicNarrow(t.topic) ? 'page' : undefined}
                    onClick={() => narrow.open({ kind: 'topic', channelId: props.channel.channel_id, channelName: props.channel.name, topic: t.topic })}
                  >
                    <span class="row-name">{topicLabel(t.topic)}</span>
                  </button>
                  <UnreadBadge count={t.unread_count} />
                </div>
              </li>
            )}
          </For>
          <Show when={props.channel.topics.length > FIRST_TOPICS}>
            <li>
              <button type="button" class="link-button" onClick={() => setShowAll(!showAll())}>
                {showAll() ? 'Show fewer topics' : `Show all ${props.channel.topics.length} topics`}
              </button>
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
  return (
    <nav class="sidebar" aria-label="Channels">
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
