/**
 * The open narrow: a header (its title; Mark as read for a topic with unreads), then the messages,
 * oldest first, with a heading (a link to that conversation) over each run of one conversation in
 * views across conversations (a search answered from the device alone says so), who is typing in the conversation (TypingLine.tsx), and the compose area (compose/ComposeArea.tsx). The list is
 * windowed (kit/windowed-list.ts): only messages near the viewport are in the DOM. Scrolling to the
 * top loads older messages (the reader's place is kept when they land above); a view opened at a
 * message (`near`) centres it, marks it, and loads newer messages at the bottom; otherwise new
 * messages scroll into view only if the reader was already at the bottom.
 */
import { createEffect, createMemo, createSignal, For, on, onCleanup, onMount, Show, untrack } from 'solid-js';
import type { LocalMessage } from '../../../sync/protocol/messages.js';
import { ComposeArea } from '../compose/ComposeArea.js';
import { bridge as defaultBridge, type Bridge } from '../core/bridge.js';
import { errorText } from '../core/errors.js';
import { createEditStore, type EditStore } from '../compose/edit-store.js';
import { useActions } from '../actions/store.js';
import { TopicMenu } from '../sidebar/TopicMenu.js';
import { Button } from '../kit/Button.js';
import { createWindowedList } from '../kit/windowed-list.js';
import { useOutbox } from '../data/outbox.js';
import { topicUnread } from '../data/channels-reducer.js';
import { useChannels } from '../data/channels.js';
import { useUsers } from '../data/users.js';
import { senderName } from '../kit/format.js';
import { continuesSender, dayLabel, firstUnreadId, startsDay } from './list-layout.js';
import { MessageItem } from './MessageItem.js';
import { TypingLine } from './TypingLine.js';
import { useStatus } from '../data/status.js';
import { canLoadNewer, canLoadOlder, dmPeers, recipientLabel, searchIsPartial, startsRecipientRun, type ViewState } from '../data/narrow-reducer.js';
import { useNarrow } from '../data/narrow.js';
import { hashOfTarget, type NarrowTarget } from '../data/target.js';
import { useReading } from './use-reading.js';
import { viewTitle, type Names } from './titles.js';
import './narrow.css';

/** How close to an edge counts as "at" it, in CSS pixels. */
const EDGE_PX = 48;

/** Names for titles and headings, from the channels and users stores. */
function useNames(): Names {
  const channels = useChannels();
  const users = useUsers();
  return {
    channelName: (id) => channels.byId(id)?.name,
    userName: (id) => users.byId().get(id)?.full_name,
    get ownUserId() {
      return users.state.ownUserId;
    },
  };
}

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

