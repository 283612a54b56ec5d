/**
 * The channels screen through the engine service against the reference server: `allChannels`
 * (every visible channel, answered offline, queued subscribes / unsubscribes shown at once, the
 * user's rights as the engine knows them), `channelCreation`, a channel's subscribers (online only
 * here: OFFLINE with words when the engine holds no list), and the online-only `createChannel` /
 * `addSubscribers` (their answers per channel, the server's refusals in its words).
 */
import { describe, expect, it } from 'vitest';
import type { ChannelCreationView, MessageDeletionView, ChannelListing } from '../../../sync/protocol/index.js';
import { channelId } from '../../server/harness.js';
import { systemGroupId } from '../../../server/model/groups.js';
import { setRealmSettings, getRealm } from '../../../server/model/realm.js';
import { allChannels } from '../../../sync/engine/channel-listing.js';
import { until } from '../engine/session-helpers.js';
import { proxy, serviceSuite, signedIn, t } from './service-support.js';

serviceSuite();

const serverSubscribers = async (name: string) => (await t.as('iago').get(`/streams/${channelId(t, name)}/members`)).json.subscribers as number[];

describe('allChannels and channelCreation', () => {
  it('lists every channel the user can see, subscribed or not, with rights; offline too', async () => {
    const { svc, call } = await signedIn('hamlet');
    const list = (await call('allChannels')) as ChannelListing[];
    const names = list.map((c) => c.name);
    // hamlet sees the public channels and the private one he is in; sorted by name without case.
    expect(names).toEqual(expect.arrayContaining(['core team', 'Denmark', 'general', 'Scotland', 'Verona']));
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    const scotland = list.find((c) => c.name === 'Scotland')!;
    expect(scotland).toMatchObject({ subscribed: false, invite_only: false, can_subscribe: true, can_add_subscribers: true, color: null });
    expect(scotland.subscriber_count).toBeGreaterThan(0);
    expect(list.find((c) => c.name === 'core team')).toMatchObject({ subscribed: true, invite_only: true, description: 'Private planning.' });

    await proxy.pause();
    await until(() => svc.activeSession?.status.state === 'offline', 10_000, 'offline');
    expect(((await call('allChannels')) as ChannelListing[]).length).toBe(list.length);
    const creation = (await call('channelCreation')) as ChannelCreationView;
    expect(creation).toMatchObject({ can_create_public: true, can_create_private: true, is_admin: false, is_owner: false });
    expect(creation.system_groups.map((g) => g.name)).toEqual(expect.arrayContaining(['role:administrators', 'role:members', 'role:everyone']));
    await svc.close();
  });

  it("the realm's can_add_subscribers_group as the engine knows it (register, then live events) decides can_add_subscribers; administrators always", async () => {
    const before = getRealm(t.server.state).can_add_subscribers_group;
    const h = await signedIn('hamlet');
    const rights = () => allChannels(h.svc.activeSession!.db, h.svc.activeSession!.selfUserId).map((c) => c.can_add_subscribers);
    // Zulip's default: members may subscribe others.
    expect(rights().every(Boolean)).toBe(true);
    try {
      await t.as('iago').patch('/realm', { can_add_subscribers_group: { new: systemGroupId(t.server.state, 'role:administrators') } });
      await until(() => rights().every((r) => !r), 10_000, 'the realm event');
      expect(((await h.call('allChannels')) as ChannelListing[]).every((c) => !c.can_add_subscribers)).toBe(true);
      await h.svc.close();
      proxy.close();
      const i = await signedIn('iago');
      expect(((await i.call('allChannels')) as ChannelListing[]).every((c) => c.can_add_subscribers)).toBe(true);
      expect(((await i.call('channelCreation')) as ChannelCreationView).is_admin).toBe(true);
      await i.svc.close();
    } finally {
      setRealmSettings(t.server.state, { can_add_subscribers_group: before });
    }
  });
});

