/** The open narrow's messages: windowed, with day separators and a heading over each conversation's run. */
import { createEffect, createMemo, For, on, onCleanup, onMount, Show, untrack } from 'solid-js';
import type { LocalMessage } from '../../../sync/protocol/messages.js';
import type { EditStore } from '../compose/edit-store.js';
import { Button } from '../kit/Button.js';
import { ErrorText } from '../kit/ErrorText.js';
import { createWindowedList } from '../kit/windowed-list.js';
import { useOutbox } from '../data/outbox.js';
import { useUsers } from '../data/users.js';
import { senderName } from '../kit/format.js';
import { continuesSender, dayLabel, firstUnreadId, startsDay } from './list-layout.js';
import { MessageItem } from './MessageItem.js';
import { RecipientLabel } from './RecipientLabel.js';
import { searchMatcher } from '../../../common/search.js';
import { canLoad, dmPeers, recipientLabel, startsRecipientRun, type ViewState } from '../data/narrow-reducer.js';
import { useNarrow } from '../data/narrow.js';
import { hashOfTarget, searchTextOf, type NarrowTarget } from '../data/target.js';
import { useReading } from './use-reading.js';
import type { Names } from './titles.js';

/** How close to an edge counts as "at" it, in CSS pixels. */
const EDGE_PX = 48;

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
const NO_MESSAGES: readonly LocalMessage[] = [];
/** Messages added or gone between two compactions of the store (NarrowStore.compact). */
const COMPACT_EVERY = 200;

/**
 * One view's list. It may be kept while other views show (NarrowView, kit/kept-views.ts): `view`
 * is that view's own store object, unchanged meanwhile; `shown` says whether it is in the document.
 */
export function Messages(props: { view: ViewState; shown: () => boolean; edit: EditStore; names: Names }) {
  const narrow = useNarrow();
  const users = useUsers();
  const outbox = useOutbox();
  let scroller: HTMLDivElement | undefined;
  let list: HTMLOListElement | undefined;
  // Ids and positions come from the plain view (narrow.plainOf): read through the store, every
  // message of a long view would carry signals of its own.
  const plainMessages = createMemo<readonly LocalMessage[]>(() => narrow.plainOf(props.view)?.messages ?? NO_MESSAGES);
  const ids = createMemo(() => plainMessages().map((m) => m.id));
  // Only the messages near the viewport are in the DOM, however long the view.
  const win = createWindowedList<LocalMessage>({ items: () => props.view.messages, keys: ids, key: (m) => m.id, estimate: ESTIMATE_PX, overscan: OVERSCAN_PX, firstOverscan: FIRST_OVERSCAN_PX, edge: EDGE_PX });
  onMount(() => {
    if (scroller && list) win.attach(scroller, list);
  });
  createEffect(on(props.shown, (on) => win.shown(on), { defer: true }));
  // Seen messages are marked read; the keyboard's selected message is shown (use-reading.ts).
  const reading = useReading({ view: () => props.view, messages: plainMessages, shown: props.shown, scroller: () => scroller, list: () => list, win });
  /** Position in the whole view, by id (the window shows a slice). */
  const indexById = createMemo(() => new Map(ids().map((id, i) => [id, i])));

  const onScroll = () => {
    if (!scroller || !props.shown()) return;
    win.onScroll();
    reading.onScroll();
    if (scroller.scrollTop < EDGE_PX && canLoad(props.view, 'older')) narrow.loadOlder();
    if (win.atBottom() && props.view.target.near !== undefined && canLoad(props.view, 'newer')) narrow.loadNewer();
  };

  // A view starts at its first unread message (as Zulip's views open at "first unread"), else at
  // the bottom, or centred on its anchor (marked) when it opened at a message: placed before its
  // first rows render (one list per view: NarrowView), and again once when its first messages
  // arrive after an empty opening state or its anchor resolves.
  const place = (anchorId: number | null) => {
    const unread = anchorId === null ? firstUnreadId(props.view.messages) : null;
    if (anchorId !== null) win.jumpTo(anchorId);
    else if (unread !== null && unread !== props.view.messages[props.view.messages.length - 1]?.id) win.jumpTo(unread);
    else win.toBottom();
  };
  untrack(() => place(props.view.anchorId));
  createEffect(
    on(
      () => [props.view.anchorId, props.view.messages.length === 0] as const,
      ([anchorId, empty], prev) => {
        // The first run is the list's creation (placed above already).
        if (prev === undefined || (prev[0] === anchorId && (empty || !prev[1]))) return;
        untrack(() => place(anchorId));
      },
    ),
  );

  // Once a page of messages has landed, what rows left behind on messages scrolled past goes
  // (NarrowStore.compact): a long history keeps its messages, not the rows' signals.
  let compactedAt = 0;
  createEffect(
    on(
      () => props.view.messages.length,
      (n) => {
        if (Math.abs(n - compactedAt) < COMPACT_EVERY) return;
        compactedAt = n;
        queueMicrotask(() => narrow.compact(new Set(untrack(win.visible).map((m) => m.id))));
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
  // Compiled once per search, for every heading.
  const searchText = createMemo(() => searchTextOf(props.view.target));
  const matcher = createMemo(() => {
    const search = searchText();
    return search === null ? null : searchMatcher(search);
  });
  /** Register a row's element for measuring, for as long as it is rendered. */
  const measured = (id: number) => (el: HTMLElement) => {
    const off = win.measure(id, el);
    onCleanup(off);
  };
  return (
    <div class="message-scroll" ref={scroller} onScroll={onScroll}>
      <Show when={props.view.phase === 'open' && !props.view.before.found_end && props.view.messages.length > 0}>
        <Show when={!props.view.olderWaits} fallback={<WaitsNote side="Older" />}>
          <Button variant="link" class="load-older" disabled={props.view.loadingOlder} onClick={() => narrow.loadOlder()}>
            {props.view.loadingOlder ? 'Loading older messages…' : 'Load older messages'}
          </Button>
        </Show>
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
                      <Show when={conversationOf(m, users.state.ownUserId)} fallback={<RecipientLabel label={label()} message={m} matcher={matcher()} />}>
                        {(t) => (
                          <a href={hashOfTarget(t(), props.names.userName)}>
                            <RecipientLabel label={label()} message={m} matcher={matcher()} />
                          </a>
                        )}
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
                  highlight={searchText()}
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
        <Show when={!props.view.newerWaits} fallback={<WaitsNote side="Newer" />}>
          <Button variant="link" class="load-older" disabled={props.view.loadingNewer} onClick={() => narrow.loadNewer()}>
            {props.view.loadingNewer ? 'Loading newer messages…' : 'Load newer messages'}
          </Button>
        </Show>
      </Show>
      <Show when={props.view.messages.length === 0}>
        <p class="hint empty">
          {props.view.phase === 'opening' ? 'Loading messages…' : props.view.phase === 'waiting' ? 'Waiting for the first sync to finish…' : props.view.phase === 'open' ? 'No messages here yet.' : ''}
        </p>
      </Show>
      <ErrorText message={props.view.phase === 'error' ? props.view.error : null} />
    </div>
  );
}

/** Where a page the device does not have waits for the connection (then it loads by itself). */
function WaitsNote(props: { side: 'Older' | 'Newer' }) {
  return (
    <p class="hint load-waits" role="status">
      {props.side} messages will load when the connection is back.
    </p>
  );
}
