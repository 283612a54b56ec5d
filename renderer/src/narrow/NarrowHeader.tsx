/** The open narrow's header: its title, Mark as read for a topic with unreads, and the topic's menu. */
import { Show } from 'solid-js';
import { bridge as defaultBridge, type Bridge } from '../core/bridge.js';
import { TopicMenu } from '../sidebar/TopicMenu.js';
import { Button } from '../kit/Button.js';
import { ErrorText } from '../kit/ErrorText.js';
import { useCommand } from '../kit/command.js';
import { topicUnread } from '../data/channels-reducer.js';
import { useChannels } from '../data/channels.js';
import type { ViewState } from '../data/narrow-reducer.js';
import type { NarrowTarget } from '../data/target.js';
import { viewTitle, type Names } from './titles.js';

/**
 * "Mark as read" for a topic with unread messages (the contract marks whole topics only, so a
 * channel narrow offers none). The engine applies it at once and tells the sidebar, whose count
 * (and with it this button) goes away; offline it waits in the outbox like any change.
 */
function MarkRead(props: { channelId: number; topic: string; bridge?: Bridge }) {
  const channels = useChannels();
  const unread = () => topicUnread(channels.state.channels, props.channelId, props.topic);
  const markRead = useCommand(() =>
    (props.bridge ?? defaultBridge)
      .invoke('markTopicAsRead', { channel_id: props.channelId, topic: props.topic })
      // Without waiting for the debounced refetch an area event would bring: the count drops now.
      .then(() => channels.refresh()),
  );
  return (
    <div class="narrow-actions">
      <Show when={unread() > 0}>
        <Button size="small" disabled={markRead.busy()} onClick={() => void markRead.run()}>
          Mark as read
        </Button>
      </Show>
      <ErrorText inline message={markRead.error()} />
    </div>
  );
}

export function Header(props: { view: ViewState; names: Names }) {
  const title = () => viewTitle(props.view.target, props.names);
  return (
    <header class="narrow-header">
      <h1 class="narrow-title">
        <Show when={title().channel !== null} fallback={<span class="narrow-name">{title().text}</span>}>
          <span class="narrow-channel">{title().channel}</span>
          <Show when={title().topic !== null}>
            <span class="narrow-sep">{' › '}</span>
            <span class="narrow-topic">{title().topic}</span>
          </Show>
        </Show>
      </h1>
      <Show when={markReadTarget(props.view.target)} keyed>
        {(c) => <MarkRead channelId={c.channelId} topic={c.topic} />}
      </Show>
      <HeaderTopicMenu view={props.view} />
    </header>
  );
}

/**
 * A new object only when the topic changes (the store updates the target in place), so the keyed
 * Show remounts per topic; null for anything but a topic.
 */
const markReadTarget = (t: NarrowTarget) => (t.kind === 'topic' ? { channelId: t.channelId, topic: t.topic } : null);

/** The open topic's menu (actions/, sidebar/TopicMenu.tsx), with what the sidebar knows of the topic. */
function HeaderTopicMenu(props: { view: ViewState }) {
  const channels = useChannels();
  const info = () => {
    const t = props.view.target;
    if (t.kind !== 'topic') return null;
    const c = channels.byId(t.channelId);
    const key = t.topic.toLowerCase();
    const summary = c?.topics.find((x) => x.topic.toLowerCase() === key);
    const last = props.view.messages[props.view.messages.length - 1];
    return { t, c, visibility: summary?.visibility_policy ?? 0, messageId: summary?.max_message_id ?? last?.id ?? null };
  };
  return (
    <Show when={info()}>
      {(i) => (
        <TopicMenu
          channelId={i().t.channelId}
          channelName={i().c?.name ?? i().t.channelName}
          channelMuted={i().c?.is_muted ?? false}
          topic={i().t.topic}
          visibility={i().visibility}
          messageId={i().messageId}
          class="header-menu"
        />
      )}
    </Show>
  );
}
