/**
 * Push: the deprecated APNs token registration (POST/DELETE /users/me/apns_device_token), E2EE
 * device registration (POST /mobile_push/register, FL 406) and the E2EE test notification
 * (POST /mobile_push/e2ee/test_notification, FL 420).
 */
import { badRequest, missingParam } from '../http/errors.js';
import { addApnsToken, registerE2eeDevice, removeApnsToken, sendE2eeTestNotification, validateApnsToken } from '../model/push.js';
import { route, type ApiRouter } from './context.js';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function registerPushRoutes(r: ApiRouter): void {
  route(r, 'POST', '/users/me/apns_device_token', ({ srv, params, user }) => {
    const token = params.reqStr('token');
    const appid = params.reqStr('appid');
    validateApnsToken(token);
    if (!/^[A-Za-z0-9.-]+$/.test(appid)) throw badRequest('Invalid app ID');
    addApnsToken(srv, user.id, token, appid);
  });

  route(r, 'DELETE', '/users/me/apns_device_token', ({ srv, params, user }) => {
    const token = params.reqStr('token');
    validateApnsToken(token);
    removeApnsToken(srv, user.id, token);
  });

  route(r, 'POST', '/mobile_push/register', ({ srv, params, user }) => {
    const tokenKind = params.choice('token_kind', ['fcm', 'apns'] as const);
    if (tokenKind === undefined) throw missingParam('token_kind');
    const pushAccountId = params.reqInt('push_account_id', { min: 0 });
    const pushPublicKey = params.reqStr('push_public_key');
    const bouncerPublicKey = params.reqStr('bouncer_public_key');
    const encrypted = params.reqStr('encrypted_push_registration');
    if (pushPublicKey === '' || !BASE64.test(pushPublicKey)) throw badRequest('Invalid `push_public_key`.');
    if (encrypted === '' || !BASE64.test(encrypted)) throw badRequest('Invalid `encrypted_push_registration`.');
    registerE2eeDevice(srv, user.id, { tokenKind, pushAccountId, pushPublicKey, bouncerPublicKey, encryptedPushRegistration: encrypted });
  });

  route(r, 'POST', '/mobile_push/e2ee/test_notification', ({ srv, params, user }) => {
    const pushAccountId = params.int('push_account_id');
    sendE2eeTestNotification(srv, user.id, pushAccountId);
  });
}