function Header(props: { view: ViewState; names: Names }) {
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

/** The view of the conversation a message belongs to (its recipient heading links there). */
function conversationOf(m: LocalMessage, ownUserId: number | null): NarrowTarget | null {
  if (m.type === 'channel') return m.channel_id === null ? null : { kind: 'topic', channelId: m.channel_id, channelName: m.channel_name ?? '', topic: m.topic };
  return { kind: 'dm', userIds: dmPeers(m, ownUserId) };
}

/**
 * Rows rendered beyond each edge of the viewport (in a new view's first frame only what is on
 * screen: the rest follows right after it is painted), and the height assumed before measuring.
 */
const OVERSCAN_PX = 800;
const FIRST_OVERSCAN_PX = 160;
const ESTIMATE_PX = 72;

function Messages(props: { view: ViewState; edit: EditStore; names: Names }) {
  const narrow = useNarrow();
  const users = useUsers();
  const outbox = useOutbox();
  let scroller: HTMLDivElement | undefined;
  let list: HTMLOListElement | undefined;
  // Only the messages near the viewport are in the DOM, however long the view.
  const win = createWindowedList<LocalMessage>({ items: () => props.view.messages, key: (m) => m.id, estimate: ESTIMATE_PX, overscan: OVERSCAN_PX, firstOverscan: FIRST_OVERSCAN_PX, edge: EDGE_PX });
  onMount(() => {
    if (scroller && list) win.attach(scroller, list);
  });
  // Seen messages are marked read; the keyboard's selected message is shown (use-reading.ts).
  const reading = useReading({ view: () => props.view, scroller: () => scroller, list: () => list, win });
  /** Position in the whole view, by id (the window shows a slice). */
  const indexById = createMemo(() => new Map(props.view.messages.map((m, i) => [m.id, i])));

  const onScroll = () => {
    if (!scroller) return;
    win.onScroll();
    reading.onScroll();
    if (scroller.scrollTop < EDGE_PX && canLoadOlder(props.view)) narrow.loadOlder();
    if (win.atBottom() && props.view.target.near !== undefined && canLoadNewer(props.view)) narrow.loadNewer();
  };

  // A new view starts at its first unread message (as Zulip's views open at "first unread"), else
  // at the bottom, or centred on its anchor (marked) when it opened at a message. Placed again once
  // when its first messages arrive after an empty opening state.
  createEffect(
    on(
      () => [props.view.key, props.view.anchorId, props.view.messages.length === 0] as const,
      ([, anchorId, empty], prev) => {
        if (prev && prev[0] === props.view.key && prev[1] === anchorId && (empty || !prev[2])) return;
        win.reset();
        const unread = anchorId === null ? untrack(() => firstUnreadId(props.view.messages)) : null;
        if (anchorId !== null) win.jumpTo(anchorId);
        else if (unread !== null && unread !== props.view.messages[props.view.messages.length - 1]?.id) win.jumpTo(unread);
        else win.toBottom();
      },
    ),
  );

  // The user's own new message (its local echo) brings the view to the bottom, wherever they were.
  createEffect(
    on(
      () => props.view.messages[props.view.messages.length - 1],
      (last, prev) => {
        if (last && prev && last.id !== prev.id && last.sender_id === users.state.ownUserId && last.local.status === 'pending') win.toBottom();
      },
    ),
  );

  const heading = (m: LocalMessage) => recipientLabel(m, props.view.target, users.state.ownUserId, (id, fallback) => props.names.userName(id) ?? fallback);
  const anchored = () => props.view.target.near !== undefined;
  /** Register a row's element for measuring, for as long as it is rendered. */
  const measured = (id: number) => (el: HTMLElement) => {
    const off = win.measure(id, el);
    onCleanup(off);
  };
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
      <ol class="message-list" aria-label="Message list" ref={list} onClick={reading.onClick}>
        <li class="virtual-pad" aria-hidden="true" style={{ height: `${win.window().padTop}px` }} />
        <For each={win.visible()}>
          {(m) => {
            const index = () => indexById().get(m.id) ?? 0;
            return (
              <>
                <Show when={startsDay(props.view.messages, index())}>
                  <li class="date-separator" ref={measured(m.id)}>
                    <span>{dayLabel(m.timestamp)}</span>
                  </li>
                </Show>
                <Show when={startsRecipientRun(props.view.messages, index()) && heading(m)}>
                  {(label) => (
                    <li class="recipient-run" ref={measured(m.id)}>
                      <Show when={conversationOf(m, users.state.ownUserId)} fallback={label()}>
                        {(t) => <a href={hashOfTarget(t(), props.names.userName)}>{label()}</a>}
                      </Show>
                    </li>
                  )}
                </Show>
                <MessageItem
                  message={m}
                  sender={senderName(m, users.byId())}
                  ownUserId={users.state.ownUserId}
                  kind={m.local.outbox_id === null ? undefined : outbox.kinds().get(m.local.outbox_id)}
                  edit={props.edit}
                  anchor={props.view.anchorId === m.id}
                  continued={continuesSender(props.view.messages, index())}
                  actions={win.complete()}
                  position={{ index: index() + 1, of: props.view.messages.length }}
                  ref={measured(m.id)}
                />
              </>
            );
          }}
        </For>
        <li class="virtual-pad" aria-hidden="true" style={{ height: `${win.window().padBottom}px` }} />
      </ol>
      <Show when={anchored() && props.view.phase === 'open' && !props.view.after.found_end && props.view.messages.length > 0}>
        <Button variant="link" class="load-older" disabled={props.view.loadingNewer} onClick={() => narrow.loadNewer()}>
          {props.view.loadingNewer ? 'Loading newer messages…' : 'Load newer messages'}
        </Button>
      </Show>
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

export function NarrowView() {
  const narrow = useNarrow();
  const names = useNames();
  const actions = useActions();
  const status = useStatus();
  const edit = createEditStore(defaultBridge, { onMoved: (req, from) => actions.moved(req, from) });
  onCleanup(() => edit.dispose());
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
            <Header view={v()} names={names} />
            <Show when={searchIsPartial(v(), status.isLive())}>
              <p class="search-partial" role="status">
                Showing messages on this device; the server may have more. Searches again when online.
              </p>
            </Show>
            <Messages view={v()} edit={edit} names={names} />
            <TypingLine target={v().target} />
            <ComposeArea />
          </>
        )}
      </Show>
    </section>
  );
}