describe('messageDeletion', () => {
  it("members delete their own within the realm's limit, administrators any; the realm's rule as register said it; offline too", async () => {
    const before = getRealm(t.server.state) as unknown as Record<string, unknown>;
    const h = await signedIn('hamlet');
    const hamlet = (await h.call('messageDeletion')) as MessageDeletionView;
    expect(hamlet).toMatchObject({ user_id: h.svc.activeSession!.selfUserId, any: false, own: true, any_in_channels: [] });
    expect(hamlet.limit_seconds === null || hamlet.limit_seconds > 0).toBe(true);
    await proxy.pause();
    await until(() => h.svc.activeSession?.status.state === 'offline', 10_000, 'offline');
    expect(await h.call('messageDeletion')).toEqual(hamlet);
    await h.svc.close();
    proxy.close();
    try {
      setRealmSettings(t.server.state, { can_delete_own_message_group: systemGroupId(t.server.state, 'role:administrators') });
      const again = await signedIn('hamlet');
      expect(await again.call('messageDeletion')).toMatchObject({ any: false, own: false });
      await again.svc.close();
      proxy.close();
      const i = await signedIn('iago');
      expect(await i.call('messageDeletion')).toMatchObject({ any: true, own: true });
      await i.svc.close();
    } finally {
      setRealmSettings(t.server.state, { can_delete_own_message_group: before['can_delete_own_message_group'] as number });
    }
  });
});

describe('subscribe / unsubscribe through the outbox show at once in allChannels', () => {
  it('offline: subscribed flips at once; online they land', async () => {
    const { svc, call } = await signedIn('othello');
    await proxy.pause();
    await until(() => svc.activeSession?.status.state === 'offline', 10_000, 'offline');
    await call('subscribe', { channels: [{ name: 'Denmark' }] });
    await call('unsubscribe', { channels: ['Scotland'] });
    const now = (await call('allChannels')) as ChannelListing[];
    expect(now.find((c) => c.name === 'Denmark')?.subscribed).toBe(true);
    expect(now.find((c) => c.name === 'Scotland')?.subscribed).toBe(false);
    await proxy.resume();
    await call('nudge', { reason: 'network' });
    await until(() => (svc.activeSession?.outbox.counts().pending ?? 1) === 0, 15_000, 'drained');
    const mine = ((await t.as('othello').get('/users/me/subscriptions')).json.subscriptions as Array<{ name: string }>).map((s) => s.name);
    expect(mine).toContain('Denmark');
    expect(mine).not.toContain('Scotland');
    await svc.close();
  });
});

describe('a subscribe the server refuses', () => {
  it("fails with the server's words on its row (what the screen shows beside the channel, with Retry / Discard)", async () => {
    const { svc, call } = await signedIn('othello');
    // othello cannot see the private channel; the queued intent goes by name and the server refuses it.
    const { outbox_id } = (await call('subscribe', { channels: [{ name: 'core team' }] })) as { outbox_id: number };
    await until(() => svc.activeSession?.outbox.counts().failed === 1, 15_000, 'failed');
    const row = ((await call('outbox')) as Array<{ outbox_id: number; state: string; last_error: { message: string } | null }>).find((r) => r.outbox_id === outbox_id);
    expect(row).toMatchObject({ state: 'failed', last_error: { message: 'Unable to access channel (core team).' } });
    await call('outboxDiscard', { outbox_id });
    expect(svc.activeSession?.outbox.counts().failed).toBe(0);
    await svc.close();
  });
});

describe('channelSubscribers', () => {
  it("online: the server's list; offline without a stored list: OFFLINE in words", async () => {
    const { svc, call, invoke } = await signedIn('hamlet');
    const id = channelId(t, 'Verona');
    const r = (await call('channelSubscribers', { channel_id: id })) as { user_ids: number[]; source: string };
    expect(r).toEqual({ channel_id: id, user_ids: await serverSubscribers('Verona'), source: 'server' });
    expect((await invoke('channelSubscribers', { channel_id: 99_999 })).ok).toBe(false);
    await proxy.pause();
    await until(() => svc.activeSession?.status.state === 'offline', 10_000, 'offline');
    const off = await invoke('channelSubscribers', { channel_id: id });
    expect(off.ok === false && off.error).toMatchObject({ code: 'OFFLINE', message: 'the list of subscribers needs a connection to the server' });
    await svc.close();
  });
});

