/** The unauthenticated endpoints: GET /server_settings and POST /fetch_api_key. */
import { JsonableError } from '../http/errors.js';
import { getRealm } from '../model/realm.js';
import { getUserByEmail, verifyPassword } from '../model/users.js';
import { publicRoute, type ApiRouter } from './context.js';

export function registerServerSettingsRoutes(r: ApiRouter): void {
  publicRoute(r, 'GET', '/server_settings', ({ srv }) => {
    const realm = getRealm(srv);
    return {
      authentication_methods: { password: true, dev: false, email: true, ldap: false },
      external_authentication_methods: [],
      zulip_feature_level: srv.config.featureLevel,
      zulip_version: srv.config.zulipVersion,
      zulip_merge_base: srv.config.zulipVersion,
      push_notifications_enabled: true,
      is_incompatible: false,
      email_auth_enabled: true,
      require_email_format_usernames: true,
      realm_url: srv.config.realmUrl,
      realm_uri: srv.config.realmUrl,
      realm_name: realm.name,
      realm_icon: `${srv.config.realmUrl}/static/images/logo.svg`,
      realm_description: `<p>${realm.description}</p>`,
      realm_web_public_access_enabled: realm.enable_spectator_access,
    };
  });

  /** Spec "POST /fetch_api_key": login credentials in the body; 401 AUTHENTICATION_FAILED otherwise. */
  publicRoute(
    r,
    'POST',
    '/fetch_api_key',
    ({ srv, params }) => {
      const username = params.reqStr('username');
      const password = params.reqStr('password');
      const user = getUserByEmail(srv, username);
      if (!user || !verifyPassword(password, user.password_hash)) {
        throw new JsonableError('AUTHENTICATION_FAILED', 'Your username or password is incorrect', 401);
      }
      if (!user.is_active) throw new JsonableError('USER_DEACTIVATED', 'Account is deactivated', 401);
      return { api_key: user.api_key, email: user.email, user_id: user.id };
    },
    { authAttempt: true },
  );
}
