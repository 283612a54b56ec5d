/**
 * `update_subscription_settings` (a channel's personal settings) against the reference server:
 * shown locally at once, later changes of the same (channel, setting) supersede queued ones while
 * other pairs keep their own rows, one request per pair, and a lost answer verified by reading the
 * subscriptions back (setting a value is idempotent: never sent twice).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChangeCollector } from '../../../sync/db/changes.js';
import { getChannel, putChannel, putSubscription } from '../../../sync/db/queries/channels.js';
import { getSubscriptions } from '../../../sync/api/index.js';
import * as setting from '../../../sync/outbox/mutations/subscription-property.js';
import { describeRow } from '../../../sync/outbox/registry.js';
import { channelId } from '../../server/harness.js';
import { kindOf, personalEnv, type Env } from './outbox-env.js';

let env: Env;
beforeEach(async () => {
  env = await personalEnv();
});
afterEach(async () => {
  await env.close();
});

const KIND = 'update_subscription_settings';
const serverSubs = async () => (await env.t.as('iago').get('/users/me/subscriptions')).json.subscriptions as Array<Record<string, unknown>>;
const on = async (id: number) => (await serverSubs()).find((s) => s.stream_id === id)!;
const PATH = /^POST \/api\/v1\/users\/me\/subscriptions\/properties/;

/** The user's subscriptions as the server has them, stored locally (what the first sync does). */
async function cacheSubscriptions(): Promise<void> {
  for (const s of (await getSubscriptions(env.conn)).subscriptions) {
    putChannel(env.db, s);
    putSubscription(env.db, s);
  }
}

describe('update_subscription_settings', () => {
  it('applies locally at once; a later value of the same channel and setting supersedes the queued one, other pairs keep their rows', async () => {
    await cacheSubscriptions();
    const general = channelId(env.t, 'general');
    const denmark = channelId(env.t, 'Denmark');
    const changes = new ChangeCollector();
    const intents: setting.SubscriptionPropertyArgs[] = [
      { stream_id: general, property: 'is_muted', value: true },
      { stream_id: general, property: 'pin_to_top', value: true },
      { stream_id: denmark, property: 'is_muted', value: true },
      { stream_id: general, property: 'is_muted', value: false },
      { stream_id: general, property: 'color', value: '#123456' },
      { stream_id: general, property: 'is_muted', value: true },
      { stream_id: denmark, property: 'desktop_notifications', value: false },
    ];
    for (const a of intents) {
      env.store.enqueue(kindOf(env.store, KIND), a, null);
      setting.applyOptimistic(env.db, a, changes);
    }
    expect(changes.areas.has('subscriptions')).toBe(true);
    expect(getChannel(env.db, general)?.subscription).toMatchObject({ is_muted: true, in_home_view: false, pin_to_top: true, color: '#123456' });
    expect(getChannel(env.db, denmark)?.subscription).toMatchObject({ is_muted: true, desktop_notifications: false });
    expect(env.store.all().map((r) => r.args)).toEqual([
      { stream_id: general, property: 'is_muted', value: true },
      { stream_id: general, property: 'pin_to_top', value: true },
      { stream_id: denmark, property: 'is_muted', value: true },
      { stream_id: general, property: 'color', value: '#123456' },
      { stream_id: denmark, property: 'desktop_notifications', value: false },
    ]);

    await env.drain();
    expect(env.requests(PATH)).toBe(5);
    expect(env.store.all().every((r) => r.state === 'done')).toBe(true);
    expect(await on(general)).toMatchObject({ is_muted: true, pin_to_top: true, color: '#123456' });
    expect(await on(denmark)).toMatchObject({ is_muted: true, desktop_notifications: false });
  });

  it('a lost answer is verified by reading the subscriptions: applied once, not resent', async () => {
    const verona = channelId(env.t, 'Verona');
    env.proxy.rule({ method: 'POST', path: '/api/v1/users/me/subscriptions/properties' }, { kind: 'drop' }, 1);
    env.store.enqueue(kindOf(env.store, KIND), { stream_id: verona, property: 'pin_to_top', value: true }, null);
    await env.drain();
    expect(env.proxy.counts.drop).toBe(1);
    expect(env.requests(PATH)).toBe(1);
    expect(env.store.all()[0]?.state).toBe('done');
    expect(await on(verona)).toMatchObject({ pin_to_top: true });
  });

  it('refuses what the server would: a colour that is not hex, a value of the wrong type', () => {
    const general = channelId(env.t, 'general');
    for (const bad of [
      { stream_id: general, property: 'color', value: 'red' },
      { stream_id: general, property: 'is_muted', value: 'yes' },
      { stream_id: general, property: 'in_home_view', value: true },
    ]) {
      expect(() => env.store.enqueue(kindOf(env.store, KIND), bad, null)).toThrow();
    }
    expect(env.store.all()).toHaveLength(0);
  });

  it('is described in words, linked to the channel', () => {
    const names = { channel: (id: number) => (id === 7 ? 'design' : undefined), user: () => undefined, group: () => undefined };
    const text = (args: setting.SubscriptionPropertyArgs) => describeRow(KIND, args, names).text;
    expect(text({ stream_id: 7, property: 'is_muted', value: true })).toBe('Mute #design');
    expect(text({ stream_id: 7, property: 'is_muted', value: false })).toBe('Unmute #design');
    expect(text({ stream_id: 7, property: 'pin_to_top', value: true })).toBe('Pin #design');
    expect(text({ stream_id: 7, property: 'color', value: '#abcdef' })).toBe('Change the colour of #design to #abcdef');
    expect(text({ stream_id: 7, property: 'push_notifications', value: false })).toBe('Turn off mobile notifications for #design');
    expect(describeRow(KIND, { stream_id: 7, property: 'pin_to_top', value: false }, names).link).toEqual({ to: 'channel', channel_id: 7, name: 'design' });
  });
});
