/** The main screen of an open account: top bar with status, channels sidebar, the open narrow. */
import { Show } from 'solid-js';
import type { AccountSummary } from '../../../sync/protocol/accounts.js';
import { NarrowView } from '../components/NarrowView.js';
import { OutboxBadge } from '../components/OutboxBadge.js';
import { Sidebar } from '../components/Sidebar.js';
import { StatusIndicator } from '../components/StatusIndicator.js';
import { errorText } from '../signin-reducer.js';
import { useAccounts } from '../stores/accounts.js';
import { ChannelsProvider } from '../stores/channels.js';
import { NarrowProvider } from '../stores/narrow.js';
import { OutboxProvider } from '../stores/outbox.js';
import { useStatus } from '../stores/status.js';
import { UsersProvider } from '../stores/users.js';

export function MainScreen(props: { account: AccountSummary }) {
  const accounts = useAccounts();
  const status = useStatus();
  const signOut = () => {
    accounts.signOut(props.account.id).catch((e: unknown) => window.alert(errorText(e)));
  };
  return (
    <UsersProvider>
      <ChannelsProvider>
        <NarrowProvider isLive={status.isLive}>
          <OutboxProvider>
            <div class="shell">
              <header class="topbar">
                <span class="brand">Zulip Offline</span>
                <span class="account" title={props.account.realm_url}>
                  {props.account.email}
                  <Show when={props.account.kind === 'sandbox'}>
                    <span class="tag">sandbox</span>
                  </Show>
                </span>
                <StatusIndicator />
                <OutboxBadge />
                <button type="button" class="quiet" onClick={signOut}>
                  Sign out
                </button>
              </header>
              <Sidebar />
              <NarrowView />
            </div>
          </OutboxProvider>
        </NarrowProvider>
      </ChannelsProvider>
    </UsersProvider>
  );
}
