/**
 * The open narrow: a header (channel › topic, Mark as read for a topic with unreads), then the messages, oldest first, and under a topic
 * the composer. Scrolling to the top loads older messages (the position is kept when they land
 * above); new messages scroll into view only if the reader was already at the bottom.
 */
import { createEffect, createSignal, For, on, Show } from 'solid-js';
import { bridge as defaultBridge, type Bridge } from '../core/bridge.js';
import { topicUnread } from '../sidebar/channels-reducer.js';
import { senderName, topicLabel } from './format.js';
import { canLoadOlder, startsTopicRun, topicOf, type ViewState } from './narrow-reducer.js';
import { createEditStore, type EditStore } from '../compose/edit-store.js';
import { errorText } from '../core/errors.js';
import { useChannels } from '../sidebar/store.js';
import { useNarrow } from './store.js';
import { useOutbox } from '../outbox/store.js';
import { useUsers } from '../users/store.js';
import { Composer } from '../compose/Composer.js';
import { MessageItem } from './MessageItem.js';
import { Button } from '../kit/Button.js';
import './narrow.css';

/** How close to an edge counts as "at" it, in CSS pixels. */
const EDGE_PX = 48;

/**
 * "Mark as read" for a topic with unread messages (the contract marks whole topics only, so a
 * channel narrow offers none). The engine applies it at once and tells the sidebar, whose count
 * (and with it this button) goes away; offline it waits in the outbox like any change.
 */
function MarkRead(props: { channelId: number; topic: string; bridge?: Bridge }) {
  const channels = useChannels();
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  const unread = () => topicUnread(channels.state.channels, props.channelId, props.topic);
  const markRead = () => {
    setBusy(true);
    setError(null);
    (props.bridge ?? defaultBridge)
      .invoke('markTopicRead', { channel_id: props.channelId, topic: props.topic })
      // Without waiting for the debounced refetch an area event would bring: the count drops now.
      .then(() => channels.refresh())
      .catch((e: unknown) => setError(errorText(e)))
      .finally(() => setBusy(false));
  };
  return (
    <div class="narrow-actions">
      <Show when={unread() > 0}>
        <Button size="small" disabled={busy()} onClick={markRead}>
          Mark as read
        </Button>
      </Show>
      <Show when={error()}>
        <span class="error" role="alert">
          {error()}
        </span>
      </Show>
    </div>
  );
}

function Header(props: { view: ViewState }) {
  const t = () => props.view.target;
  return (
    <header class="narrow-header">
      <h1 class="narrow-title">
        <span class="narrow-channel">{t().channelName}</span>
        <Show when={topicOf(t()) !== null}>
          <span class="narrow-sep">{' › '}</span>
          <span class="narrow-topic">{topicLabel(topicOf(t()) ?? '')}</span>
        </Show>
      </h1>
      <Show when={composerTarget(t())} keyed>
        {(c) => <MarkRead channelId={c.channelId} topic={c.topic} />}
      </Show>
    </header>
  );
}

function Messages(props: { view: ViewState; edit: EditStore }) {
  const narrow = useNarrow();
  const users = useUsers();
  const outbox = useOutbox();
  let scroller: HTMLDivElement | undefined;
  let atBottom = true;
  let fromBottom = 0;

  const onScroll = () => {
    if (!scroller) return;
    atBottom = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < EDGE_PX;
    fromBottom = scroller.scrollHeight - scroller.scrollTop;
    if (scroller.scrollTop < EDGE_PX && canLoadOlder(props.view)) narrow.loadOlder();
  };

  // A new view starts at the bottom.
  createEffect(
    on(
      () => props.view.key,
      () => {
        atBottom = true;
        queueMicrotask(() => scroller && (scroller.scrollTop = scroller.scrollHeight));
      },
    ),
  );

  // Older messages landed above: keep the reader where they were. Newer ones: follow if at the bottom.
  createEffect(
    on(
      () => [props.view.messages[0]?.id, props.view.messages[props.view.messages.length - 1]?.id] as const,
      ([first, last], prev) => {
        if (!scroller) return;
        const [prevFirst, prevLast] = prev ?? [undefined, undefined];
        if (prevFirst !== undefined && first !== undefined && first < prevFirst && last === prevLast) {
          scroller.scrollTop = scroller.scrollHeight - fromBottom;
        } else if (atBottom) {
          scroller.scrollTop = scroller.scrollHeight;
        }
        fromBottom = scroller.scrollHeight - scroller.scrollTop;
      },
    ),
  );

  const showTopics = () => props.view.target.kind === 'channel';
  return (
    <div class="message-scroll" ref={scroller} onScroll={onScroll}>
      <Show when={props.view.phase === 'open' && !props.view.before.found_end && props.view.messages.length > 0}>
        <Button variant="link" class="load-older" disabled={props.view.loadingOlder} onClick={() => narrow.loadOlder()}>
          {props.view.loadingOlder ? 'Loading older messages…' : 'Load older messages'}
        </Button>
      </Show>
      <Show when={props.view.before.found_end && props.view.messages.length > 0}>
        <p class="hint start-marker">This is the beginning of the conversation.</p>
      </Show>
      <ol class="message-list" aria-label="Message list">
        <For each={props.view.messages}>
          {(m, i) => (
            <>
              <Show when={showTopics() && startsTopicRun(props.view.messages, i())}>
                <li class="topic-run" aria-hidden="true">
                  {topicLabel(m.topic)}
                </li>
              </Show>
              <MessageItem
                message={m}
                sender={senderName(m, users.byId())}
                ownUserId={users.state.ownUserId}
                kind={m.local.outbox_id === null ? undefined : outbox.kinds().get(m.local.outbox_id)}
                edit={props.edit}
              />
            </>
          )}
        </For>
      </ol>
      <Show when={props.view.messages.length === 0}>
        <p class="hint empty">
          {props.view.phase === 'opening' ? 'Loading messages…' : props.view.phase === 'waiting' ? 'Waiting for the first sync to finish…' : props.view.phase === 'open' ? 'No messages here yet.' : ''}
        </p>
      </Show>
      <Show when={props.view.phase === 'error' && props.view.error}>
        <p class="error" role="alert">
          {props.view.error}
        </p>
      </Show>
    </div>
  );
}

/**
 * Where the composer sends: a new object only when the topic changes (the store updates the target
 * in place), so the keyed Show below remounts the composer per topic; null for a whole channel.
 */
const composerTarget = (t: ViewState['target']) => (t.kind === 'topic' ? { channelId: t.channelId, topic: t.topic } : null);

export function NarrowView() {
  const narrow = useNarrow();
  const edit = createEditStore();
  return (
    <section class="narrow" aria-label="Conversation">
      <Show
        when={narrow.state.view}
        fallback={
          <div class="narrow-empty">
            <p>Pick a channel or a topic on the left.</p>
          </div>
        }
      >
        {(v) => (
          <>
            <Header view={v()} />
            <Messages view={v()} edit={edit} />
            {/* Keyed by the topic: another topic gets a fresh composer (a half-typed text never goes elsewhere). */}
            <Show when={composerTarget(v().target)} keyed>
              {(t) => <Composer channelId={t.channelId} topic={t.topic} />}
            </Show>
          </>
        )}
      </Show>
    </section>
  );
}
