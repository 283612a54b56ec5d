/**
 * The app: accounts and status stores at the root; the welcome screen until an account is open,
 * then the main screen (remounted per account, so its stores start fresh).
 */
import { Match, Switch } from 'solid-js';
import { MainScreen } from './screens/Main.js';
import { WelcomeScreen } from './screens/Welcome.js';
import { AccountsProvider, useAccounts } from './stores/accounts.js';
import { StatusProvider, useStatus } from './stores/status.js';

function Root() {
  const accounts = useAccounts();
  const status = useStatus();
  return (
    <Switch
      fallback={
        <main class="splash">
          <p role="status">{status.state.hostUp ? 'Loading…' : 'Connecting to the app…'}</p>
          <p class="error">{accounts.state.error}</p>
        </main>
      }
    >
      <Match when={accounts.state.loaded && accounts.active()} keyed>
        {(account) => <MainScreen account={account} />}
      </Match>
      <Match when={accounts.state.loaded}>
        <WelcomeScreen />
      </Match>
    </Switch>
  );
}

export function App() {
  return (
    <AccountsProvider>
      <StatusProvider>
        <Root />
      </StatusProvider>
    </AccountsProvider>
  );
}
