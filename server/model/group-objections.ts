/**
 * Why a user group cannot be deactivated (Zulip's access_user_group_for_deactivation): it is a
 * subgroup of an active group, or a permission setting of a channel, an active group or the realm
 * names it (directly or inside an anonymous value). Answered as CANNOT_DEACTIVATE_GROUP_IN_USE.
 */
import type { ServerState } from '../state.js';
import type { ChannelRow } from './access.js';
import type { GroupRow, GroupSettingValue } from './groups.js';
import { getRealm } from './realm.js';
import { settingUsesGroup } from './user-groups.js';

export type Objection =
  | { type: 'subgroup'; supergroup_ids: number[] }
  | { type: 'channel'; channel_id: number; settings: string[] }
  | { type: 'user_group'; group_id: number; settings: string[] }
  | { type: 'realm'; settings: string[] };

function usingSettings(stored: Record<string, unknown>, groupId: number): string[] {
  return Object.entries(stored)
    .filter(([k, v]) => k.startsWith('can_') && v !== null && v !== undefined && settingUsesGroup(v as GroupSettingValue, groupId))
    .map(([k]) => k)
    .sort();
}

export function groupDeactivationObjections(srv: ServerState, groupId: number): Objection[] {
  const out: Objection[] = [];
  const supergroups = srv.db
    .prepare('SELECT s.group_id FROM group_subgroups s JOIN user_groups g ON g.id = s.group_id WHERE s.subgroup_id = ? AND g.deactivated = 0 ORDER BY s.group_id')
    .pluck()
    .all(groupId) as number[];
  if (supergroups.length > 0) out.push({ type: 'subgroup', supergroup_ids: supergroups });
  for (const ch of srv.db.prepare('SELECT * FROM channels WHERE is_archived = 0 ORDER BY id').all() as ChannelRow[]) {
    const settings = usingSettings(JSON.parse(ch.permissions) as Record<string, unknown>, groupId);
    if (settings.length > 0) out.push({ type: 'channel', channel_id: ch.id, settings });
  }
  for (const g of srv.db.prepare('SELECT * FROM user_groups WHERE deactivated = 0 ORDER BY id').all() as GroupRow[]) {
    const settings = usingSettings(JSON.parse(g.settings) as Record<string, unknown>, groupId);
    if (settings.length > 0) out.push({ type: 'user_group', group_id: g.id, settings });
  }
  const realmSettings = usingSettings(getRealm(srv) as unknown as Record<string, unknown>, groupId);
  if (realmSettings.length > 0) out.push({ type: 'realm', settings: realmSettings });
  return out;
}
