/**
 * Users: GET /users (client_gravatar, include_custom_profile_fields, user_ids), GET /users/me,
 * GET /users/{user_id}, and POST /users (administrators with the can_create_users permission).
 */
import * as z from 'zod';
import { badRequest, JsonableError } from '../http/errors.js';
import { checkFullName, createAccount, defaultChannels, EMAIL_RE, isStrongPassword } from '../model/accounts.js';
import { apiUser, getUser, getUserByEmail, isAdmin, ROLE, type UserRow } from '../model/users.js';
import type { ServerState } from '../state.js';
import { pathId, route, type ApiRouter, type Ctx } from './context.js';

export const adminRequired = () => new JsonableError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator', 400);

interface UserViewOptions {
  readonly clientGravatar: boolean;
  readonly profileFields: boolean;
}

/** The user object of GET /users and GET /users/{id}: with is_active; profile_data only when asked for (humans). */
function userForApi(srv: ServerState, u: UserRow, o: UserViewOptions): Record<string, unknown> {
  const full: Record<string, unknown> = apiUser(srv, u, { clientGravatar: o.clientGravatar, includeIsActive: true });
  if (!o.profileFields) delete full.profile_data;
  return full;
}

function viewOptions(ctx: Ctx): UserViewOptions {
  return {
    clientGravatar: ctx.params.bool('client_gravatar') ?? true,
    profileFields: ctx.params.bool('include_custom_profile_fields') ?? false,
  };
}

function getUsers(ctx: Ctx) {
  const { srv, params } = ctx;
  const o = viewOptions(ctx);
  const ids = params.json('user_ids', z.array(z.number().int()));
  let rows: UserRow[];
  if (ids) {
    rows = [...new Set(ids)].map((id) => {
      const u = getUser(srv, id);
      if (!u) throw badRequest(`Invalid user ID: ${id}`);
      return u;
    });
  } else {
    rows = srv.db.prepare('SELECT * FROM users ORDER BY id').all() as UserRow[];
  }
  return { members: rows.map((u) => userForApi(srv, u, o)) };
}

function getOwnUser({ srv, user }: Ctx) {
  const maxId = srv.db.prepare('SELECT MAX(message_id) FROM user_messages WHERE user_id = ?').pluck().get(user.id) as number | null;
  return { ...apiUser(srv, user, { clientGravatar: false, includeIsActive: true }), max_message_id: maxId ?? -1 };
}

function getOneUser(ctx: Ctx) {
  const id = pathId(ctx, 'user_id');
  const o = viewOptions(ctx);
  const u = getUser(ctx.srv, id);
  if (!u) throw badRequest('No such user');
  return { user: userForApi(ctx.srv, u, o) };
}

function createUser({ srv, params, user }: Ctx) {
  if (!isAdmin(user)) throw adminRequired();
  const email = params.reqStr('email').trim();
  const password = params.reqStr('password');
  const fullName = params.reqStr('full_name');
  if (!user.can_create_users) throw badRequest('User not authorized to create users');
  const name = checkFullName(fullName);
  if (!EMAIL_RE.test(email)) throw badRequest('Bad name or username');
  if (getUserByEmail(srv, email)) throw badRequest('Email is already in use.');
  if (!isStrongPassword(password)) throw badRequest('The password is too weak.');
  const u = createAccount(srv, { email, full_name: name, password, role: ROLE.member }, defaultChannels(srv));
  return { user_id: u.id };
}

export function registerUserRoutes(r: ApiRouter): void {
  route(r, 'GET', '/users', getUsers);
  route(r, 'POST', '/users', createUser);
  route(r, 'GET', '/users/me', getOwnUser);
  route(r, 'GET', '/users/:user_id', getOneUser);
}
