/**
 * Who may do what with a channel, as far as the engine knows the rules (the realm's settings, the
 * channel's `can_*_group` values and the stored user groups, system groups included). These are
 * what the UI offers; the server decides, and its refusal is shown in its words.
 *
 * Mirrors the reference server (server/routes/subscribe.ts `canAddSubscribers`,
 * server/model/subscriptions.ts `hasContentAccess`), which follows Zulip:
 *   - guests subscribe nobody, themselves included;
 *   - subscribing oneself to a public channel needs nothing; to a private one, membership in its
 *     `can_subscribe_group` or `can_add_subscribers_group`;
 *   - subscribing others needs organization administrator, or the realm's
 *     `can_add_subscribers_group`, or the channel's `can_add_subscribers_group` /
 *     `can_administer_channel_group`.
 */
import type { BasicChannel, GroupSettingValue, UserGroup } from '../api/index.js';

/** Organization roles (Zulip's numbers). */
export const ROLE = { owner: 100, administrator: 200, moderator: 300, member: 400, guest: 600 } as const;

export interface PermissionSubject {
  readonly userId: number;
  /** Null when the user's own record is not stored yet. */
  readonly role: number | null;
  /** Every stored group by id (system groups carry their members and subgroups as the server lists them). */
  readonly groups: ReadonlyMap<number, Pick<UserGroup, 'members' | 'direct_subgroup_ids'>>;
}

/** A stored realm value as a group-setting value, or null when it is not one (unknown, older server). */
export const groupValue = (v: unknown): GroupSettingValue | null =>
  typeof v === 'number' || (typeof v === 'object' && v !== null && 'direct_members' in v) ? (v as GroupSettingValue) : null;

function inGroup(s: PermissionSubject, groupId: number, seen: Set<number>): boolean {
  if (seen.has(groupId)) return false;
  seen.add(groupId);
  const g = s.groups.get(groupId);
  if (!g) return false;
  return g.members.includes(s.userId) || g.direct_subgroup_ids.some((id) => inGroup(s, id, seen));
}

/** Whether the user is in a group-setting value (a group id, or direct members and subgroups). */
export function inGroupSetting(s: PermissionSubject, value: GroupSettingValue | null | undefined): boolean {
  if (value === null || value === undefined) return false;
  const seen = new Set<number>();
  if (typeof value === 'number') return inGroup(s, value, seen);
  return value.direct_members.includes(s.userId) || value.direct_subgroups.some((id) => inGroup(s, id, seen));
}

const isGuest = (s: PermissionSubject) => s.role === ROLE.guest;
const isAdmin = (s: PermissionSubject) => s.role !== null && s.role <= ROLE.administrator;

type ChannelRules = Pick<BasicChannel, 'invite_only' | 'can_add_subscribers_group' | 'can_subscribe_group' | 'can_administer_channel_group'>;

/** Whether the user may subscribe themselves (they see the channel; the question is access to its content). */
export function canSubscribeSelf(s: PermissionSubject, ch: ChannelRules): boolean {
  if (isGuest(s)) return false;
  if (!ch.invite_only) return true;
  return inGroupSetting(s, ch.can_subscribe_group) || inGroupSetting(s, ch.can_add_subscribers_group);
}

/**
 * Whether the user may subscribe others. `realmRule` is register's `realm_can_add_subscribers_group`;
 * when the engine was never told it, Zulip's default (members) is assumed.
 */
export function canAddSubscribers(s: PermissionSubject, ch: ChannelRules, realmRule: GroupSettingValue | null): boolean {
  if (isGuest(s)) return false;
  if (isAdmin(s)) return true;
  if (realmRule === null ? s.role !== null && s.role <= ROLE.member : inGroupSetting(s, realmRule)) return true;
  return inGroupSetting(s, ch.can_administer_channel_group) || inGroupSetting(s, ch.can_add_subscribers_group);
}

/** Whether the user may create channels of this kind (`realm_can_create_*_channel_group`; unknown: members, as Zulip's default). */
export function canCreate(s: PermissionSubject, rule: GroupSettingValue | null, fallbackMaxRole: number): boolean {
  if (isGuest(s) && rule === null) return false;
  return rule === null ? s.role !== null && s.role <= fallbackMaxRole : inGroupSetting(s, rule);
}
