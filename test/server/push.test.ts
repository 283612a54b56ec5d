/** Push: POST /users/me/apns_device_token, POST /mobile_push/register, POST /mobile_push/e2ee/test_notification (spec + Errors table). */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());
afterEach(() => {
  t.server.state.config.pushRelay = 'ok';
});

const HEX_TOKEN = 'c0ffee'.repeat(10) + 'abcd';
const device = (pushAccountId: number) => ({
  token_kind: 'fcm',
  push_account_id: pushAccountId,
  push_public_key: 'cHVibGljLWtleQ==',
  bouncer_public_key: 'Ym91bmNlci1rZXk=',
  encrypted_push_registration: 'ZW5jcnlwdGVk',
});

describe('POST /users/me/apns_device_token', () => {
  it('a hex token with an appid is registered: empty success', async () => {
    const r = await t.as('hamlet').post('/users/me/apns_device_token', { token: HEX_TOKEN, appid: 'org.zulip.Zulip' });
    expect(r.json).toEqual({ result: 'success', msg: '' });
    const row = t.server.state.db.prepare("SELECT appid FROM push_devices WHERE user_id = ? AND kind = 'apns' AND token = ?").get(t.userId('hamlet'), HEX_TOKEN);
    expect(row).toEqual({ appid: 'org.zulip.Zulip' });
  });

  it('registering the same token again succeeds', async () => {
    expect((await t.as('hamlet').post('/users/me/apns_device_token', { token: HEX_TOKEN, appid: 'org.zulip.Zulip' })).status).toBe(200);
  });

  it('an empty token: BAD_REQUEST "Empty or invalid length token"', async () => {
    expect((await t.as('hamlet').post('/users/me/apns_device_token', { token: '', appid: 'org.zulip.Zulip' })).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Empty or invalid length token' });
  });

  it('a token longer than 4096 characters: BAD_REQUEST "Empty or invalid length token"', async () => {
    expect((await t.as('hamlet').post('/users/me/apns_device_token', { token: 'ab'.repeat(2049), appid: 'org.zulip.Zulip' })).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Empty or invalid length token' });
  });

  it('a token that is not hex: BAD_REQUEST "Invalid APNS token"', async () => {
    expect((await t.as('hamlet').post('/users/me/apns_device_token', { token: 'not-hex!', appid: 'org.zulip.Zulip' })).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid APNS token' });
  });

  it('token and appid are required', async () => {
    expect((await t.as('hamlet').post('/users/me/apns_device_token', { appid: 'org.zulip.Zulip' })).json).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'token' });
    expect((await t.as('hamlet').post('/users/me/apns_device_token', { token: HEX_TOKEN })).json).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'appid' });
  });

  it('DELETE removes a registered token; an unknown one is "Token does not exist"', async () => {
    expect((await t.as('hamlet').delete('/users/me/apns_device_token', { token: HEX_TOKEN })).status).toBe(200);
    expect((await t.as('hamlet').delete('/users/me/apns_device_token', { token: HEX_TOKEN })).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Token does not exist' });
  });
});

describe('POST /mobile_push/register', () => {
  it('registers an E2EE device; the user\'s clients get push_device with status active', async () => {
    const q = t.server.state.queues.register(t.userId('othello'), { eventTypes: null, capabilities: {}, applyMarkdown: true, clientGravatar: false, allPublicStreams: false, narrow: [] });
    expect((await t.as('othello').post('/mobile_push/register', device(2408))).json).toEqual({ result: 'success', msg: '' });
    expect(await t.server.state.queues.poll(q.id, q.userId, undefined, true)).toEqual([{ type: 'push_device', push_account_id: '2408', status: 'active', id: 0 }]);
  });

  it('every field is required; token_kind is fcm or apns; keys are base64', async () => {
    const { push_public_key: _omit, ...rest } = device(1);
    expect((await t.as('othello').post('/mobile_push/register', rest)).json).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'push_public_key' });
    expect((await t.as('othello').post('/mobile_push/register', { ...device(1), token_kind: 'sms' })).json.code).toBe('REQUEST_VARIABLE_INVALID');
    expect((await t.as('othello').post('/mobile_push/register', { ...device(1), push_public_key: 'not base64!' })).json.code).toBe('BAD_REQUEST');
  });
});

describe('POST /mobile_push/e2ee/test_notification', () => {
  it('no registered device for the user: NO_ACTIVE_PUSH_DEVICE (400)', async () => {
    const r = await t.as('cordelia').post('/mobile_push/e2ee/test_notification');
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ result: 'error', code: 'NO_ACTIVE_PUSH_DEVICE' });
  });

  it('an APNs token alone is not an E2EE device', async () => {
    await t.as('cordelia').post('/users/me/apns_device_token', { token: HEX_TOKEN, appid: 'org.zulip.Zulip' });
    expect((await t.as('cordelia').post('/mobile_push/e2ee/test_notification')).json.code).toBe('NO_ACTIVE_PUSH_DEVICE');
  });

  it('with a registered device: empty success (to all devices when push_account_id is omitted)', async () => {
    await t.as('shiva').post('/mobile_push/register', device(77));
    expect((await t.as('shiva').post('/mobile_push/e2ee/test_notification')).json).toEqual({ result: 'success', msg: '' });
  });

  it('push_account_id selects the device; an unknown one is NO_ACTIVE_PUSH_DEVICE', async () => {
    expect((await t.as('shiva').post('/mobile_push/e2ee/test_notification', { push_account_id: 77 })).status).toBe(200);
    expect((await t.as('shiva').post('/mobile_push/e2ee/test_notification', { push_account_id: 78 })).json.code).toBe('NO_ACTIVE_PUSH_DEVICE');
  });

  it('another user\'s device does not count', async () => {
    expect((await t.as('iago').post('/mobile_push/e2ee/test_notification', { push_account_id: 77 })).json.code).toBe('NO_ACTIVE_PUSH_DEVICE');
  });

  it('relay configuration problem: 403 ADMIN_ACTION_REQUIRED', async () => {
    t.server.state.config.pushRelay = 'admin_action_required';
    const r = await t.as('shiva').post('/mobile_push/e2ee/test_notification');
    expect(r.status).toBe(403);
    expect(r.json.code).toBe('ADMIN_ACTION_REQUIRED');
  });

  it('relay unreachable: 502 FAILED_TO_CONNECT_BOUNCER', async () => {
    t.server.state.config.pushRelay = 'connect_failure';
    const r = await t.as('shiva').post('/mobile_push/e2ee/test_notification');
    expect(r.status).toBe(502);
    expect(r.json.code).toBe('FAILED_TO_CONNECT_BOUNCER');
  });

  it('relay 5xx: 502 INTERNAL_SERVER_ERROR_ON_BOUNCER', async () => {
    t.server.state.config.pushRelay = 'server_error';
    const r = await t.as('shiva').post('/mobile_push/e2ee/test_notification');
    expect(r.status).toBe(502);
    expect(r.json.code).toBe('INTERNAL_SERVER_ERROR_ON_BOUNCER');
  });

  it('a device registered while the relay is unreachable stays pending: no active device yet', async () => {
    t.server.state.config.pushRelay = 'connect_failure';
    await t.as('polonius').post('/mobile_push/register', device(5));
    t.server.state.config.pushRelay = 'ok';
    expect((await t.as('polonius').post('/mobile_push/e2ee/test_notification')).json.code).toBe('NO_ACTIVE_PUSH_DEVICE');
  });
});
