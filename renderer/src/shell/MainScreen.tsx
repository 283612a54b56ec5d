/** The main screen of an open account: top bar (search, status, outbox), the sidebar, and the view the URL names. */
import { Show } from 'solid-js';
import type { AccountSummary } from '../../../sync/protocol/accounts.js';
import { OutboxBadge } from '../outbox/OutboxBadge.js';
import { Sidebar } from '../sidebar/Sidebar.js';
import { StatusIndicator } from '../status/StatusIndicator.js';
import { errorText } from '../core/errors.js';
import { Button } from '../kit/Button.js';
import { Boundary } from '../kit/ErrorBoundary.js';
import { useToasts } from '../kit/toasts.js';
import { useAccounts } from '../accounts/store.js';
import { ChannelsProvider } from '../sidebar/store.js';
import { NarrowProvider } from '../narrow/store.js';
import { OutboxProvider } from '../outbox/store.js';
import { SettingsProvider } from '../settings/store.js';
import { useStatus } from '../status/store.js';
import { UsersProvider } from '../users/store.js';
import { RouteView } from './RouteView.js';
import { ActionsProvider } from '../actions/store.js';
import { SearchBox } from '../search/SearchBox.js';
import './shell.css';

export function MainScreen(props: { account: AccountSummary }) {
  const accounts = useAccounts();
  const status = useStatus();
  const toasts = useToasts();
  const signOut = () => {
    accounts.signOut(props.account.id).catch((e: unknown) => toasts.show(`Could not sign out. ${errorText(e)}`, 'error'));
  };
  return (
    <SettingsProvider>
      <UsersProvider>
        <ChannelsProvider>
          <NarrowProvider isLive={status.isLive}>
            <OutboxProvider>
              {/* Actions on messages and topics, and their dialogs (actions/store.tsx). */}
              <ActionsProvider>
              <div class="shell">
                <header class="topbar">
                  <span class="brand">Zulip Offline</span>
                  <span class="account" title={props.account.realm_url}>
                    {props.account.email}
                    <Show when={props.account.kind === 'sandbox'}>
                      <span class="tag">sandbox</span>
                    </Show>
                  </span>
                  <SearchBox />
                  <StatusIndicator />
                  <OutboxBadge />
                  <Button variant="quiet" onClick={signOut}>
                    Sign out
                  </Button>
                </header>
                <Boundary what="the sidebar">
                  <Sidebar />
                </Boundary>
                <Boundary what="the conversation">
                  <RouteView />
                </Boundary>
              </div>
              </ActionsProvider>
            </OutboxProvider>
          </NarrowProvider>
        </ChannelsProvider>
      </UsersProvider>
    </SettingsProvider>
  );
}
