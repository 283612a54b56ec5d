/** Push notifications: spec "POST /users/me/apns_device_token" and "POST /mobile_push/e2ee/test_notification". */
import type { ApiConnection, RequestOptions } from '../core.js';
import type { Params } from '../encoding.js';
import { emptySuccess } from '../schemas/envelope.js';
import { UnsupportedFeatureError } from '../errors.js';

/** Response schemas by OpenAPI operation, for the example-conformance test. */
export const pushResponses = {
  'POST /users/me/apns_device_token': emptySuccess,
  'POST /mobile_push/e2ee/test_notification': emptySuccess,
} as const;

/** The E2EE test notification endpoint is new at FL 420. */
export const E2EE_TEST_NOTIFICATION_FL = 420;
/** FL 468 replaced its `push_account_id` parameter with `device_id` (docs/zulip-behaviour.md "Push notifications"). */
export const E2EE_TEST_NOTIFICATION_DEVICE_ID_FL = 468;

/** Spec "POST /users/me/apns_device_token" (deprecated from FL 406; `appid` required from FL 223). */
export function addApnsDeviceToken(
  conn: ApiConnection,
  args: { token: string; appid: string },
  opts: RequestOptions = {},
) {
  return conn.request({
    method: 'POST',
    path: '/users/me/apns_device_token',
    params: { token: args.token, appid: args.appid },
    schema: emptySuccess,
    ...opts,
  });
}

/** Spec "POST /mobile_push/e2ee/test_notification" (FL 420): test push to one device, or all when `deviceId` is omitted. */
export async function sendE2eeTestNotification(
  conn: ApiConnection,
  args: { deviceId?: number } = {},
  opts: RequestOptions = {},
) {
  if (!conn.supports(E2EE_TEST_NOTIFICATION_FL)) {
    throw new UnsupportedFeatureError('sendE2eeTestNotification', E2EE_TEST_NOTIFICATION_FL, conn.effectiveFeatureLevel);
  }
  // The device id is `push_account_id` on FL 420..467 and `device_id` from FL 468.
  let params: Params = {};
  if (args.deviceId !== undefined) {
    params = conn.supports(E2EE_TEST_NOTIFICATION_DEVICE_ID_FL)
      ? { device_id: args.deviceId }
      : { push_account_id: args.deviceId };
  }
  return conn.request({
    method: 'POST',
    path: '/mobile_push/e2ee/test_notification',
    params,
    schema: emptySuccess,
    ...opts,
  });
}
