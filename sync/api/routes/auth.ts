/** Authentication: spec "POST /fetch_api_key". */
import * as z from 'zod';
import { operation, responseTable } from '../operation.js';
import { int, success } from '../schemas/envelope.js';

/** `user_id` is new at FL 171, so older servers omit it. */
export const fetchApiKeyResponse = z.lazy(() => success({
  api_key: z.string(),
  email: z.string(),
  user_id: int.optional(),
}));

/** Spec "POST /fetch_api_key": exchange email/password (or LDAP) credentials for an API key, unauthenticated. */
export const fetchApiKey = operation({
  method: 'POST',
  path: '/fetch_api_key',
  schema: fetchApiKeyResponse,
  // No Authorization header. Bad credentials come back as a 401 `unauthorized` error
  // (`AUTHENTICATION_FAILED`, `USER_DEACTIVATED`, `PASSWORD_AUTH_DISABLED`, ...).
  auth: false,
  request: (args: { username: string; password: string }) => ({ params: { username: args.username, password: args.password } }),
});

/** Response schemas by OpenAPI operation, for the example-conformance test. */
export const authResponses = responseTable(fetchApiKey);
