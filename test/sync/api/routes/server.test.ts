import { describe, expect, it } from 'vitest';
import { getServerSettings, serverResponses } from '../../../../sync/api/routes/server.js';
import { fakeServer, ok } from '../fake-transport.js';

/** OpenAPI's hand-written example for GET /server_settings, plus a feature level. */
const example = {
  authentication_methods: { password: true, dev: true, email: true, ldap: false, remoteuser: false, github: true, azuread: false, google: true, saml: true },
  zulip_version: '11.0',
  zulip_merge_base: '11.0',
  zulip_feature_level: 420,
  push_notifications_enabled: false,
  is_incompatible: false,
  email_auth_enabled: true,
  require_email_format_usernames: true,
  realm_uri: 'http://localhost:9991',
  realm_url: 'http://localhost:9991',
  realm_name: 'Zulip Dev',
  realm_icon: 'https://secure.gravatar.com/avatar/62429d594b6ffc712f54aee976a18b44?d=identicon',
  realm_description: "<p>The Zulip development environment default organization.  It's great for testing!</p>",
  realm_web_public_access_enabled: false,
  external_authentication_methods: [
    {
      name: 'saml:idp_name',
      display_name: 'SAML',
      display_icon: null,
      login_url: '/accounts/login/social/saml/idp_name',
      signup_url: '/accounts/register/social/saml/idp_name',
    },
    {
      name: 'github',
      display_name: 'GitHub',
      display_icon: '/static/images/authentication_backends/github-icon.png',
      login_url: '/accounts/login/social/github',
      signup_url: '/accounts/register/social/github',
    },
  ],
};

describe('getServerSettings', () => {
  it('GETs /server_settings without credentials and parses the answer', async () => {
    const f = fakeServer();
    f.reply(ok(example));
    const res = await getServerSettings(f.conn);
    const req = f.only();
    expect(req.method).toBe('GET');
    expect(req.path).toBe('/server_settings');
    expect(req.query).toEqual({});
    expect(req.rawBody).toBeUndefined();
    expect(req.headers).not.toHaveProperty('authorization');
    expect(res.realm_name).toBe('Zulip Dev');
    expect(res.external_authentication_methods?.map((m) => [m.name, m.display_icon])).toEqual([
      ['saml:idp_name', null],
      ['github', '/static/images/authentication_backends/github-icon.png'],
    ]);
    expect(res.authentication_methods?.password).toBe(true);
  });

  it('teaches the connection the feature level and version', async () => {
    const f = fakeServer();
    f.reply(ok(example));
    expect(f.conn.featureLevel).toBeUndefined();
    await getServerSettings(f.conn);
    expect(f.conn.featureLevel).toBe(420);
    expect(f.conn.zulipVersion).toBe('11.0');
  });

  it('a server without zulip_feature_level (before Zulip 3.0) is level 0', async () => {
    const f = fakeServer({ featureLevel: 420 });
    const { zulip_feature_level: _fl, zulip_merge_base: _mb, realm_url: _url, ...old } = example;
    f.reply(ok({ ...old, zulip_version: '2.1.7' }));
    const res = await getServerSettings(f.conn);
    expect(res.zulip_feature_level).toBe(0);
    expect(res.realm_url).toBeUndefined();
    expect(res.realm_uri).toBe('http://localhost:9991');
    expect(f.conn.featureLevel).toBe(0);
    expect(f.conn.supports(1)).toBe(false);
    expect(f.conn.zulipVersion).toBe('2.1.7');
  });

  it('the root domain of a multi-organization server has no realm fields', async () => {
    const f = fakeServer();
    f.reply(ok({ zulip_version: '11.0', zulip_feature_level: 420, push_notifications_enabled: true, unknown_future_key: 1 }));
    const res = await getServerSettings(f.conn);
    expect(res.realm_name).toBeUndefined();
    expect(res).not.toHaveProperty('unknown_future_key');
  });

  it('a body that is not server settings is malformed', async () => {
    const f = fakeServer();
    f.reply(ok({ zulip_feature_level: 'latest' }));
    await expect(getServerSettings(f.conn)).rejects.toMatchObject({ kind: 'malformed' });
    expect(f.conn.featureLevel).toBeUndefined();
  });
});

describe('serverResponses', () => {
  it('maps the OpenAPI operation name to the schema', () => {
    expect(Object.keys(serverResponses)).toEqual(['GET /server_settings']);
    expect(serverResponses['GET /server_settings'].safeParse({ result: 'success', msg: '', ...example }).success).toBe(true);
  });
});
