/**
 * HTTP Basic authentication with email and API key, with real Zulip's answers:
 *   no credentials          401 UNAUTHORIZED + `WWW-Authenticate: Basic realm="zulip"`
 *   malformed or wrong key  401 INVALID_API_KEY
 *   deactivated user        401 USER_DEACTIVATED
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { getUserByEmail, type UserRow } from '../model/users.js';
import type { ServerState } from '../state.js';
import { JsonableError } from './errors.js';

export const notLoggedIn = () =>
  new JsonableError('UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401, {}, { 'WWW-Authenticate': 'Basic realm="zulip"' });

const invalidKey = (msg = 'Invalid API key') => new JsonableError('INVALID_API_KEY', msg, 401);

export function authenticate(srv: ServerState, headers: IncomingHttpHeaders): UserRow {
  const header = headers.authorization;
  if (!header) throw notLoggedIn();
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!m) throw invalidKey('Malformed API key');
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw invalidKey('Malformed API key');
  const email = decoded.slice(0, colon);
  const key = decoded.slice(colon + 1);
  const user = getUserByEmail(srv, email);
  if (!user || !safeEqual(user.api_key, key)) throw invalidKey();
  if (!user.is_active) throw new JsonableError('USER_DEACTIVATED', 'Account is deactivated', 401);
  return user;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
