/** Server discovery: docs/zulip-behaviour.md "GET /server_settings" (no authentication). */
import * as z from 'zod';
import type { ApiConnection, RequestOptions } from '../core.js';
import { endpoint, responseTable, send } from '../operation.js';
import { int, success } from '../schemas/envelope.js';

export const externalAuthenticationMethod = z.lazy(() => z.object({
  name: z.string(),
  display_name: z.string(),
  display_icon: z.string().nullable(),
  login_url: z.string(),
  signup_url: z.string(),
}));
export type ExternalAuthenticationMethod = z.output<typeof externalAuthenticationMethod>;

/**
 * Not every field is guaranteed: older servers lack newer keys, and the root domain of a
 * multi-organization server knows no realm-specific ones. A missing `zulip_feature_level` means a
 * server before Zulip 3.0, which the API docs say to treat as level 0.
 */
export const getServerSettingsResponse = z.lazy(() => success({
  /** Deprecated: backend name → enabled. */
  authentication_methods: z.record(z.string(), z.boolean()).optional(),
  external_authentication_methods: z.array(externalAuthenticationMethod).optional(),
  zulip_feature_level: int.default(0),
  zulip_version: z.string(),
  zulip_merge_base: z.string().optional(),
  push_notifications_enabled: z.boolean().optional(),
  /** True when the server deems this client too old to use. */
  is_incompatible: z.boolean().optional(),
  email_auth_enabled: z.boolean().optional(),
  require_email_format_usernames: z.boolean().optional(),
  /** FL 257; older servers send only `realm_uri`. */
  realm_url: z.string().optional(),
  realm_uri: z.string().optional(),
  realm_name: z.string().optional(),
  realm_icon: z.string().optional(),
  realm_description: z.string().optional(),
  realm_web_public_access_enabled: z.boolean().optional(),
}));
export type ServerSettings = z.output<typeof getServerSettingsResponse>;

const getServerSettingsEndpoint = endpoint({ method: 'GET', path: '/server_settings', schema: getServerSettingsResponse, auth: false });

/** Response schemas by OpenAPI operation, for the example-conformance test. */
export const serverResponses = responseTable(getServerSettingsEndpoint);

/**
 * GET /server_settings (docs/zulip-behaviour.md "GET /server_settings"): what the server is and how
 * to log in to it, unauthenticated.
 */
export async function getServerSettings(conn: ApiConnection, opts: RequestOptions = {}): Promise<ServerSettings> {
  const res = await send(conn, getServerSettingsEndpoint, {}, opts);
  // Known before any authenticated call, so route choices can already branch on the level.
  conn.noteServerVersion({ featureLevel: res.zulip_feature_level, zulipVersion: res.zulip_version });
  return res;
}
