/** Push notifications: spec "POST /users/me/apns_device_token" and "POST /mobile_push/e2ee/test_notification". */
import type { ApiConnection, RequestOptions } from '../core.js';
import type { Params } from '../encoding.js';
import { endpoint, operation, responseTable, send } from '../operation.js';
import { emptySuccess } from '../schemas/envelope.js';
import { UnsupportedFeatureError } from '../errors.js';

/** The E2EE test notification endpoint is new at FL 420. */
export const E2EE_TEST_NOTIFICATION_FL = 420;
/** FL 468 replaced its `push_account_id` parameter with `device_id` (docs/zulip-behaviour.md "Push notifications"). */
export const E2EE_TEST_NOTIFICATION_DEVICE_ID_FL = 468;

/** Spec "POST /users/me/apns_device_token" (deprecated from FL 406; `appid` required from FL 223). */
export const addApnsDeviceToken = operation({
  method: 'POST',
  path: '/users/me/apns_device_token',
  schema: emptySuccess,
  request: (args: { token: string; appid: string }) => ({ params: { token: args.token, appid: args.appid } }),
});

const e2eeTestNotification = endpoint({ method: 'POST', path: '/mobile_push/e2ee/test_notification', schema: emptySuccess });

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
  return send(conn, e2eeTestNotification, { params }, opts);
}

/** Response schemas by OpenAPI operation, for the example-conformance test. */
export const pushResponses = responseTable(addApnsDeviceToken, e2eeTestNotification);
