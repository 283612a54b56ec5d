import { describe, expect, it } from 'vitest';
import { ServerError, ZulipApiError } from '../../../../sync/api/errors.js';
import { addApnsDeviceToken, sendE2eeTestNotification } from '../../../../sync/api/routes/push.js';
import { fakeServer } from '../fake-transport.js';

describe('push routes', () => {
  it('addApnsDeviceToken POSTs token and appid raw', async () => {
    const f = fakeServer();
    const res = await addApnsDeviceToken(f.conn, { token: 'c0ffee', appid: 'org.zulip.Zulip' });
    const req = f.only();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/users/me/apns_device_token');
    expect(req.query).toEqual({});
    expect(req.body).toEqual({ token: 'c0ffee', appid: 'org.zulip.Zulip' });
    expect(res).toEqual({ result: 'success', msg: '' });
  });

  it('addApnsDeviceToken: an invalid token is a BAD_REQUEST api error', async () => {
    const f = fakeServer();
    f.reply({ status: 400, json: { result: 'error', msg: 'Empty or invalid length token', code: 'BAD_REQUEST' } });
    const err = await addApnsDeviceToken(f.conn, { token: '', appid: 'org.zulip.Zulip' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZulipApiError);
    expect(err).toMatchObject({ kind: 'api', code: 'BAD_REQUEST', httpStatus: 400 });
  });

  it('sendE2eeTestNotification without a device sends an empty body (all devices)', async () => {
    const f = fakeServer({ featureLevel: 420 });
    const res = await sendE2eeTestNotification(f.conn);
    const req = f.only();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/mobile_push/e2ee/test_notification');
    expect(req.query).toEqual({});
    expect(req.body).toEqual({});
    expect(res).toEqual({ result: 'success', msg: '' });
  });

  it('on FL 420..467 the device id is sent as push_account_id (JSON int)', async () => {
    for (const featureLevel of [420, 467]) {
      const f = fakeServer({ featureLevel });
      await sendE2eeTestNotification(f.conn, { deviceId: 111222 });
      expect(f.only().body).toEqual({ push_account_id: '111222' });
    }
  });

  it('from FL 468 the device id is sent as device_id (JSON int)', async () => {
    const f = fakeServer({ featureLevel: 468 });
    await sendE2eeTestNotification(f.conn, { deviceId: 7 });
    expect(f.only().body).toEqual({ device_id: '7' });
  });

  it('while the server level is unknown the spec level (420) is assumed: push_account_id', async () => {
    const f = fakeServer();
    await sendE2eeTestNotification(f.conn, { deviceId: 5 });
    expect(f.only().body).toEqual({ push_account_id: '5' });
  });

  it('below FL 420 it throws before sending', async () => {
    const f = fakeServer({ featureLevel: 419 });
    await expect(sendE2eeTestNotification(f.conn, { deviceId: 1 })).rejects.toMatchObject({ name: 'UnsupportedFeatureError', message: expect.stringMatching(/feature level 420.*419/) });
    expect(f.calls).toHaveLength(0);
  });

  it('NO_ACTIVE_PUSH_DEVICE is a 400 api error', async () => {
    const f = fakeServer();
    f.reply({ status: 400, json: { result: 'error', msg: 'No active registered push device', code: 'NO_ACTIVE_PUSH_DEVICE' } });
    const err = await sendE2eeTestNotification(f.conn, { deviceId: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZulipApiError);
    expect(err).toMatchObject({ kind: 'api', code: 'NO_ACTIVE_PUSH_DEVICE', httpStatus: 400 });
  });

  it('403 ADMIN_ACTION_REQUIRED is an api error (not unauthorized)', async () => {
    const f = fakeServer();
    f.reply({
      status: 403,
      json: {
        result: 'error',
        msg: 'Push notification configuration issue on server, contact the server administrator or retry later.',
        code: 'ADMIN_ACTION_REQUIRED',
      },
    });
    const err = await sendE2eeTestNotification(f.conn).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZulipApiError);
    expect(err).toMatchObject({ kind: 'api', code: 'ADMIN_ACTION_REQUIRED', httpStatus: 403 });
  });

  it('502 FAILED_TO_CONNECT_BOUNCER is a transient server error carrying the code', async () => {
    const f = fakeServer();
    f.reply({ status: 502, json: { result: 'error', msg: 'Network error while connecting to Zulip push notification service.', code: 'FAILED_TO_CONNECT_BOUNCER' } });
    const err = await sendE2eeTestNotification(f.conn).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServerError);
    expect(err).toMatchObject({ kind: 'server', code: 'FAILED_TO_CONNECT_BOUNCER', httpStatus: 502, transient: true });
  });

  it('502 INTERNAL_SERVER_ERROR_ON_BOUNCER is a server error carrying the code', async () => {
    const f = fakeServer();
    f.reply({ status: 502, json: { result: 'error', msg: 'Internal server error on Zulip push notification service, retry later.', code: 'INTERNAL_SERVER_ERROR_ON_BOUNCER' } });
    const err = await sendE2eeTestNotification(f.conn).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'server', code: 'INTERNAL_SERVER_ERROR_ON_BOUNCER', httpStatus: 502 });
  });
});
