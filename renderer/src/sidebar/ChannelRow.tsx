/** A channel of the sidebar: its row with count and menu; open, its topics (the first few, or all of them). */
import { createSignal, For, Show, type JSX } from 'solid-js';
import { QUERY_AREAS, type ChannelSummary, type ChannelTopicsView } from '../../../sync/protocol/commands.js';
import { useAreaQuery } from '../core/area-query-store.js';
import { bridge } from '../core/bridge.js';
import { MoreToggle } from './MoreToggle.js';
import { topicLabel } from '../kit/format.js';
import { useNarrow } from '../data/narrow.js';
import { hashOfTarget } from '../data/target.js';
import { isTopicMuted } from '../data/channels-reducer.js';
import { UnreadBadge } from '../kit/UnreadBadge.js';
import { ChannelMenu, TopicMenu } from './TopicMenu.js';

/** Topics shown before "Show all". */
const FIRST_TOPICS = 8;

/**
 * A channel's complete topic list (`channelTopics`), kept current while shown: re-run on the areas
 * `QUERY_AREAS.channelTopics` names.
 */
function AllTopics(props: { channelId: number; children: (v: ChannelTopicsView | null, error: string | null) => JSX.Element }) {
  const state = useAreaQuery<ChannelTopicsView | null>(bridge, {
    fetch: () => bridge.invoke('channelTopics', { channel_id: props.channelId }),
    areas: QUERY_AREAS.channelTopics,
    debounceMs: 150,
    initial: null,
    key: 'topic',
  });
  return <>{props.children(state.data, state.error)}</>;
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
/**
 * `kept`: the channel was opened lately (Sidebar keeps the last few): its topic list stays made,
 * hidden, once it closes, so opening it again builds nothing (a switch between topics of two
 * channels built eight rows and tore eight down).
 */
export function ChannelRow(props: { channel: ChannelSummary; kept: boolean }) {
  const narrow = useNarrow();
  const [showAll, setShowAll] = createSignal(false);
  const target = () => narrow.state.view?.target;
  // Only the rows of the channel opened and of the one left re-run on a switch (a selector).
  const isOpen = () => narrow.opensChannel(props.channel.channel_id);
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
        <ChannelMenu channel={props.channel} />
      </div>
      <Show when={isOpen() || props.kept}>
        <ul class="topic-list" aria-label={`Topics in ${props.channel.name}`} hidden={!isOpen()}>
          <Show when={showAll() && isOpen()} fallback={<For each={shortList()}>{(t) => <TopicRow channel={props.channel} topic={t} current={isTopicNarrow(t.topic)} />}</For>}>
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
          <MoreToggle what="topics" open={showAll()} onToggle={() => setShowAll(!showAll())} />
        </ul>
      </Show>
    </li>
  );
}
