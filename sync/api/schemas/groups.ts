/**
 * User groups and group-setting values (spec "Group-setting value", "User group update value";
 * OpenAPI `GroupSettingValue`, `GroupSettingValueUpdate`, `UserGroup`).
 */
import * as z from 'zod';
import { int } from './envelope.js';

/** The anonymous-group form of a group-setting value: explicit members and subgroups. */
export const anonymousGroupSettingValue = z.object({
  direct_members: z.array(int),
  direct_subgroups: z.array(int),
});
export type AnonymousGroupSettingValue = z.output<typeof anonymousGroupSettingValue>;

/**
 * Who holds a permission: a user group id (named or system group), or an anonymous group.
 * Deactivated users are omitted from `direct_members` from FL 303.
 */
export const groupSettingValue = z.union([int, anonymousGroupSettingValue]);
export type GroupSettingValue = z.output<typeof groupSettingValue>;

/**
 * A change to a group-setting value: `new` is required; `old`, when given, is compare-and-swap
 * (a mismatch is 400 `EXPECTATION_MISMATCH` with `field_name: "old"`).
 */
export const groupSettingValueUpdate = z.object({
  new: groupSettingValue,
  old: groupSettingValue.optional(),
});
export type GroupSettingValueUpdate = z.output<typeof groupSettingValueUpdate>;

/** The six permission settings of a user group (group-setting values; newer servers only). */
export const userGroupPermissionsShape = {
  can_add_members_group: groupSettingValue.optional(),
  can_join_group: groupSettingValue.optional(),
  can_leave_group: groupSettingValue.optional(),
  can_manage_group: groupSettingValue.optional(),
  can_mention_group: groupSettingValue.optional(),
  can_remove_members_group: groupSettingValue.optional(),
};

/**
 * A user group as `GET /user_groups` and `/register` return it. Fields newer than the group
 * basics are optional so an older server still parses: `creator_id`/`date_created` (FL 292),
 * `deactivated` (FL 290, defaults to false), and each `can_*_group` (FL 191..324).
 */
export const userGroup = z.object({
  id: int,
  name: z.string(),
  description: z.string(),
  members: z.array(int),
  direct_subgroup_ids: z.array(int),
  is_system_group: z.boolean(),
  creator_id: int.nullable().optional(),
  date_created: int.nullable().optional(),
  deactivated: z.boolean().default(false),
  ...userGroupPermissionsShape,
});
export type UserGroup = z.output<typeof userGroup>;
