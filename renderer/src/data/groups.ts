/**
 * The engine's user groups (query `userGroups`, deactivated ones included; re-run on the areas
 * `QUERY_AREAS.userGroups` names), as a Solid store for as long as the calling component lives.
 * Queued changes are already applied by the engine, so a change shows at once.
 */
import { QUERY_AREAS, type UserGroupsView } from '../../../sync/protocol/commands.js';
import { useLiveQuery } from '../core/area-query-store.js';
import type { Bridge } from '../core/bridge.js';
import { reachableGroups } from '../../../common/group-settings.js';

export function useUserGroups(bridge: Bridge) {
  return useLiveQuery<UserGroupsView>(bridge, {
    fetch: () => bridge.invoke('userGroups', { include_deactivated: true }),
    areas: QUERY_AREAS.userGroups,
    initial: { groups: [], can_manage_all_groups: null },
    key: 'id',
  });
}

/** The groups `userId` belongs to, directly or as a member of a subgroup. */
export function groupsOf(groups: readonly { id: number; members: readonly number[]; direct_subgroup_ids: readonly number[] }[], userId: number | null): Set<number> {
  const out = new Set<number>();
  if (userId === null) return out;
  const byId = new Map(groups.map((g) => [g.id, g]));
  for (const g of groups) {
    const reach = reachableGroups(g.id, (id) => byId.get(id)?.direct_subgroup_ids ?? []);
    if ([...reach].some((id) => byId.get(id)?.members.includes(userId))) out.add(g.id);
  }
  return out;
}
