/** Authentication: spec "POST /fetch_api_key". */
import { z } from 'zod';
import type { ApiConnection, RequestOptions } from '../core.js';
import { int, success } from '../schemas/envelope.js';

/** `user_id` is new at FL 171, so older servers omit it. */
export const fetchApiKeyResponse = success({
  api_key: z.string(),
  email: z.string(),
  user_id: int.optional(),
});

/** Response schemas by OpenAPI operation, for the example-conformance test. */
export const authResponses = {
  'POST /fetch_api_key': fetchApiKeyResponse,
} as const;

/**
 * Spec "POST /fetch_api_key": exchange login credentials (email/password or LDAP) for an API key.
 * Unauthenticated: no Authorization header is sent. Bad credentials are a 401 `unauthorized` error
 * (`AUTHENTICATION_FAILED`, `USER_DEACTIVATED`, `PASSWORD_AUTH_DISABLED`, ...).
 */
export function fetchApiKey(
  conn: ApiConnection,
  args: { username: string; password: string },
  opts: RequestOptions = {},
) {
  return conn.request({
    method: 'POST',
    path: '/fetch_api_key',
    params: { username: args.username, password: args.password },
    schema: fetchApiKeyResponse,
    auth: false,
    ...opts,
  });
}
