/** User groups: spec "PATCH /user_groups/{user_group_id}", "POST /user_groups/{user_group_id}/members", and list. */
import * as z from 'zod';
import type { ApiConnection, RequestOptions } from '../core.js';
import type { Params } from '../encoding.js';
import { endpoint, operation, responseTable, send } from '../operation.js';
import { emptySuccess, success } from '../schemas/envelope.js';
import { userGroup, type GroupSettingValueUpdate } from '../schemas/groups.js';
import { UnsupportedFeatureError } from '../errors.js';

export const getUserGroupsResponse = z.lazy(() => success({ user_groups: z.array(userGroup) }));

/** `add_subgroups` / `delete_subgroups` on the members endpoint are new at FL 311. */
export const SUBGROUPS_IN_MEMBERS_FL = 311;
/** FL 290 added deactivated groups with the `allow_deactivated` flag; FL 294 renamed it. */
export const DEACTIVATED_GROUPS_FL = 290;
export const INCLUDE_DEACTIVATED_GROUPS_FL = 294;

export interface UpdateUserGroupArgs {
  userGroupId: number;
  name?: string;
  description?: string;
  can_add_members_group?: GroupSettingValueUpdate;
  can_join_group?: GroupSettingValueUpdate;
  can_leave_group?: GroupSettingValueUpdate;
  /** Cannot be `role:internet` or `role:everyone`. */
  can_manage_group?: GroupSettingValueUpdate;
  /**
   * Only the `{new, old?}` object form is accepted (FL 260); a bare group-setting value is a type
   * error here. Cannot be `role:internet` or `role:owners`.
   */
  can_mention_group?: GroupSettingValueUpdate;
  can_remove_members_group?: GroupSettingValueUpdate;
  /** `false` reactivates a deactivated group (FL 386); `true` does nothing on the server. */
  deactivated?: boolean;
}

/** Spec "PATCH /user_groups/{user_group_id}": rename, describe, change permissions or reactivate a group. */
export const updateUserGroup = operation({
  method: 'PATCH',
  path: '/user_groups/{user_group_id}',
  schema: emptySuccess,
  request: ({ userGroupId, ...params }: UpdateUserGroupArgs) => ({ path: { user_group_id: userGroupId }, params }),
});

export interface UpdateUserGroupMembersArgs {
  userGroupId: number;
  /** User ids to add; they must be active users. */
  add?: readonly number[];
  /** User ids to remove. */
  delete?: readonly number[];
  /** Group ids to add as direct subgroups (FL 311). */
  add_subgroups?: readonly number[];
  /** Group ids to remove from the direct subgroups (FL 311). */
  delete_subgroups?: readonly number[];
}

const userGroupMembers = endpoint({ method: 'POST', path: '/user_groups/{user_group_id}/members', schema: emptySuccess });

/** Spec "POST /user_groups/{user_group_id}/members": add or remove members and (FL 311) subgroups. */
export async function updateUserGroupMembers(
  conn: ApiConnection,
  args: UpdateUserGroupMembersArgs,
  opts: RequestOptions = {},
) {
  const { userGroupId, ...params } = args;
  if ((params.add_subgroups !== undefined || params.delete_subgroups !== undefined) && !conn.supports(SUBGROUPS_IN_MEMBERS_FL)) {
    // An older server would silently ignore the subgroup lists and report success.
    throw new UnsupportedFeatureError('updateUserGroupMembers with add_subgroups/delete_subgroups', SUBGROUPS_IN_MEMBERS_FL, conn.effectiveFeatureLevel);
  }
  return send(conn, userGroupMembers, { path: { user_group_id: userGroupId }, params }, opts);
}

const deactivateUserGroupEndpoint = endpoint({ method: 'POST', path: '/user_groups/{user_group_id}/deactivate', schema: emptySuccess });

/**
 * POST /user_groups/{user_group_id}/deactivate (a referenced operation; the spec does not show it):
 * refused with `CANNOT_DEACTIVATE_GROUP_IN_USE` (details `objections`) while the group is in use.
 */
export function deactivateUserGroup(conn: ApiConnection, args: { userGroupId: number }, opts: RequestOptions = {}) {
  if (!conn.supports(DEACTIVATED_GROUPS_FL)) {
    throw new UnsupportedFeatureError('deactivateUserGroup', DEACTIVATED_GROUPS_FL, conn.effectiveFeatureLevel);
  }
  return send(conn, deactivateUserGroupEndpoint, { path: { user_group_id: args.userGroupId }, params: {} }, opts);
}

const getUserGroupsEndpoint = endpoint({ method: 'GET', path: '/user_groups', schema: getUserGroupsResponse });

/** GET /user_groups (referenced operation): every group, deactivated ones on request. */
export function getUserGroups(
  conn: ApiConnection,
  args: { include_deactivated_groups?: boolean } = {},
  opts: RequestOptions = {},
) {
  // A GET, so the flag goes in the query string (the OpenAPI wrongly lists it as a request body:
  // docs/zulip-behaviour.md "User groups"). FL 290..293 called it `allow_deactivated`; before FL 290 no group could be
  // deactivated, so it is left out.
  let params: Params = {};
  if (args.include_deactivated_groups !== undefined) {
    if (conn.supports(INCLUDE_DEACTIVATED_GROUPS_FL)) {
      params = { include_deactivated_groups: args.include_deactivated_groups };
    } else if (conn.supports(DEACTIVATED_GROUPS_FL)) {
      params = { allow_deactivated: args.include_deactivated_groups };
    }
  }
  return send(conn, getUserGroupsEndpoint, { params }, opts);
}

/** Response schemas by OpenAPI operation, for the example-conformance test. */
export const userGroupResponses = responseTable(
  updateUserGroup,
  userGroupMembers,
  getUserGroupsEndpoint,
  deactivateUserGroupEndpoint,
);
