/**
 * The open narrow: a header (its title; Mark as read for a topic with unreads), then the messages,
 * oldest first, with a heading (a link to that conversation) over each run of one conversation in
 * views across conversations (a search answered from the device alone says so), who is typing in the conversation (TypingLine.tsx), and the compose area (compose/ComposeArea.tsx). The list is
 * windowed (kit/windowed-list.ts): only messages near the viewport are in the DOM. Scrolling to the
 * top loads older messages (the reader's place is kept when they land above); a view opened at a
 * message (`near`) centres it, marks it, and loads newer messages at the bottom; otherwise new
 * messages scroll into view only if the reader was already at the bottom.
 */
import { onCleanup, Show, untrack } from 'solid-js';
import { createKeptViews } from '../kit/kept-views.js';
import { cacheKey } from '../data/view-cache.js';
import { KEPT_VIEWS } from '../data/narrow-store.js';
import { ComposeArea } from '../compose/ComposeArea.js';
import { bridge as defaultBridge } from '../core/bridge.js';
import { createEditStore } from '../compose/edit-store.js';
import { useActions } from '../actions/store.js';
import { useChannels } from '../data/channels.js';
import { useUsers } from '../data/users.js';
import { TypingLine } from './TypingLine.js';
import { useStatus } from '../data/status.js';
import { searchIsPartial } from '../data/narrow-reducer.js';
import { useNarrow } from '../data/narrow.js';
import { Header } from './NarrowHeader.js';
import { Messages } from './MessageList.js';
import type { Names } from './titles.js';
import { narrowRequest, type NarrowTarget } from '../data/target.js';
import './narrow.css';

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

/** Which view a target is (the narrow and anchor the engine is asked for). */
const viewOf = (target: NarrowTarget) => JSON.stringify(narrowRequest(target));

export function NarrowView() {
  const narrow = useNarrow();
  const names = useNames();
  const actions = useActions();
  const status = useStatus();
  const edit = createEditStore(defaultBridge, { onMoved: (req, from) => actions.moved(req, from) });
  onCleanup(() => edit.dispose());
  // Each view's list, made once and kept (kit/kept-views.ts) as long as the narrow store keeps
  // the object it reads (NarrowStore.keeps); the view now open shows the one made for it.
  const lists = createKeptViews({
    current: () => {
      const v = narrow.state.view;
      return v === null ? null : { id: viewOf(v.target), keep: cacheKey(v.target) !== null };
    },
    limit: KEPT_VIEWS,
    make: (_id, shown) => {
      const view = untrack(() => narrow.state.view);
      if (view === null) return { node: undefined, reusable: () => false };
      return { node: <Messages view={view} shown={shown} edit={edit} names={names} />, reusable: () => narrow.state.view === view || narrow.keeps(view) };
    },
  });
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
            {/* One list per view, kept while others show: a view seen lately comes back as it was left. */}
            {lists()}
            <TypingLine target={v().target} />
            <ComposeArea />
          </>
        )}
      </Show>
    </section>
  );
}
