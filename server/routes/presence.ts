/**
 * Presence and status: POST /users/me/presence, GET /realm/presence, GET /users/{user_id_or_email}/presence,
 * POST /users/me/status (Zulip's zerver/views/presence.py).
 */
import { JsonableError, invalidParam } from '../http/errors.js';
import { legacyPresence, legacyRealmPresence, realmPresences, updatePresence, updateUserStatus } from '../model/presence.js';
import { getUser, getUserByEmail } from '../model/users.js';
import { route, type ApiRouter } from './context.js';

export function registerPresenceRoutes(r: ApiRouter): void {
  route(r, 'POST', '/users/me/presence', ({ srv, user, params }) => {
    const status = params.reqStr('status');
    if (status !== 'active' && status !== 'idle') throw invalidParam('status', status, `Invalid status: ${status}`);
    params.bool('new_user_input');
    params.int('history_limit_days', { min: 0 });
    const pingOnly = params.bool('ping_only') ?? false;
    const lastUpdateId = params.int('last_update_id', { min: -1 });
    const slim = params.bool('slim_presence') ?? false;
    updatePresence(srv, user.id, status);
    if (pingOnly) return {};
    const serverTimestamp = srv.clock.now() / 1000;
    if (lastUpdateId === undefined && !slim) {
      return { presences: legacyRealmPresence(srv), server_timestamp: serverTimestamp, presence_last_update_id: realmPresences(srv).presence_last_update_id };
    }
    return { ...realmPresences(srv, lastUpdateId ?? -1), server_timestamp: serverTimestamp };
  });
  route(r, 'GET', '/realm/presence', ({ srv }) => ({ presences: legacyRealmPresence(srv), server_timestamp: srv.clock.now() / 1000 }));
  route(r, 'GET', '/users/:user/presence', ({ srv, path }) => {
    const key = path['user'] ?? '';
    const u = /^\d+$/.test(key) ? getUser(srv, Number(key)) : getUserByEmail(srv, key);
    if (!u) throw new JsonableError('BAD_REQUEST', 'No such user', 400);
    return { presence: legacyPresence(srv, u.id) ?? {} };
  });
  route(r, 'POST', '/users/me/status', ({ srv, user, params }) => {
    updateUserStatus(srv, user.id, {
      status_text: params.str('status_text'),
      emoji_name: params.str('emoji_name'),
      emoji_code: params.str('emoji_code'),
      reaction_type: params.str('reaction_type'),
    });
    return {};
  });
}
