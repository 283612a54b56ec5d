/**
 * The user object: `GET /users` members, `realm_users` in `/register`, `realm_user` add events
 * (docs/zulip-behaviour.md "User and channel lists", "User objects").
 *
 * The OpenAPI marks no field of `User` as required, so anything that older servers, capabilities or
 * the `realm_users` variant may leave out is optional here. The nullable "not a bot" / "not visible"
 * fields default to `null` so a missing key and an explicit `null` read the same.
 */
import * as z from 'zod';
import { int, openIntEnum } from './envelope.js';

/** Organization-level role (spec "Authentication" 4): owner, administrator, moderator, member, guest. */
export const userRole = openIntEnum([100, 200, 300, 400, 600]);
export type UserRole = z.output<typeof userRole>;

/** One custom profile field's value; `rendered_value` only for Markdown-capable fields. */
export const profileFieldValue = z.lazy(() => z.object({
  value: z.string(),
  rendered_value: z.string().optional(),
}));
export type ProfileFieldValue = z.output<typeof profileFieldValue>;

export const user = z.object({
  user_id: int,
  email: z.string(),
  /** `null` when the real address is not visible to us (always present from FL 163). */
  delivery_email: z.string().nullable().default(null),
  full_name: z.string(),
  /** ISO 8601 timestamp. */
  date_joined: z.string(),
  /** Absent in `realm_users` (every user there is active). */
  is_active: z.boolean().optional(),
  is_owner: z.boolean(),
  is_admin: z.boolean(),
  is_guest: z.boolean(),
  is_bot: z.boolean(),
  /** 1 generic, 2 incoming webhook, 3 outgoing webhook, 4 embedded; `null` for humans. */
  bot_type: int.nullable().default(null),
  /** The owner of a bot; `null` for humans and legacy ownerless bots. */
  bot_owner_id: int.nullable().default(null),
  role: userRole,
  /** IANA time zone, `""` when unset. */
  timezone: z.string(),
  /**
   * `null` means "compute the Gravatar URL yourself" (`client_gravatar`); absent at the server's
   * discretion with the `user_avatar_url_field_optional` capability.
   */
  avatar_url: z.string().nullable().optional(),
  /** Cache-busting only (avatar URLs already carry `?v=`); OpenAPI's own `GET /users` example omits it. */
  avatar_version: int.optional(),
  /** Custom profile field id → value. Only for non-bots. */
  profile_data: z.record(z.string(), profileFieldValue).optional(),
  /** FL 433: a placeholder account created by a data import. */
  is_imported_stub: z.boolean().optional(),
  /** FL 433: the `realm_users` spelling of the same flag (docs/zulip-behaviour.md "User objects"). */
  is_imported: z.boolean().optional(),
});
export type User = z.output<typeof user>;
