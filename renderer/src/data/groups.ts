/**
 * The engine's user groups (query `userGroups`, deactivated ones included; re-run on the areas
 * `QUERY_AREAS.userGroups` names), as a Solid store for as long as the calling component lives.
 * Queued changes are already applied by the engine, so a change shows at once.
 */
import { onCleanup } from 'solid-js';
import { QUERY_AREAS, type UserGroupsView } from '../../../sync/protocol/commands.js';
import { createAreaQuery } from '../core/area-query-store.js';
import type { Bridge } from '../core/bridge.js';

export function useUserGroups(bridge: Bridge) {
  const q = createAreaQuery<UserGroupsView>(bridge, {
    fetch: () => bridge.invoke('userGroups', { include_deactivated: true }),
    areas: QUERY_AREAS.userGroups,
    when: (e) => e.type === 'status' && e.status.state === 'live',
    initial: { groups: [], can_manage_all_groups: null },
    key: 'id',
    onError: 'keep',
  });
  onCleanup(q.dispose);
  return q.state;
}
