/**
 * POST /users/me/subscriptions/properties (Zulip's update-subscription-settings; docs/zulip-behaviour.md
 * "Channel settings"): the subscriber's colour, muting, pinning and notification overrides, with
 * `subscription` op `update` events to their own queues only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pendingEvents, registerQueue, withoutIds } from './events-helpers.js';
import { channelId, startTestServer, type TestServer } from './harness.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const PATH = '/users/me/subscriptions/properties';
const set = (who: string, subscription_data: unknown) => t.as(who).post(PATH, { subscription_data: subscription_data as Record<string, unknown> });
const mine = async (who: string, name: string) => {
  const r = await t.as(who).get('/users/me/subscriptions');
  return (r.json.subscriptions as Record<string, unknown>[]).find((s) => s.name === name)!;
};
const storedRow = (who: string, name: string) =>
  t.server.state.db.prepare('SELECT color, is_muted, pin_to_top, properties FROM subscriptions WHERE user_id = ? AND channel_id = ?').get(t.userId(who), channelId(t, name));

describe('POST /users/me/subscriptions/properties', () => {
  it('sets each property, read back by GET /users/me/subscriptions; the answer is a plain success', async () => {
    const general = channelId(t, 'general');
    const r = await set('hamlet', [
      { stream_id: general, property: 'color', value: '#f00f00' },
      { stream_id: general, property: 'is_muted', value: true },
      { stream_id: general, property: 'pin_to_top', value: true },
      { stream_id: general, property: 'desktop_notifications', value: true },
      { stream_id: general, property: 'audible_notifications', value: false },
      { stream_id: general, property: 'push_notifications', value: true },
      { stream_id: general, property: 'email_notifications', value: false },
      { stream_id: general, property: 'wildcard_mentions_notify', value: true },
    ]);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ result: 'success', msg: '' });
    expect(await mine('hamlet', 'general')).toMatchObject({
      color: '#f00f00',
      is_muted: true,
      in_home_view: false,
      pin_to_top: true,
      desktop_notifications: true,
      audible_notifications: false,
      push_notifications: true,
      email_notifications: false,
      wildcard_mentions_notify: true,
    });
    // Another subscriber's settings of the same channel are theirs alone.
    expect(await mine('cordelia', 'general')).toMatchObject({ is_muted: false, pin_to_top: false, desktop_notifications: null });
  });

  it('in_home_view is the deprecated inverse of is_muted', async () => {
    const denmark = channelId(t, 'Denmark');
    await set('hamlet', [{ stream_id: denmark, property: 'in_home_view', value: false }]);
    expect(await mine('hamlet', 'Denmark')).toMatchObject({ is_muted: true, in_home_view: false });
    await set('hamlet', [{ stream_id: denmark, property: 'in_home_view', value: true }]);
    expect(await mine('hamlet', 'Denmark')).toMatchObject({ is_muted: false, in_home_view: true });
  });

  it('sends subscription update events to the user only; a change of muting sends in_home_view then is_muted', async () => {
    const verona = channelId(t, 'Verona');
    const q = await registerQueue(t, 'hamlet', { event_types: ['subscription'] });
    const other = await registerQueue(t, 'cordelia', { event_types: ['subscription'] });
    await set('hamlet', [
      { stream_id: verona, property: 'is_muted', value: true },
      { stream_id: verona, property: 'pin_to_top', value: true },
      { stream_id: verona, property: 'color', value: '#abc' },
    ]);
    await set('hamlet', [{ stream_id: verona, property: 'in_home_view', value: true }]);
    expect(withoutIds(await pendingEvents(t, 'hamlet', q))).toEqual([
      { type: 'subscription', op: 'update', stream_id: verona, property: 'in_home_view', value: false },
      { type: 'subscription', op: 'update', stream_id: verona, property: 'is_muted', value: true },
      { type: 'subscription', op: 'update', stream_id: verona, property: 'pin_to_top', value: true },
      { type: 'subscription', op: 'update', stream_id: verona, property: 'color', value: '#abc' },
      { type: 'subscription', op: 'update', stream_id: verona, property: 'in_home_view', value: true },
      { type: 'subscription', op: 'update', stream_id: verona, property: 'is_muted', value: false },
    ]);
    expect(await pendingEvents(t, 'cordelia', other)).toEqual([]);
  });

  it('setting the value it already has succeeds again (the change is idempotent)', async () => {
    const general = channelId(t, 'general');
    for (let i = 0; i < 2; i++) expect((await set('othello', [{ stream_id: general, property: 'pin_to_top', value: true }])).json.result).toBe('success');
    expect(await mine('othello', 'general')).toMatchObject({ pin_to_top: true });
  });

  it('refuses an unknown property, a value of the wrong type and a colour that is not hex, changing nothing', async () => {
    const general = channelId(t, 'general');
    const before = storedRow('iago', 'general');
    const cases: [unknown, string][] = [
      [[{ stream_id: general, property: 'bad', value: 'bad' }], 'Unknown subscription property: bad'],
      [[{ stream_id: general, property: 'is_muted', value: 'yes' }], 'is_muted is not a boolean'],
      [[{ stream_id: general, property: 'push_notifications', value: 'true' }], 'push_notifications is not a boolean'],
      [[{ stream_id: general, property: 'color', value: true }], 'color is not a valid hex color code'],
      [[{ stream_id: general, property: 'color', value: 'red' }], 'color is not a valid hex color code'],
      // Every change is checked before any is made: the first one here is not applied.
      [
        [
          { stream_id: general, property: 'pin_to_top', value: true },
          { stream_id: general, property: 'color', value: '#1234567' },
        ],
        'color is not a valid hex color code',
      ],
    ];
    for (const [data, msg] of cases) {
      const r = await set('iago', data);
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
    }
    expect(storedRow('iago', 'general')).toEqual(before);
  });

  it('refuses a channel the user cannot reach or is not subscribed to', async () => {
    const scotland = channelId(t, 'Scotland');
    const notSubscribed = await set('hamlet', [{ stream_id: scotland, property: 'is_muted', value: true }]);
    expect(notSubscribed.json).toEqual({ result: 'error', msg: `Not subscribed to channel ID ${scotland}`, code: 'BAD_REQUEST' });
    const missing = await set('hamlet', [{ stream_id: 99999, property: 'is_muted', value: true }]);
    expect(missing.json).toEqual({ result: 'error', msg: 'Invalid channel ID', code: 'BAD_REQUEST' });
    // A private channel the user is not in is not theirs to know of.
    await t.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name: 'iago private' }], invite_only: true });
    const priv = channelId(t, 'iago private');
    expect((await set('hamlet', [{ stream_id: priv, property: 'is_muted', value: true }])).json).toEqual({ result: 'error', msg: 'Invalid channel ID', code: 'BAD_REQUEST' });
  });

  it('malformed subscription_data is a JSON error envelope, never a 500', async () => {
    const missing = await t.as('hamlet').post(PATH, {});
    expect(missing.json).toMatchObject({ result: 'error', code: 'REQUEST_VARIABLE_MISSING', var_name: 'subscription_data' });
    const notJson = await t.as('hamlet').post(PATH, { subscription_data: 'not json' });
    expect(notJson.status).toBe(400);
    expect(notJson.json).toMatchObject({ result: 'error', code: 'INVALID_JSON' });
    for (const bad of [{ stream_id: 1 }, [{ property: 'is_muted', value: true }], [{ stream_id: 'x', property: 'is_muted', value: true }], [{ stream_id: 1, property: 'is_muted' }], [null], [{ stream_id: 1, property: 'is_muted', value: 3 }]]) {
      const r = await set('hamlet', bad);
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ result: 'error', code: 'REQUEST_VARIABLE_INVALID', var_name: 'subscription_data' });
    }
  });
});