describe('createChannel and addSubscribers (online only)', () => {
  it('creates a private channel with its settings and others subscribed; it appears in allChannels', async () => {
    const { svc, call, invoke } = await signedIn('iago');
    const admins = systemGroupId(t.server.state, 'role:administrators');
    const r = (await call('createChannel', {
      name: 'war council',
      description: 'Plans for **Cyprus**.',
      invite_only: true,
      history_public_to_subscribers: true,
      topics_policy: 'disable_empty_topic',
      can_add_subscribers_group: admins,
      user_ids: [t.userId('shiva')],
    })) as { subscribed_user_ids: number[] };
    expect(r.subscribed_user_ids).toEqual([t.userId('iago'), t.userId('shiva')].sort((a, b) => a - b));
    const row = t.server.state.db.prepare('SELECT * FROM channels WHERE name = ?').get('war council') as Record<string, unknown>;
    expect(row).toMatchObject({ invite_only: 1, history_public_to_subscribers: 1, topics_policy: 'disable_empty_topic', description: 'Plans for **Cyprus**.' });
    const listed = () => allChannels(svc.activeSession!.db, svc.activeSession!.selfUserId).some((c) => c.name === 'war council' && c.subscribed && c.invite_only);
    await until(listed, 10_000, 'listed');
    expect(((await call('allChannels')) as ChannelListing[]).find((c) => c.name === 'war council')).toMatchObject({ history_public_to_subscribers: true, topics_policy: 'disable_empty_topic' });
    // A name the engine knows is refused before anything is sent.
    const dup = await invoke('createChannel', { name: 'War Council' });
    expect(dup.ok === false && dup.error).toMatchObject({ code: 'INVALID_REQUEST' });
    await svc.close();
  });

  it("a member's create the server refuses comes back in the server's words", async () => {
    const { svc, invoke } = await signedIn('othello');
    const r = await invoke('createChannel', { name: 'retention test', message_retention_days: 30 });
    expect(r.ok === false && r.error).toMatchObject({ code: 'SERVER', message: 'Must be an organization owner' });
    expect(t.server.state.db.prepare('SELECT 1 FROM channels WHERE name = ?').get('retention test')).toBeUndefined();
    await svc.close();
  });

  it('addSubscribers answers per channel: subscribed, already subscribed', async () => {
    const { svc, call } = await signedIn('iago');
    const denmark = channelId(t, 'Denmark');
    const general = channelId(t, 'general');
    const r = (await call('addSubscribers', { channel_ids: [denmark, general], user_ids: [t.userId('shiva')] })) as {
      channels: Array<{ channel_id: number; subscribed_user_ids: number[]; already_subscribed_user_ids: number[]; unauthorized: boolean }>;
    };
    expect(r.channels).toEqual([
      { channel_id: denmark, name: 'Denmark', subscribed_user_ids: [t.userId('shiva')], already_subscribed_user_ids: [], unauthorized: false },
      { channel_id: general, name: 'general', subscribed_user_ids: [], already_subscribed_user_ids: [t.userId('shiva')], unauthorized: false },
    ]);
    expect(await serverSubscribers('Denmark')).toContain(t.userId('shiva'));
    await svc.close();
  });

  it("a member denied by the realm's rule gets the server's words; offline is OFFLINE and nothing is queued", async () => {
    const before = getRealm(t.server.state).can_add_subscribers_group;
    const { svc, invoke } = await signedIn('hamlet');
    setRealmSettings(t.server.state, { can_add_subscribers_group: systemGroupId(t.server.state, 'role:administrators') });
    try {
      const r = await invoke('addSubscribers', { channel_ids: [channelId(t, 'Verona')], user_ids: [t.userId('polonius')] });
      expect(r.ok === false && r.error).toMatchObject({ code: 'SERVER', message: 'Insufficient permission' });
    } finally {
      setRealmSettings(t.server.state, { can_add_subscribers_group: before });
    }
    await proxy.pause();
    await until(() => svc.activeSession?.status.state === 'offline', 10_000, 'offline');
    const off = await invoke('addSubscribers', { channel_ids: [channelId(t, 'Verona')], user_ids: [t.userId('polonius')] });
    expect(off.ok === false && off.error.code).toBe('OFFLINE');
    expect(svc.activeSession?.outbox.counts().pending).toBe(0);
    await svc.close();
  });
});
