/** Users: spec "POST /users (create a user)", and the referenced GET /users and GET /users/me. */
import * as z from 'zod';
import type { ApiConnection, RequestOptions } from '../core.js';
import { endpoint, operation, responseTable, send } from '../operation.js';
import { emptySuccess, int, success } from '../schemas/envelope.js';
import { user } from '../schemas/users.js';

export const getUsersResponse = z.lazy(() => success({ members: z.array(user) }));
/** `GET /users/me` returns the user's own fields at the top level, plus the deprecated `max_message_id`. */
export const getOwnUserResponse = z.lazy(() => success({ ...user.shape, max_message_id: int.optional() }));
export const createUserResponse = success({ user_id: int });

/** The `user_ids` filter of `GET /users` is new at FL 384. */
export const GET_USERS_USER_IDS_FL = 384;

export interface GetUsersArgs {
  /** Default true: `avatar_url` is null for Gravatar users and the client computes the URL. */
  client_gravatar?: boolean;
  /** Default false. */
  include_custom_profile_fields?: boolean;
  /** Only these users (FL 384). Older servers ignore the filter, so it is applied here instead. */
  user_ids?: readonly number[];
}

const getUsersEndpoint = endpoint({ method: 'GET', path: '/users', schema: getUsersResponse });

/** GET /users (referenced operation): all accessible users, or those in `user_ids`. */
export async function getUsers(conn: ApiConnection, args: GetUsersArgs = {}, opts: RequestOptions = {}) {
  const filterHere = args.user_ids !== undefined && !conn.supports(GET_USERS_USER_IDS_FL);
  const params = {
    client_gravatar: args.client_gravatar,
    include_custom_profile_fields: args.include_custom_profile_fields,
    user_ids: filterHere ? undefined : args.user_ids,
  };
  const res = await send(conn, getUsersEndpoint, { params }, opts);
  if (!filterHere) return res;
  const wanted = new Set(args.user_ids);
  return { ...res, members: res.members.filter((m) => wanted.has(m.user_id)) };
}

/** GET /users/me (referenced operation): the user or bot making the request. */
export const getOwnUser = operation({ method: 'GET', path: '/users/me', schema: getOwnUserResponse });

/** Spec "POST /users": create an account (administrators with `can_create_users`); returns its id. */
export const createUser = operation({
  method: 'POST',
  path: '/users',
  schema: createUserResponse,
  request: (args: { email: string; password: string; full_name: string }) => ({
    params: { email: args.email, password: args.password, full_name: args.full_name },
  }),
});

/** Response schemas by OpenAPI operation, for the example-conformance test. */
/** POST /users/me/muted_users/{muted_user_id}: mute a user ("User already muted" when they are). */
export const muteUser = operation({ method: 'POST', path: '/users/me/muted_users/{muted_user_id}', schema: emptySuccess, request: (args: { userId: number }) => ({ path: { muted_user_id: args.userId } }) });

/** DELETE /users/me/muted_users/{muted_user_id}: unmute a user ("User is not muted" when they are not). */
export const unmuteUser = operation({ method: 'DELETE', path: '/users/me/muted_users/{muted_user_id}', schema: emptySuccess, request: (args: { userId: number }) => ({ path: { muted_user_id: args.userId } }) });

export const userResponses = responseTable(getUsersEndpoint, getOwnUser, createUser, muteUser, unmuteUser);
