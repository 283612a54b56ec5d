import { describe, expect, it } from 'vitest';
import { groupsOf } from '../../../renderer/src/data/groups.js';

describe('the groups a user belongs to (mentions of them are the user’s)', () => {
  const groups = [
    { id: 1, members: [10, 11], direct_subgroup_ids: [2] },
    { id: 2, members: [12], direct_subgroup_ids: [] },
    { id: 3, members: [], direct_subgroup_ids: [1] },
    // A cycle is harmless.
    { id: 4, members: [], direct_subgroup_ids: [5] },
    { id: 5, members: [13], direct_subgroup_ids: [4] },
  ];
  it('directly, or through subgroups at any depth', () => {
    expect([...groupsOf(groups, 12)].sort()).toEqual([1, 2, 3]);
    expect([...groupsOf(groups, 10)].sort()).toEqual([1, 3]);
    expect([...groupsOf(groups, 13)].sort()).toEqual([4, 5]);
    expect(groupsOf(groups, 99).size).toBe(0);
    expect(groupsOf(groups, null).size).toBe(0);
  });
});
