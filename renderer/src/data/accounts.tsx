/**
 * Accounts: which accounts exist, which is shown, how keys are stored, whether the sandbox can
 * start; actions sign in, open the sandbox, show another account, reorder and sign out. Refetched
 * when the engine says the `accounts` area changed and when the host connection comes back. The
 * organisations bar's list (every account with its unread count and connection) is refetched on
 * `organisations` too.
 */
import type { AccountSummary, AccountsState, Organisation, SignInRequest } from '../../../sync/protocol/accounts.js';
import { createAreaQuery } from '../core/area-query-store.js';
import type { Bridge } from '../core/bridge.js';
import { storeContext } from './store-context.js';

export interface AccountsStore {
  readonly state: { readonly loaded: boolean; readonly data: AccountsState | null; readonly error: string | null };
  /** The open account, if any. */
  active(): AccountSummary | undefined;
  refresh(): Promise<void>;
  /** Throws the bridge's error (the screen handles consent and shows the rest). */
  signIn(request: SignInRequest): Promise<void>;
  openSandbox(): Promise<void>;
  /** `queued`: what to do with changes not on the server yet (see SignOutDialog); throws PENDING_CHANGES without. */
  signOut(id: string, queued?: 'wait' | 'keep' | 'discard'): Promise<void>;
  /** The person has read the damage notice (`state.data.damage_notice`). */
  dismissDamageNotice(): Promise<void>;
  /** Every account for the organisations bar, in the person's order. */
  organisations(): readonly Organisation[];
  /** The shown organisation's name while more than one is signed in (the status and outbox say it); null otherwise. */
  shownName(): string | null;
  /** Show another account (the others stay open and sync). */
  switchTo(id: string): Promise<void>;
  /** The bar's new order. */
  reorder(ids: readonly string[]): Promise<void>;
  dispose(): void;
}

export function createAccountsStore(bridge: Bridge): AccountsStore {
  const q = createAreaQuery<AccountsState | null>(bridge, {
    fetch: () => bridge.invoke('accounts', {}),
    areas: ['accounts'],
    initial: null,
    key: 'id',
    // Keep what we knew; the query refetches when the host is back.
    onError: 'keep',
  });
  const refresh = q.refresh;
  // A burst of events (backfill, a channel marked read) costs one count per account, not one each.
  const orgs = createAreaQuery<Organisation[]>(bridge, { fetch: () => bridge.invoke('organisations', {}), areas: ['organisations'], debounceMs: 250, initial: [], key: 'id', onError: 'keep' });

  return {
    state: q.state,
    active: () => {
      const d = q.state.data;
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
    signOut: async (id, queued) => {
      await bridge.invoke('signOut', queued === undefined ? { id } : { id, queued });
      await refresh();
    },
    dismissDamageNotice: async () => {
      await bridge.invoke('dismissDamageNotice', {});
      await refresh();
    },
    organisations: () => orgs.state.data,
    shownName: () => {
      const list = orgs.state.data;
      const id = q.state.data?.active;
      return list.length > 1 ? (list.find((o) => o.id === id)?.name ?? null) : null;
    },
    switchTo: async (id) => {
      await bridge.invoke('switchAccount', { id });
      await refresh();
    },
    reorder: async (ids) => {
      await bridge.invoke('reorderAccounts', { ids: [...ids] });
      await orgs.refresh();
    },
    dispose: () => {
      q.dispose();
      orgs.dispose();
    },
  };
}

const ctx = storeContext('Accounts', (bridge) => createAccountsStore(bridge));
export const AccountsProvider = ctx.Provider;
export const useAccounts = ctx.use;
