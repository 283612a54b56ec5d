/**
 * Users: id → summary, for sender names, and the signed-in user's own id (Edit is offered on their
 * messages). Refetched when the engine touches `users` or the account changes; the own id also once
 * the first sync is live (it is unknown before).
 */
import { createContext, createMemo, onCleanup, useContext, type JSX } from 'solid-js';
import { createStore, reconcile } from 'solid-js/store';
import type { UserSummary } from '../../../sync/protocol/commands.js';
import { bridge as defaultBridge, type Bridge } from '../bridge.js';

export interface UsersStore {
  readonly state: { readonly users: UserSummary[]; readonly ownUserId: number | null };
  byId(): ReadonlyMap<number, UserSummary>;
  refresh(): Promise<void>;
  dispose(): void;
}

export function createUsersStore(bridge: Bridge): UsersStore {
  const [state, setState] = createStore<{ users: UserSummary[]; ownUserId: number | null }>({ users: [], ownUserId: null });
  const refresh = async () => {
    try {
      const [users, own] = await Promise.all([bridge.invoke('users', {}), bridge.invoke('ownUser', {})]);
      setState('users', reconcile(users, { key: 'user_id' }));
      setState('ownUserId', own.user_id);
    } catch {
      // No account yet, or the host is away: messages still carry their sender's name.
    }
  };
  const offEvents = bridge.subscribe((e) => {
    if (e.type === 'areas' && (e.areas.includes('users') || e.areas.includes('accounts'))) void refresh();
    else if (e.type === 'status' && e.status.state === 'live' && (state.users.length === 0 || state.ownUserId === null)) void refresh();
  });
  const offConn = bridge.onConnection((s) => {
    if (s === 'up') void refresh();
  });
  void refresh();
  const map = createMemo(() => new Map(state.users.map((u) => [u.user_id, u])));
  return {
    state,
    byId: map,
    refresh,
    dispose: () => {
      offEvents();
      offConn();
    },
  };
}

const Ctx = createContext<UsersStore>();

export function UsersProvider(props: { bridge?: Bridge; children: JSX.Element }) {
  const store = createUsersStore(props.bridge ?? defaultBridge);
  onCleanup(store.dispose);
  return <Ctx.Provider value={store}>{props.children}</Ctx.Provider>;
}

export function useUsers(): UsersStore {
  const s = useContext(Ctx);
  if (!s) throw new Error('useUsers() used outside <UsersProvider>');
  return s;
}
