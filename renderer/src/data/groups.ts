/**
 * The engine's user groups (query `userGroups`, deactivated ones included; re-run on the areas
 * `QUERY_AREAS.userGroups` names), as a Solid store for as long as the calling component lives.
 * Queued changes are already applied by the engine, so a change shows at once.
 */
import { QUERY_AREAS, type UserGroupsView } from '../../../sync/protocol/commands.js';
import { useLiveQuery } from '../core/area-query-store.js';
import type { Bridge } from '../core/bridge.js';

export function useUserGroups(bridge: Bridge) {
  return useLiveQuery<UserGroupsView>(bridge, {
    fetch: () => bridge.invoke('userGroups', { include_deactivated: true }),
    areas: QUERY_AREAS.userGroups,
    initial: { groups: [], can_manage_all_groups: null },
    key: 'id',
  });
}
