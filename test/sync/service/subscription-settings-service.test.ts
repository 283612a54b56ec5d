/**
 * A channel's personal settings through the engine service, as the UI queues them: offline the
 * change shows at once and waits in the outbox; back online it lands once, the server's own
 * `subscription` update events settle the store, and another device's later change wins.
 */
import { describe, expect, it } from 'vitest';
import type { ChannelSummary, OutboxRowView } from '../../../sync/protocol/index.js';
import { getChannel } from '../../../sync/db/queries/channels.js';
import { channelId } from '../../server/harness.js';
import { until } from '../engine/session-helpers.js';
import { proxy, serviceSuite, signedIn, t } from './service-support.js';

serviceSuite();

const serverSub = async (who: string, id: number) => ((await t.as(who).get('/users/me/subscriptions')).json.subscriptions as Array<Record<string, unknown>>).find((s) => s.stream_id === id)!;

describe('updateSubscriptionSettings', () => {
  it('queued offline, shown at once, lands once; server events reconcile the store', async () => {
    const { svc, call, invoke } = await signedIn('hamlet');
    const general = channelId(t, 'general');
    const local = () => getChannel(svc.activeSession!.db, general)!.subscription!;
    await proxy.pause();
    await until(() => svc.activeSession?.status.state === 'offline', 10_000, 'offline');

    await call('updateSubscriptionSettings', { channel_id: general, property: 'is_muted', value: true });
    await call('updateSubscriptionSettings', { channel_id: general, property: 'pin_to_top', value: true });
    expect(((await call('channels')) as ChannelSummary[]).find((c) => c.channel_id === general)).toMatchObject({ is_muted: true, pin_to_top: true });
    const rows = (await call('outbox')) as OutboxRowView[];
    // Waiting: queued, or sent into the stalled connection.
    expect(rows.map((r) => [r.kind, r.description.text])).toEqual([
      ['update_subscription_settings', 'Mute #general'],
      ['update_subscription_settings', 'Pin #general'],
    ]);
    expect(rows.every((r) => r.state === 'queued' || r.state === 'sending')).toBe(true);
    // Not subscribed: refused at once, nothing queued.
    const refused = await invoke('updateSubscriptionSettings', { channel_id: channelId(t, 'Scotland'), property: 'is_muted', value: true });
    expect(refused.ok === false && refused.error.code).toBe('INVALID_REQUEST');
    // Meanwhile another device of the user changes the colour: its event arrives once back online.
    await t.as('hamlet').post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: general, property: 'color', value: '#e4523d' }] });

    await proxy.resume();
    await call('nudge', { reason: 'network' });
    await until(() => (svc.activeSession?.outbox.counts().pending ?? 1) === 0, 15_000, 'drained');
    await until(() => local().color === '#e4523d', 10_000, 'the colour event');
    expect(local()).toMatchObject({ is_muted: true, in_home_view: false, pin_to_top: true });
    expect(await serverSub('hamlet', general)).toMatchObject({ is_muted: true, pin_to_top: true, color: '#e4523d' });
    expect(proxy.log.filter((l) => l.method === 'POST' && l.path === '/api/v1/users/me/subscriptions/properties')).toHaveLength(2);

    // Later, another device unmutes: the server's event wins over what this device last set.
    await t.as('hamlet').post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: general, property: 'in_home_view', value: true }] });
    await until(() => !local().is_muted, 10_000, 'the unmute event');
    expect(local().in_home_view).toBe(true);
    await svc.close();
  });
});
