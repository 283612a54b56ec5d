/**
 * The main area follows the URL: the route (router/) resolved against what the app knows
 * (router/resolve.ts) opens the message view, or a placeholder saying what is not built yet;
 * #inbox and #recent show the home views (home/), and no fragment the one the user's
 * `web_home_view` names, as Zulip web does. Leaving a message view closes it in the engine.
 */
import { createEffect, createMemo, createRoot, getOwner, Match, onCleanup, Switch, type JSX } from 'solid-js';
import { EmptyState } from '../kit/EmptyState.js';
import { InboxView } from '../home/InboxView.js';
import { RecentView } from '../home/RecentView.js';
import { NarrowView } from '../narrow/NarrowView.js';
import { useNarrow } from '../data/narrow.js';
import type { Lookups } from '../data/target.js';
import { sameScreen, screenOf, type Screen } from '../router/resolve.js';
import { useRouter } from '../router/router.js';
import { useChannels } from '../data/channels.js';
import { useUsers } from '../data/users.js';
import { useSettings } from '../data/settings.js';
import { Dynamic } from 'solid-js/web';
import { sectionEntry } from './sections.js';
import { prefetchOnIntent } from '../narrow/prefetch.js';
import { ShownContext } from '../kit/kept-views.js';

export function RouteView() {
  const router = useRouter();
  const channels = useChannels();
  const users = useUsers();
  const narrow = useNarrow();
  const settings = useSettings();
  const lookups: Lookups = {
    get channelsLoaded() {
      return channels.state.loaded;
    },
    channelByName: (name) => channels.state.channels.find((c) => c.name.toLowerCase() === name.toLowerCase()),
    get usersLoaded() {
      return users.state.users.length > 0;
    },
    userIdByEmail: (email) => users.state.users.find((u) => u.email.toLowerCase() === email.toLowerCase())?.user_id,
  };
  const screen = createMemo<Screen>(() => screenOf(router.route(), lookups, settings.raw()?.['web_home_view']), { kind: 'inbox' }, { equals: sameScreen });
  const section = createMemo(
    () => {
      const r = router.route();
      const entry = r.kind === 'other' ? sectionEntry(r.section) : undefined;
      return entry && r.kind === 'other' ? { entry, rest: r.rest ?? [] } : null;
    },
    null,
    { equals: (a, b) => a?.entry === b?.entry && (a?.rest ?? []).join('/') === (b?.rest ?? []).join('/') },
  );
  const placeholder = () => {
    const s = screen();
    return s.kind === 'placeholder' ? s : null;
  };
  createEffect(() => {
    const s = screen();
    if (s.kind === 'narrow') narrow.open(s.target);
    else narrow.close();
  });
  // A hovered or focused link to a view fetches its first screen ahead of the click.
  onCleanup(prefetchOnIntent(document, lookups, narrow));
  // The message view and the home views are each made once and kept while other screens show
  // (out of the document): coming back builds nothing again, and the lists the message view keeps
  // for recent views (NarrowView) outlive a visit to the Inbox. A hidden screen's composer is not
  // there (ShownContext): it would answer the app-wide compose store too.
  const owner = getOwner();
  const kept: (() => void)[] = [];
  onCleanup(() => kept.forEach((dispose) => dispose()));
  const keptScreen = (kind: Screen['kind'], make: () => JSX.Element) => {
    let node: JSX.Element | undefined;
    const shown = () => screen().kind === kind;
    return () =>
      (node ??= createRoot((dispose) => {
        kept.push(dispose);
        return <ShownContext.Provider value={shown}>{make()}</ShownContext.Provider>;
      }, owner));
  };
  const narrowView = keptScreen('narrow', () => <NarrowView />);
  const inboxView = keptScreen('inbox', () => <InboxView />);
  const recentView = keptScreen('recent', () => <RecentView />);
  return (
    <Switch>
      <Match when={section()}>
        {(s) => <Dynamic component={s().entry.view} rest={s().rest} />}
      </Match>
      <Match when={screen().kind === 'narrow'}>{narrowView()}</Match>
      <Match when={placeholder()}>
        {(p) => (
          <section class="narrow" aria-label="Conversation">
            <EmptyState title={p().title} role="status">
              {p().body}
            </EmptyState>
          </section>
        )}
      </Match>
      <Match when={screen().kind === 'inbox'}>{inboxView()}</Match>
      <Match when={screen().kind === 'recent'}>{recentView()}</Match>
      <Match when={screen().kind === 'loading'}>
        <section class="narrow" aria-label="Conversation">
          <EmptyState title="Loading…" role="status" />
        </section>
      </Match>
    </Switch>
  );
}
