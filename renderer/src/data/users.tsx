/**
 * Users: id → summary, for sender names, who the user muted, and the signed-in user's own id (Edit is offered on their
 * messages) and organization role (which topic actions are offered). Refetched when the engine
 * touches `users` or the account changes; the own id also once the first sync is live (it is
 * unknown before).
 */
import { createMemo, onCleanup } from 'solid-js';
import { QUERY_AREAS, type UserGroupsView, type UserPresence, type UserSummary } from '../../../sync/protocol/commands.js';
import { groupsOf } from './groups.js';
import { createAreaQuery, useLiveQuery, type AreaQueryStore } from '../core/area-query-store.js';
import type { Bridge } from '../core/bridge.js';
import { storeContext } from './store-context.js';

export interface UsersStore {
  readonly state: { readonly users: readonly UserSummary[]; readonly ownUserId: number | null; readonly ownRole: number | null };
  byId(): ReadonlyMap<number, UserSummary>;
  /** Whether the signed-in user muted this person (queued changes included): their messages are hidden. */
  isMuted(userId: number): boolean;
  /** Everyone but the people muted: the typeahead's pool, made once per change app-wide (each composer made it again: ~3 ms per view switch with 10,000 users). */
  unmuted(): readonly UserSummary[];
  /** The groups the signed-in user belongs to (directly or through subgroups): their mentions are the user's. */
  myGroupIds(): ReadonlySet<number>;
  /** A person's presence (active / idle / offline, as of the last minute) and status; undefined: offline, no status. */
  presenceOf(userId: number): UserPresence | undefined;
  refresh(): Promise<void>;
  dispose(): void;
}

export function createUsersStore(bridge: Bridge): UsersStore {
  type Data = { users: UserSummary[]; ownUserId: number | null; ownRole: number | null };
  const q: AreaQueryStore<Data> = createAreaQuery<Data>(bridge, {
    fetch: async () => {
      const [users, own] = await Promise.all([bridge.invoke('users', {}), bridge.invoke('ownUser', {})]);
      return { users, ownUserId: own.user_id, ownRole: own.role };
    },
    areas: ['users'],
    when: (e): boolean => e.type === 'status' && e.status.state === 'live' && (q.state.data.users.length === 0 || q.state.data.ownUserId === null),
    initial: { users: [], ownUserId: null, ownRole: null },
    key: 'user_id',
    // No account yet, or the host is away: messages still carry their sender's name.
    onError: 'keep',
  });
  const map = createMemo(() => new Map(q.state.data.users.map((u) => [u.user_id, u])));
  const muted = useLiveQuery<number[]>(bridge, { fetch: () => bridge.invoke('mutedUsers', {}), areas: [...QUERY_AREAS.mutedUsers, 'accounts'], initial: [] });
  const mutedSet = createMemo(() => new Set(muted.data));
  const unmuted = createMemo(() => q.state.data.users.filter((u) => !mutedSet().has(u.user_id)));
  const groups = useLiveQuery<UserGroupsView>(bridge, { fetch: () => bridge.invoke('userGroups', { include_deactivated: false }), areas: [...QUERY_AREAS.userGroups, 'accounts'], initial: { groups: [], can_manage_all_groups: null } });
  const myGroups = createMemo(() => groupsOf(groups.data.groups, q.state.data.ownUserId));
  // Presence goes stale with time alone: asked again every half minute too (people/).
  const presence = createAreaQuery<UserPresence[]>(bridge, { fetch: () => bridge.invoke('presence', {}), areas: [...QUERY_AREAS.presence, 'accounts'], when: (e) => e.type === 'status' && e.status.state === 'live', initial: [], key: 'user_id', onError: 'keep' });
  const tick = window.setInterval(() => void presence.refresh(), 30_000);
  onCleanup(() => window.clearInterval(tick));
  const presenceMap = createMemo(() => new Map(presence.state.data.map((p) => [p.user_id, p])));
  return {
    get state() {
      return q.state.data;
    },
    byId: map,
    isMuted: (id) => mutedSet().has(id),
    unmuted,
    myGroupIds: myGroups,
    presenceOf: (id) => presenceMap().get(id),
    refresh: q.refresh,
    dispose: () => {
      presence.dispose();
      q.dispose();
    },
  };
}

const ctx = storeContext('Users', (bridge) => createUsersStore(bridge));
export const UsersProvider = ctx.Provider;
export const useUsers = ctx.use;
