/**
 * The app: toasts, accounts and status stores at the root; the welcome screen until an account is
 * open, then the main screen (remounted per account, so its stores start fresh). A failure while
 * rendering either shows the error boundary's fallback, never a blank window. The page's look
 * (theme, font size, ...) follows the open account's display settings, or the system's defaults.
 * Over either, a notice when the browser-mode host no longer knows this tab (status/HostNotice.tsx).
 * At the far left, once an account is signed in, the organisations bar (orgs/OrgBar.tsx).
 */
import { Match, onCleanup, Show, Switch } from 'solid-js';
import { WelcomeScreen } from './accounts/WelcomeScreen.js';
import { linkSignIn, startAppLinks } from './accounts/app-links.js';
import { AccountsProvider, useAccounts } from './data/accounts.js';
import { Boundary } from './kit/ErrorBoundary.js';
import { ToastProvider } from './kit/toasts.js';
import { RouterProvider, useRouter } from './router/router.js';
import { applyLookToPage } from './data/look.js';
import { MainScreen } from './shell/MainScreen.js';
import { OrgBar } from './orgs/OrgBar.js';
import { StatusProvider, useStatus } from './data/status.js';
import { HostNotice } from './status/HostNotice.js';
import { Lightbox } from './shared/Lightbox.js';

function Root() {
  const accounts = useAccounts();
  const status = useStatus();
  const router = useRouter();
  // Links from the OS (Electron): a narrow, or the sign-in screen for a server with no account here.
  onCleanup(startAppLinks((hash) => router.navigate(hash)));
  return (
    <>
      <HostNotice />
      <Lightbox />
      <div class="app-frame">
      {/* The organisations bar, once an account is signed in (orgs/OrgBar.tsx). */}
      <Show when={(accounts.state.data?.accounts.length ?? 0) > 0} fallback={<span />}>
        <OrgBar />
      </Show>
      <div class="app-content">
      <Switch
        fallback={
          <main class="splash">
            <p role="status">{status.state.hostUp ? 'Loading…' : 'Connecting to the app…'}</p>
            <p class="error">{accounts.state.error}</p>
          </main>
        }
      >
        <Match when={accounts.state.loaded && linkSignIn.server() === null && accounts.active()} keyed>
          {(account) => <MainScreen account={account} />}
        </Match>
        <Match when={accounts.state.loaded}>
          <WelcomeScreen />
        </Match>
      </Switch>
      </div>
      </div>
    </>
  );
}

export function App() {
  applyLookToPage();
  return (
    <ToastProvider>
      <Boundary what="the app">
        <RouterProvider>
          <AccountsProvider>
            <StatusProvider>
              <Root />
            </StatusProvider>
          </AccountsProvider>
        </RouterProvider>
      </Boundary>
    </ToastProvider>
  );
}
