/** Who may subscribe themselves, subscribe others and create channels, as the engine reads the rules. */
import { describe, expect, it } from 'vitest';
import { canAddSubscribers, canCreate, canSubscribeSelf, inGroupSetting, ROLE, type PermissionSubject } from '../../../sync/engine/channel-permissions.js';

// System groups as the server lists them: direct members by role, nested by subgroups (owners ⊂ admins ⊂ members).
const groups = new Map([
  [1, { members: [10], direct_subgroup_ids: [] }], // owners
  [2, { members: [20], direct_subgroup_ids: [1] }], // administrators
  [3, { members: [40, 41], direct_subgroup_ids: [2] }], // members
  [4, { members: [], direct_subgroup_ids: [] }], // nobody
  [5, { members: [41], direct_subgroup_ids: [6] }], // a cycle: 5 → 6 → 5
  [6, { members: [], direct_subgroup_ids: [5] }],
]);
const who = (userId: number, role: number | null): PermissionSubject => ({ userId, role, groups });
const pub = { invite_only: false, can_add_subscribers_group: 4, can_subscribe_group: 4, can_administer_channel_group: { direct_members: [], direct_subgroups: [] } };
const priv = { ...pub, invite_only: true };

describe('inGroupSetting', () => {
  it('follows subgroups (an owner is an administrator and a member), direct members, and survives cycles', () => {
    expect(inGroupSetting(who(10, ROLE.owner), 3)).toBe(true);
    expect(inGroupSetting(who(40, ROLE.member), 2)).toBe(false);
    expect(inGroupSetting(who(40, ROLE.member), { direct_members: [40], direct_subgroups: [] })).toBe(true);
    expect(inGroupSetting(who(20, ROLE.administrator), { direct_members: [], direct_subgroups: [1] })).toBe(false);
    expect(inGroupSetting(who(99, ROLE.member), 6)).toBe(false);
    expect(inGroupSetting(who(41, ROLE.member), 6)).toBe(true);
    expect(inGroupSetting(who(40, ROLE.member), 999)).toBe(false);
    expect(inGroupSetting(who(40, ROLE.member), null)).toBe(false);
  });
});

describe('canSubscribeSelf', () => {
  it('public: anyone but a guest; private: the channel rule (subscribe or add subscribers)', () => {
    expect(canSubscribeSelf(who(40, ROLE.member), pub)).toBe(true);
    expect(canSubscribeSelf(who(60, ROLE.guest), pub)).toBe(false);
    expect(canSubscribeSelf(who(20, ROLE.administrator), priv)).toBe(false);
    expect(canSubscribeSelf(who(40, ROLE.member), { ...priv, can_subscribe_group: 3 })).toBe(true);
    expect(canSubscribeSelf(who(40, ROLE.member), { ...priv, can_add_subscribers_group: { direct_members: [40], direct_subgroups: [] } })).toBe(true);
  });
});

describe('canAddSubscribers', () => {
  it("administrators always; others by the realm's rule, or the channel's add-subscribers / administer rule; guests never", () => {
    expect(canAddSubscribers(who(20, ROLE.administrator), pub, 4)).toBe(true);
    expect(canAddSubscribers(who(40, ROLE.member), pub, 3)).toBe(true);
    expect(canAddSubscribers(who(40, ROLE.member), pub, 2)).toBe(false);
    expect(canAddSubscribers(who(40, ROLE.member), { ...pub, can_administer_channel_group: { direct_members: [40], direct_subgroups: [] } }, 2)).toBe(true);
    expect(canAddSubscribers(who(40, ROLE.member), { ...pub, can_add_subscribers_group: 3 }, 2)).toBe(true);
    expect(canAddSubscribers(who(60, ROLE.guest), { ...pub, can_add_subscribers_group: 3 }, 3)).toBe(false);
  });

  it("an unknown realm rule is Zulip's default (members), an unknown role allows nothing", () => {
    expect(canAddSubscribers(who(40, ROLE.member), pub, null)).toBe(true);
    expect(canAddSubscribers(who(40, null), pub, null)).toBe(false);
  });
});

describe('canCreate', () => {
  it('by the rule when known, else by the fallback role', () => {
    expect(canCreate(who(40, ROLE.member), 3, ROLE.member)).toBe(true);
    expect(canCreate(who(40, ROLE.member), 1, ROLE.member)).toBe(false);
    expect(canCreate(who(40, ROLE.member), null, ROLE.owner)).toBe(false);
    expect(canCreate(who(10, ROLE.owner), null, ROLE.owner)).toBe(true);
    expect(canCreate(who(60, ROLE.guest), null, ROLE.member)).toBe(false);
  });
});
