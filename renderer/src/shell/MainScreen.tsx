/** The main screen of an open account: top bar (search, status, outbox, shortcuts), the sidebar, and the view the URL names. */
import { createSignal, onCleanup, Show } from 'solid-js';
import type { SignOutCheck } from '../../../sync/protocol/accounts.js';
import { beginSignOut, SignOutDialog } from '../accounts/SignOutDialog.js';
import { DamageNotice } from '../accounts/DamageNotice.js';
import { OutboxPanel } from '../outbox/OutboxPanel.js';
import type { AccountSummary } from '../../../sync/protocol/accounts.js';
import { OutboxBadge } from '../outbox/OutboxBadge.js';
import { Sidebar } from '../sidebar/Sidebar.js';
import { MANAGE_LINKS } from './sections.js';
import { StatusIndicator } from '../status/StatusIndicator.js';
import { errorText } from '../core/errors.js';
import { Button } from '../kit/Button.js';
import { Boundary } from '../kit/ErrorBoundary.js';
import { useToasts } from '../kit/toasts.js';
import { useAccounts } from '../data/accounts.js';
import { ChannelsProvider } from '../data/channels.js';
import { HomeProvider } from '../data/home.js';
import { NarrowProvider } from '../data/narrow.js';
import { OutboxProvider } from '../data/outbox.js';
import { SettingsProvider } from '../data/settings.js';
import { useStatus } from '../data/status.js';
import { UsersProvider } from '../data/users.js';
import { RouteView } from './RouteView.js';
import { ComposeProvider } from '../data/compose.js';
import { SelectionProvider } from '../keys/selection.js';
import { Shortcuts } from '../keys/Shortcuts.js';
import { ActionsProvider } from '../actions/store.js';
import { RealmEmojiProvider } from '../shared/realm-emoji.js';
import { SearchBox } from '../search/SearchBox.js';
import { createSidebarOverlay } from './SidebarOverlay.js';
import { bridge } from '../core/bridge.js';
import { useRouter } from '../router/router.js';
import { startNotifier } from '../notifications/notifier.js';
import { UserCardHost } from '../people/UserCard.js';
import { useActivityReports } from '../people/activity.js';
import './shell.css';

export function MainScreen(props: { account: AccountSummary }) {
  const accounts = useAccounts();
  const status = useStatus();
  const toasts = useToasts();
  const [asking, setAsking] = createSignal<SignOutCheck | null>(null);
  const [outboxOpen, setOutboxOpen] = createSignal(false);
  const sidebar = createSidebarOverlay();
  const router = useRouter();
  // Desktop notifications for this account while it is open (notifications/notifier.ts).
  onCleanup(startNotifier(bridge, (hash) => router.navigate(hash), (id) => (id === props.account.id ? Promise.resolve() : accounts.switchTo(id))));
  // The user's own presence: the engine reports it while this window is in use (people/activity.ts).
  useActivityReports(bridge);
  // Never silently: with changes not on the server (or drafts) the dialog asks first.
  const signOut = () => {
    beginSignOut(props.account.id, setAsking, (queued) => accounts.signOut(props.account.id, queued)).catch((e: unknown) => toasts.show(`Could not sign out. ${errorText(e)}`, 'error'));
  };
  // Composing (drafts, the open composer) and the keyboard's selected message are app-wide; they
  // wrap the rest without nesting it deeper (the same tree, one diff line each side).
  return (
    <ComposeProvider>
    <SelectionProvider>
    <SettingsProvider>
      <UsersProvider>
        <ChannelsProvider>
          <HomeProvider>
          <NarrowProvider isLive={status.isLive}>
            <OutboxProvider>
              {/* Actions on messages and topics, and their dialogs (actions/store.tsx). */}
              <ActionsProvider>
              <RealmEmojiProvider>
              <div class="shell">
                <header class="topbar">
                  <sidebar.Toggle />
                  <span class="brand">Zulip Offline</span>
                  <span class="account" title={props.account.realm_url}>
                    {props.account.email}
                    <Show when={props.account.kind === 'sandbox'}>
                      <span class="tag">sandbox</span>
                    </Show>
                  </span>
                  <SearchBox />
                  <StatusIndicator />
                  <OutboxBadge open={outboxOpen()} onToggle={() => setOutboxOpen(!outboxOpen())} />
                  <Shortcuts />
                  <Button variant="quiet" onClick={signOut}>
                    Sign out
                  </Button>
                </header>
                <sidebar.Slot>
                  <Boundary what="the sidebar">
                    <Sidebar manage={MANAGE_LINKS} />
                  </Boundary>
                </sidebar.Slot>
                <Boundary what="the conversation">
                  <RouteView />
                </Boundary>
                <Show when={outboxOpen()}>
                  <Boundary what="the outbox">
                    <OutboxPanel onClose={() => setOutboxOpen(false)} />
                  </Boundary>
                </Show>
                <DamageNotice />
                <UserCardHost />
                <Show when={asking()}>{(c) => <SignOutDialog id={props.account.id} check={c()} onClose={() => setAsking(null)} />}</Show>
              </div>
              </RealmEmojiProvider>
              </ActionsProvider>
            </OutboxProvider>
          </NarrowProvider>
          </HomeProvider>
        </ChannelsProvider>
      </UsersProvider>
    </SettingsProvider>
    </SelectionProvider>
    </ComposeProvider>
  );
}
