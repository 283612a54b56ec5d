/** common/group-settings.ts: the group-setting rules the server enforces and the groups screen checks. */
import { describe, expect, it } from 'vitest';
import { FORBIDDEN_SYSTEM_GROUPS, groupSettingEquals, normalizeGroupSetting, OBJECT_FORM_ONLY, reachableGroups } from '../../common/group-settings.js';

describe('group-setting values', () => {
  it('a lone subgroup is that group; anything else stays as it is', () => {
    expect(normalizeGroupSetting({ direct_members: [], direct_subgroups: [7] })).toBe(7);
    expect(normalizeGroupSetting(7)).toBe(7);
    const v = { direct_members: [1], direct_subgroups: [7] };
    expect(normalizeGroupSetting(v)).toBe(v);
  });

  it('equal whatever the order and repeats; members and subgroups never mix', () => {
    expect(groupSettingEquals({ direct_members: [2, 1, 2], direct_subgroups: [9, 8] }, { direct_members: [1, 2], direct_subgroups: [8, 9] })).toBe(true);
    expect(groupSettingEquals(7, { direct_members: [], direct_subgroups: [7] })).toBe(true);
    expect(groupSettingEquals(7, 8)).toBe(false);
    expect(groupSettingEquals({ direct_members: [1], direct_subgroups: [] }, { direct_members: [], direct_subgroups: [1] })).toBe(false);
    expect(groupSettingEquals({ direct_members: [], direct_subgroups: [] }, { direct_members: [], direct_subgroups: [] })).toBe(true);
  });

  it('role:internet is never allowed; can_manage_group refuses everyone, can_mention_group owners and the bare id', () => {
    for (const forbidden of Object.values(FORBIDDEN_SYSTEM_GROUPS)) expect(forbidden).toContain('role:internet');
    expect(FORBIDDEN_SYSTEM_GROUPS.can_manage_group).toContain('role:everyone');
    expect(FORBIDDEN_SYSTEM_GROUPS.can_mention_group).toContain('role:owners');
    expect([...OBJECT_FORM_ONLY]).toEqual(['can_mention_group']);
  });

  it('reachable groups follow subgroups through cycles, the start included', () => {
    const subgroups = new Map<number, number[]>([
      [1, [2, 3]],
      [2, [4]],
      [4, [1]],
    ]);
    expect([...reachableGroups(1, (id) => subgroups.get(id) ?? [])].sort()).toEqual([1, 2, 3, 4]);
    expect([...reachableGroups(3, (id) => subgroups.get(id) ?? [])]).toEqual([3]);
  });
});
