import { describe, expect, it } from 'vitest';
import { MalformedResponseError, ZulipApiError } from '../../../../sync/api/errors.js';
import { getUserGroups, updateUserGroup, updateUserGroupMembers } from '../../../../sync/api/routes/user-groups.js';
import { fakeServer, ok } from '../fake-transport.js';

describe('user group routes', () => {
  it('updateUserGroup PATCHes name/description raw and each permission as a JSON {new, old} object', async () => {
    const f = fakeServer();
    const res = await updateUserGroup(f.conn, {
      userGroupId: 38,
      name: 'marketing & sales',
      description: 'The "marketing" team',
      can_manage_group: { new: { direct_members: [10], direct_subgroups: [11] }, old: 11 },
      can_mention_group: { new: 13 },
      can_join_group: { new: { direct_members: [], direct_subgroups: [] } },
      can_leave_group: { new: 15 },
      can_add_members_group: { new: 20, old: { direct_members: [1], direct_subgroups: [] } },
      can_remove_members_group: { new: 16 },
      deactivated: false,
    });
    const req = f.only();
    expect(req.method).toBe('PATCH');
    expect(req.path).toBe('/user_groups/38');
    expect(req.query).toEqual({});
    expect(req.body).toEqual({
      name: 'marketing & sales',
      description: 'The "marketing" team',
      can_manage_group: '{"new":{"direct_members":[10],"direct_subgroups":[11]},"old":11}',
      can_mention_group: '{"new":13}',
      can_join_group: '{"new":{"direct_members":[],"direct_subgroups":[]}}',
      can_leave_group: '{"new":15}',
      can_add_members_group: '{"new":20,"old":{"direct_members":[1],"direct_subgroups":[]}}',
      can_remove_members_group: '{"new":16}',
      deactivated: 'false',
    });
    expect(res).toEqual({ result: 'success', msg: '' });
  });

  it('sends only the fields given (no path id in the body)', async () => {
    const f = fakeServer();
    await updateUserGroup(f.conn, { userGroupId: 7, description: 'd' });
    expect(f.only().body).toEqual({ description: 'd' });
  });

  it('can_mention_group accepts only the {new, old?} object form, at the type level', () => {
    const typeOnly = (fn: () => unknown) => fn;
    // @ts-expect-error a bare group id is not an update value
    typeOnly(() => updateUserGroup(fakeServer().conn, { userGroupId: 1, can_mention_group: 11 }));
    typeOnly(() =>
      updateUserGroup(fakeServer().conn, {
        userGroupId: 1,
        // @ts-expect-error a bare anonymous group is not an update value either
        can_mention_group: { direct_members: [1], direct_subgroups: [] },
      }),
    );
    // @ts-expect-error `old` alone, without `new`, is not an update value
    typeOnly(() => updateUserGroup(fakeServer().conn, { userGroupId: 1, can_mention_group: { old: 11 } }));
  });

  it('an invalid group id is a 400 BAD_REQUEST api error', async () => {
    const f = fakeServer();
    f.reply({ status: 400, json: { result: 'error', msg: 'Invalid user group', code: 'BAD_REQUEST' } });
    const err = await updateUserGroup(f.conn, { userGroupId: 999, name: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZulipApiError);
    expect(err).toMatchObject({ kind: 'api', code: 'BAD_REQUEST', httpStatus: 400, serverMsg: 'Invalid user group' });
  });

  it('a stale `old` value is EXPECTATION_MISMATCH with field_name in the details', async () => {
    const f = fakeServer();
    f.reply({
      status: 400,
      json: { result: 'error', msg: "'old' value does not match the expected value.", code: 'EXPECTATION_MISMATCH', field_name: 'old' },
    });
    const err = await updateUserGroup(f.conn, { userGroupId: 3, can_join_group: { new: 1, old: 2 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZulipApiError);
    expect(err).toMatchObject({ kind: 'api', code: 'EXPECTATION_MISMATCH', details: { code: 'EXPECTATION_MISMATCH', field_name: 'old' } });
  });

  it('updateUserGroupMembers POSTs user and subgroup id lists as JSON arrays (FL 311)', async () => {
    const f = fakeServer({ featureLevel: 311 });
    await updateUserGroupMembers(f.conn, { userGroupId: 38, add: [12, 13], delete: [10], add_subgroups: [9], delete_subgroups: [] });
    const req = f.only();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/user_groups/38/members');
    expect(req.query).toEqual({});
    expect(req.body).toEqual({ add: '[12,13]', delete: '[10]', add_subgroups: '[9]', delete_subgroups: '[]' });
  });

  it('updateUserGroupMembers refuses subgroups before FL 311 without sending anything', async () => {
    const f = fakeServer({ featureLevel: 310 });
    await expect(updateUserGroupMembers(f.conn, { userGroupId: 38, add_subgroups: [9] })).rejects.toMatchObject({ name: 'UnsupportedFeatureError', message: expect.stringMatching(/feature level 311.*310/) });
    await expect(updateUserGroupMembers(f.conn, { userGroupId: 38, delete_subgroups: [9] })).rejects.toMatchObject({ name: 'UnsupportedFeatureError', message: expect.stringMatching(/311/) });
    expect(f.calls).toHaveLength(0);
  });

  it('updateUserGroupMembers still changes plain members before FL 311', async () => {
    const f = fakeServer({ featureLevel: 310 });
    await updateUserGroupMembers(f.conn, { userGroupId: 4, add: [1] });
    expect(f.only().body).toEqual({ add: '[1]' });
  });

  it('getUserGroups sends include_deactivated_groups in the query string and parses the groups', async () => {
    const f = fakeServer();
    f.reply(
      ok({
        user_groups: [
          {
            description: 'Owners of this organization',
            id: 1,
            creator_id: null,
            date_created: null,
            name: 'role:owners',
            members: [1],
            direct_subgroup_ids: [],
            is_system_group: true,
            can_add_members_group: 16,
            can_join_group: 16,
            can_leave_group: 15,
            can_manage_group: 16,
            can_mention_group: 11,
            can_remove_members_group: 16,
          },
          {
            description: 'Characters of Hamlet',
            id: 3,
            creator_id: 5,
            date_created: 1717484476,
            name: 'hamletcharacters',
            members: [3, 4],
            direct_subgroup_ids: [2],
            is_system_group: false,
            deactivated: true,
            can_add_members_group: { direct_members: [3], direct_subgroups: [2] },
            can_mention_group: 13,
          },
        ],
      }),
    );
    const res = await getUserGroups(f.conn, { include_deactivated_groups: true });
    const req = f.only();
    expect(req.method).toBe('GET');
    expect(req.path).toBe('/user_groups');
    expect(req.query).toEqual({ include_deactivated_groups: 'true' });
    expect(req.rawBody).toBeUndefined();
    expect(res.user_groups).toHaveLength(2);
    expect(res.user_groups[0]).toMatchObject({ id: 1, name: 'role:owners', deactivated: false, creator_id: null, can_mention_group: 11 });
    expect(res.user_groups[1]).toMatchObject({
      id: 3,
      deactivated: true,
      direct_subgroup_ids: [2],
      can_add_members_group: { direct_members: [3], direct_subgroups: [2] },
    });
    expect(res.user_groups[1]?.can_join_group).toBeUndefined();
  });

  it('getUserGroups without arguments sends no query', async () => {
    const f = fakeServer();
    f.reply(ok({ user_groups: [] }));
    await getUserGroups(f.conn);
    expect(f.only().query).toEqual({});
  });

  it('getUserGroups uses allow_deactivated on FL 290..293', async () => {
    const f = fakeServer({ featureLevel: 293 });
    f.reply(ok({ user_groups: [] }));
    await getUserGroups(f.conn, { include_deactivated_groups: false });
    expect(f.only().query).toEqual({ allow_deactivated: 'false' });
  });

  it('getUserGroups leaves the flag out before FL 290 (no deactivated groups exist)', async () => {
    const f = fakeServer({ featureLevel: 289 });
    f.reply(ok({ user_groups: [] }));
    await getUserGroups(f.conn, { include_deactivated_groups: true });
    expect(f.only().query).toEqual({});
  });

  it('a group with a wrongly typed setting is a malformed response, not a crash', async () => {
    const f = fakeServer();
    f.reply(ok({ user_groups: [{ id: 1, name: 'x', description: '', members: [], direct_subgroup_ids: [], is_system_group: false, can_join_group: 'everyone' }] }));
    const err = await getUserGroups(f.conn).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MalformedResponseError);
    expect(err).toMatchObject({ kind: 'malformed' });
  });
});
