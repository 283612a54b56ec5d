/**
 * Accounts: which accounts exist, which is open, how keys are stored, whether the sandbox can
 * start; actions sign in, open the sandbox and sign out. Refetched when the engine says the
 * `accounts` area changed and when the host connection comes back.
 */
import { batch, createContext, onCleanup, useContext, type JSX } from 'solid-js';
import { createStore, reconcile } from 'solid-js/store';
import type { AccountSummary, AccountsState, SignInRequest } from '../../../sync/protocol/accounts.js';
import { bridge as defaultBridge, type Bridge } from '../bridge.js';
import { errorText } from '../signin-reducer.js';

export interface AccountsStore {
  readonly state: { readonly loaded: boolean; readonly data: AccountsState | null; readonly error: string | null };
  /** The open account, if any. */
  active(): AccountSummary | undefined;
  refresh(): Promise<void>;
  /** Throws the bridge's error (the screen handles consent and shows the rest). */
  signIn(request: SignInRequest): Promise<void>;
  openSandbox(): Promise<void>;
  signOut(id: string): Promise<void>;
  dispose(): void;
}

export function createAccountsStore(bridge: Bridge): AccountsStore {
  const [state, setState] = createStore<{ loaded: boolean; data: AccountsState | null; error: string | null }>({ loaded: false, data: null, error: null });

  const refresh = async () => {
    try {
      const data = await bridge.invoke('accounts', {});
      batch(() => {
        setState('data', reconcile(data, { key: 'id' }));
        setState({ loaded: true, error: null });
      });
    } catch (e) {
      // Keep what we knew; the connection listener retries when the host is back.
      setState('error', errorText(e));
    }
  };

  const offEvents = bridge.subscribe((e) => {
    if (e.type === 'areas' && e.areas.includes('accounts')) void refresh();
  });
  const offConn = bridge.onConnection((s) => {
    if (s === 'up') void refresh();
  });
  void refresh();

  return {
    state,
    active: () => {
      const d = state.data;
      return d?.active ? d.accounts.find((a) => a.id === d.active) : undefined;
    },
    refresh,
    signIn: async (request) => {
      await bridge.invoke('signIn', request);
      await refresh();
    },
    openSandbox: async () => {
      await bridge.invoke('openSandbox', {});
      await refresh();
    },
    signOut: async (id) => {
      await bridge.invoke('signOut', { id });
      await refresh();
    },
    dispose: () => {
      offEvents();
      offConn();
    },
  };
}

const Ctx = createContext<AccountsStore>();

export function AccountsProvider(props: { bridge?: Bridge; children: JSX.Element }) {
  const store = createAccountsStore(props.bridge ?? defaultBridge);
  onCleanup(store.dispose);
  return <Ctx.Provider value={store}>{props.children}</Ctx.Provider>;
}

export function useAccounts(): AccountsStore {
  const s = useContext(Ctx);
  if (!s) throw new Error('useAccounts() used outside <AccountsProvider>');
  return s;
}
