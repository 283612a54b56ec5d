/**
 * Push devices: legacy APNs tokens (POST /users/me/apns_device_token) and E2EE registrations
 * (POST /mobile_push/register, FL 406), plus the simulated push relay that answers E2EE test
 * notifications according to `srv.config.pushRelay`.
 */
import { emit } from '../events/emit.js';
import { badRequest, JsonableError } from '../http/errors.js';
import type { ServerState } from '../state.js';

/** Zulip's validate_token: non-empty, at most 4096 characters; APNs tokens are hex. */
export const MAX_TOKEN_LENGTH = 4096;

export function validateApnsToken(token: string): void {
  if (token === '' || token.length > MAX_TOKEN_LENGTH) throw badRequest('Empty or invalid length token');
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(token)) throw badRequest('Invalid APNS token');
}

export function addApnsToken(srv: ServerState, userId: number, token: string, appid: string): void {
  srv.db
    .prepare("INSERT INTO push_devices (user_id, kind, token, appid) VALUES (?, 'apns', ?, ?) ON CONFLICT(user_id, kind, token) DO UPDATE SET appid = excluded.appid")
    .run(userId, token, appid);
}

export function removeApnsToken(srv: ServerState, userId: number, token: string): void {
  const info = srv.db.prepare("DELETE FROM push_devices WHERE user_id = ? AND kind = 'apns' AND token = ?").run(userId, token);
  if (info.changes === 0) throw badRequest('Token does not exist');
}

export interface E2eeRegistration {
  tokenKind: 'fcm' | 'apns';
  pushAccountId: number;
  pushPublicKey: string;
  bouncerPublicKey: string;
  encryptedPushRegistration: string;
}

export type PushDeviceStatus = 'active' | 'pending' | 'failed';

/**
 * Stores (or replaces) the registration for this push account id. The simulated relay registers
 * it at once when it is reachable (`active`); otherwise it stays `pending`. A `push_device`
 * event reports the status to the user's clients.
 */
export function registerE2eeDevice(srv: ServerState, userId: number, r: E2eeRegistration): PushDeviceStatus {
  const status: PushDeviceStatus = srv.config.pushRelay === 'ok' ? 'active' : 'pending';
  srv.db.prepare("DELETE FROM push_devices WHERE user_id = ? AND kind = 'e2ee' AND push_account_id = ?").run(userId, r.pushAccountId);
  srv.db
    .prepare(
      `INSERT INTO push_devices (user_id, kind, token, push_account_id, token_kind, push_public_key, bouncer_public_key, status)
       VALUES (?, 'e2ee', ?, ?, ?, ?, ?, ?)`,
    )
    .run(userId, r.encryptedPushRegistration, r.pushAccountId, r.tokenKind, r.pushPublicKey, r.bouncerPublicKey, status);
  emit(srv, [userId], { type: 'push_device', push_account_id: String(r.pushAccountId), status });
  return status;
}

/**
 * POST /mobile_push/e2ee/test_notification: needs an active E2EE device of the user (with that
 * push account id, if given); then the relay answers per `srv.config.pushRelay`.
 */
export function sendE2eeTestNotification(srv: ServerState, userId: number, pushAccountId: number | undefined): void {
  const devices = srv.db
    .prepare("SELECT push_account_id FROM push_devices WHERE user_id = ? AND kind = 'e2ee' AND status = 'active'")
    .pluck()
    .all(userId) as number[];
  const targets = pushAccountId === undefined ? devices : devices.filter((d) => d === pushAccountId);
  if (targets.length === 0) throw new JsonableError('NO_ACTIVE_PUSH_DEVICE', 'No active registered push device', 400);
  switch (srv.config.pushRelay) {
    case 'ok':
      return;
    case 'admin_action_required':
      throw new JsonableError('ADMIN_ACTION_REQUIRED', 'Push notification configuration issue on server, contact the server administrator or retry later.', 403);
    case 'connect_failure':
      throw new JsonableError('FAILED_TO_CONNECT_BOUNCER', 'Network error while connecting to Zulip push notification service.', 502);
    case 'server_error':
      throw new JsonableError('INTERNAL_SERVER_ERROR_ON_BOUNCER', 'Internal server error on Zulip push notification service, retry later.', 502);
  }
}
