/**
 * Subscriptions and channels: POST/GET/DELETE /users/me/subscriptions and GET /streams, from the
 * spec (+ docs/zulip-behaviour.md "POST /users/me/subscriptions").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientCapabilities } from '../../server/events/queues.js';
import { systemGroupId } from '../../server/model/groups.js';
import { type RealmSettings } from '../../server/model/realm.js';
import { startTestServer, withRealm as withRealmOn, type TestServer } from './harness.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

function listen(who: string, capabilities: ClientCapabilities = {}) {
  const q = t.server.state.queues.register(t.userId(who), { eventTypes: null, capabilities, applyMarkdown: true, clientGravatar: false, allPublicStreams: false, narrow: [] });
  return { events: () => t.server.state.queues.poll(q.id, q.userId, undefined, true) };
}

const group = (name: string) => systemGroupId(t.server.state, name);
const groupId = (name: string) => t.server.state.db.prepare('SELECT id FROM user_groups WHERE name = ?').pluck().get(name) as number;
const channel = (name: string) => t.server.state.db.prepare('SELECT * FROM channels WHERE name = ?').get(name) as Record<string, unknown> | undefined;

const withRealm = (changes: Partial<RealmSettings>, fn: () => Promise<void>) => withRealmOn(t, changes, fn);

describe('POST /users/me/subscriptions: subscribing', () => {
  it('subscribes the caller to an existing channel: subscribed maps user id to channel names', async () => {
    const r = await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'Scotland' }] });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ result: 'success', subscribed: { [t.userId('hamlet')]: ['Scotland'] }, already_subscribed: {} });
  });

  it('a channel the user is already subscribed to is listed in already_subscribed', async () => {
    const r = await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'general' }] });
    expect(r.json).toMatchObject({ subscribed: {}, already_subscribed: { [t.userId('hamlet')]: ['general'] } });
  });

  it('subscriptions is required', async () => {
    const r = await t.as('hamlet').post('/users/me/subscriptions', {});
    expect(r.json).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'subscriptions' });
  });

  it('principals as user ids subscribe other users', async () => {
    const r = await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'Scotland' }], principals: [t.userId('cordelia')] });
    expect(r.json).toMatchObject({ subscribed: { [t.userId('cordelia')]: ['Scotland'] } });
  });

  it('principals as emails subscribe other users', async () => {
    const r = await t.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }], principals: ['othello@example.com'] });
    expect(r.json).toMatchObject({ subscribed: { [t.userId('othello')]: ['Denmark'] } });
  });

  it('a nonexistent principal is HTTP 400 BAD_REQUEST', async () => {
    const r = await t.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }], principals: [9999] });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });

  it('a deactivated principal is HTTP 400 BAD_REQUEST', async () => {
    const db = t.server.state.db;
    db.prepare("INSERT INTO users (email, delivery_email, full_name, role, is_active, api_key, date_joined) VALUES ('gone@example.com', 'gone@example.com', 'Gone', 400, 0, 'k-gone', 0)").run();
    const r = await t.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }], principals: ['gone@example.com'] });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('BAD_REQUEST');
  });

  it('a private channel the caller cannot access: "Unable to access channel (core team)."', async () => {
    const r = await t.as('othello').post('/users/me/subscriptions', { subscriptions: [{ name: 'core team' }] });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Unable to access channel (core team).' });
  });

  it('authorization_errors_fatal false: HTTP 200 with the channel under unauthorized', async () => {
    const r = await t.as('othello').post('/users/me/subscriptions', { subscriptions: [{ name: 'core team' }, { name: 'Verona' }], authorization_errors_fatal: false });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ unauthorized: ['core team'], already_subscribed: { [t.userId('othello')]: ['Verona'] } });
  });

  it('unauthorized is absent when authorization_errors_fatal is true (the default)', async () => {
    const r = await t.as('othello').post('/users/me/subscriptions', { subscriptions: [{ name: 'Verona' }] });
    expect(r.json).not.toHaveProperty('unauthorized');
  });

  it('guests may not use the endpoint', async () => {
    const r = await t.as('polonius').post('/users/me/subscriptions', { subscriptions: [{ name: 'Verona' }] });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Not allowed for guest users' });
  });

  it('subscribing others needs can_add_subscribers_group (realm) …', async () => {
    await withRealm({ can_add_subscribers_group: group('role:administrators') }, async () => {
      const r = await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'Verona' }], principals: [t.userId('polonius')] });
      expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Insufficient permission' });
    });
  });

  it('… or the channel\'s can_add_subscribers_group', async () => {
    await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'perm-chan' }], can_add_subscribers_group: { direct_members: [t.userId('othello')], direct_subgroups: [] } });
    await withRealm({ can_add_subscribers_group: group('role:administrators') }, async () => {
      const r = await t.as('othello').post('/users/me/subscriptions', { subscriptions: [{ name: 'perm-chan' }], principals: [t.userId('cordelia')] });
      expect(r.json).toMatchObject({ result: 'success', subscribed: { [t.userId('cordelia')]: ['perm-chan'] } });
    });
  });

  it('subscribing yourself through principals is not subscribing others', async () => {
    await withRealm({ can_add_subscribers_group: group('role:nobody') }, async () => {
      const r = await t.as('shiva').post('/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }], principals: [t.userId('shiva')] });
      expect(r.json).toMatchObject({ subscribed: { [t.userId('shiva')]: ['Denmark'] } });
    });
  });

  it('new_subscription_messages_sent is reported when send_new_subscription_messages is true (default)', async () => {
    const r = await t.as('cordelia').post('/users/me/subscriptions', { subscriptions: [{ name: 'Verona' }] });
    expect(r.json.new_subscription_messages_sent).toBe(true);
    const r2 = await t.as('cordelia').post('/users/me/subscriptions', { subscriptions: [{ name: 'Verona' }], send_new_subscription_messages: false });
    expect(r2.json).not.toHaveProperty('new_subscription_messages_sent');
  });
});

describe('POST /users/me/subscriptions: creating channels', () => {
  it('a missing channel is created with its description; the creator is subscribed', async () => {
    const r = await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'Elsinore', description: 'The **castle**' }] });
    expect(r.json).toMatchObject({ subscribed: { [t.userId('hamlet')]: ['Elsinore'] } });
    const ch = channel('Elsinore')!;
    expect(ch).toMatchObject({ description: 'The **castle**', invite_only: 0, creator_id: t.userId('hamlet'), topics_policy: 'inherit', message_retention_days: null });
    expect(ch.rendered_description).toContain('<strong>castle</strong>');
  });

  it('a name longer than max_stream_name_length is rejected', async () => {
    const r = await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'x'.repeat(61) }] });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Channel name too long (limit: 60 characters).' });
  });

  it('an empty name is rejected', async () => {
    expect((await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: '  ' }] })).json).toMatchObject({ code: 'BAD_REQUEST', msg: "Channel name can't be empty." });
  });

  it('a description longer than max_stream_description_length is rejected', async () => {
    const r = await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'long-desc', description: 'd'.repeat(1025) }] });
    expect(r.json.code).toBe('BAD_REQUEST');
    expect(channel('long-desc')).toBeUndefined();
  });

  it('creation needs can_create_public_channel_group', async () => {
    await withRealm({ can_create_public_channel_group: group('role:administrators') }, async () => {
      expect((await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'no-public' }] })).json).toMatchObject({ msg: 'Insufficient permission' });
    });
  });

  it('private creation needs can_create_private_channel_group', async () => {
    await withRealm({ can_create_private_channel_group: group('role:administrators') }, async () => {
      expect((await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'no-private' }], invite_only: true })).json).toMatchObject({ msg: 'Insufficient permission' });
    });
  });

  it('invite_only creates a private channel with protected history by default', async () => {
    await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'secret' }], invite_only: true });
    expect(channel('secret')).toMatchObject({ invite_only: 1, history_public_to_subscribers: 0 });
  });

  it('history_public_to_subscribers true on a private channel shares history', async () => {
    await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'secret-shared' }], invite_only: true, history_public_to_subscribers: true });
    expect(channel('secret-shared')).toMatchObject({ invite_only: 1, history_public_to_subscribers: 1 });
  });

  it('is_web_public requires the realm\'s enable_spectator_access', async () => {
    const r = await t.as('desdemona').post('/users/me/subscriptions', { subscriptions: [{ name: 'web1' }], is_web_public: true });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Web-public channels are not enabled.' });
  });

  it('is_web_public requires membership in can_create_web_public_channel_group (owners by default)', async () => {
    await withRealm({ enable_spectator_access: true }, async () => {
      expect((await t.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name: 'web2' }], is_web_public: true })).json).toMatchObject({ msg: 'Insufficient permission' });
      expect((await t.as('desdemona').post('/users/me/subscriptions', { subscriptions: [{ name: 'web3' }], is_web_public: true })).status).toBe(200);
      expect(channel('web3')).toMatchObject({ is_web_public: 1 });
    });
  });

  it('is_default_stream makes the new channel a default channel (administrators only)', async () => {
    expect((await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'def1' }], is_default_stream: true })).json).toMatchObject({ msg: 'Insufficient permission' });
    expect((await t.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name: 'def2' }], is_default_stream: true })).status).toBe(200);
    expect(channel('def2')).toMatchObject({ is_default: 1 });
  });

  it('a default channel cannot be private', async () => {
    const r = await t.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name: 'def3' }], is_default_stream: true, invite_only: true });
    expect(r.json).toMatchObject({ msg: 'A default channel cannot be private.' });
  });

  it('message_retention_days "unlimited" (owners only) is stored as -1', async () => {
    expect((await t.as('desdemona').post('/users/me/subscriptions', { subscriptions: [{ name: 'keep' }], message_retention_days: 'unlimited' })).status).toBe(200);
    expect(channel('keep')).toMatchObject({ message_retention_days: -1 });
  });

  it('message_retention_days as an integer is stored', async () => {
    await t.as('desdemona').post('/users/me/subscriptions', { subscriptions: [{ name: 'keep30' }], message_retention_days: 30 });
    expect(channel('keep30')).toMatchObject({ message_retention_days: 30 });
  });

  it('message_retention_days other than realm_default needs an owner', async () => {
    const r = await t.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name: 'keep2' }], message_retention_days: 30 });
    expect(r.json).toMatchObject({ code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' });
  });

  it('message_retention_days "realm_default" is allowed to anyone and stored as null', async () => {
    expect((await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'keep3' }], message_retention_days: 'realm_default' })).status).toBe(200);
    expect(channel('keep3')).toMatchObject({ message_retention_days: null });
  });

  it('an invalid message_retention_days is rejected', async () => {
    expect((await t.as('desdemona').post('/users/me/subscriptions', { subscriptions: [{ name: 'keep4' }], message_retention_days: 0 })).json.code).toBe('BAD_REQUEST');
    expect((await t.as('desdemona').post('/users/me/subscriptions', { subscriptions: [{ name: 'keep4' }], message_retention_days: 'forever' })).json.code).toBe('BAD_REQUEST');
  });

  it('topics_policy defaults to inherit and accepts the four values', async () => {
    for (const p of ['allow_empty_topic', 'disable_empty_topic', 'empty_topic_only', 'inherit']) {
      expect((await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: `tp-${p}` }], topics_policy: p })).status).toBe(200);
      expect(channel(`tp-${p}`)).toMatchObject({ topics_policy: p });
    }
  });

  it('an unknown topics_policy is rejected', async () => {
    expect((await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'tp-bad' }], topics_policy: 'sometimes' })).json.code).toBe('REQUEST_VARIABLE_INVALID');
  });

  it('can_* group settings are stored and shown by GET /streams', async () => {
    const value = { direct_members: [t.userId('othello')], direct_subgroups: [groupId('leads')] };
    await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'perms' }], can_remove_subscribers_group: value, can_send_message_group: group('role:members') });
    const s = (await t.as('hamlet').get('/streams')).json.streams as Array<Record<string, unknown>>;
    expect(s.find((c) => c.name === 'perms')).toMatchObject({
      can_remove_subscribers_group: value,
      can_send_message_group: group('role:members'),
      can_administer_channel_group: { direct_members: [t.userId('hamlet')], direct_subgroups: [] },
      can_add_subscribers_group: group('role:nobody'),
    });
  });

  it('a group setting naming a nonexistent group is rejected', async () => {
    expect((await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'bad-g' }], can_send_message_group: 9999 })).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid user group' });
  });

  it('a group setting naming a deactivated group is rejected', async () => {
    const r = await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'bad-g' }], can_send_message_group: { direct_members: [], direct_subgroups: [groupId('retired')] } });
    expect(r.json.code).toBe('BAD_REQUEST');
    expect(channel('bad-g')).toBeUndefined();
  });

  it('role:everyone is not allowed for can_add_subscribers_group, nor role:internet anywhere', async () => {
    expect((await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'bad-g' }], can_add_subscribers_group: group('role:everyone') })).json.code).toBe('BAD_REQUEST');
    expect((await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'bad-g' }], can_send_message_group: group('role:internet') })).json.code).toBe('BAD_REQUEST');
  });

  it('creation parameters are ignored for channels that already exist', async () => {
    const r = await t.as('shiva').post('/users/me/subscriptions', { subscriptions: [{ name: 'Scotland', description: 'changed?' }], invite_only: true, is_default_stream: true });
    expect(r.status).toBe(200);
    expect(channel('Scotland')).toMatchObject({ invite_only: 0, is_default: 0, description: 'Heath and castles.' });
  });
});

describe('POST /users/me/subscriptions: events', () => {
  it('the new subscriber gets subscription add (with subscribers); others get peer_add', async () => {
    const me = listen('othello');
    const peer = listen('shiva');
    const nonSubscriber = listen('polonius');
    await t.as('othello').post('/users/me/subscriptions', { subscriptions: [{ name: 'general' }, { name: 'Verona' }, { name: 'Elsinore' }] });
    const mine = await me.events();
    const add = mine.find((e) => e.type === 'subscription' && e.op === 'add') as unknown as { subscriptions: Array<Record<string, unknown>> };
    expect(add.subscriptions.map((s) => s.name)).toEqual(['Elsinore']);
    expect(add.subscriptions[0]).toMatchObject({ stream_id: channel('Elsinore')!.id, color: expect.any(String), is_muted: false, in_home_view: true, pin_to_top: false, desktop_notifications: null });
    expect(add.subscriptions[0]!.subscribers).toEqual(expect.arrayContaining([t.userId('hamlet'), t.userId('othello')]));
    expect(await peer.events()).toContainEqual(expect.objectContaining({ type: 'subscription', op: 'peer_add', stream_ids: [channel('Elsinore')!.id], user_ids: [t.userId('othello')] }));
    // A guest cannot see a public channel they are not subscribed to.
    expect((await nonSubscriber.events()).filter((e) => e.type === 'subscription')).toEqual([]);
  });

  it('a new public channel: stream op create to every non-guest user', async () => {
    const member = listen('cordelia');
    const guest = listen('polonius');
    await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'announce-me', description: 'x' }] });
    const created = (await member.events()).find((e) => e.type === 'stream');
    expect(created).toMatchObject({ type: 'stream', op: 'create', streams: [expect.objectContaining({ name: 'announce-me', invite_only: false, creator_id: t.userId('hamlet') })] });
    expect((await guest.events()).filter((e) => e.type === 'stream')).toEqual([]);
  });

  it('a new private channel: stream op create only to those who can see it (subscribers, administrators)', async () => {
    const outsider = listen('cordelia');
    const admin = listen('iago');
    const sub = listen('othello');
    await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'hush' }], invite_only: true, principals: [t.userId('hamlet'), t.userId('othello')] });
    expect((await outsider.events()).filter((e) => e.type === 'stream' || e.type === 'subscription')).toEqual([]);
    expect(await admin.events()).toContainEqual(expect.objectContaining({ type: 'stream', op: 'create' }));
    const subEvents = await sub.events();
    expect(subEvents).toContainEqual(expect.objectContaining({ type: 'stream', op: 'create' }));
    expect(subEvents).toContainEqual(expect.objectContaining({ type: 'subscription', op: 'add' }));
  });

  it('a new default channel: default_streams event', async () => {
    const l = listen('cordelia');
    await t.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name: 'def-ev' }], is_default_stream: true });
    const ev = (await l.events()).find((e) => e.type === 'default_streams') as unknown as { default_streams: Array<{ name: string }> };
    expect(ev.default_streams.map((c) => c.name)).toContain('def-ev');
  });
});

describe('GET /users/me/subscriptions', () => {
  it('lists the caller\'s subscriptions sorted by name, without subscribers by default', async () => {
    const r = await t.as('polonius').get('/users/me/subscriptions');
    const subs = r.json.subscriptions as Array<Record<string, unknown>>;
    expect(subs.map((s) => s.name)).toEqual(['Denmark', 'general']);
    expect(subs[0]).not.toHaveProperty('subscribers');
    expect(subs[0]).toMatchObject({ stream_id: expect.any(Number), color: expect.any(String), subscriber_count: expect.any(Number), can_send_message_group: expect.anything() });
  });

  it('include_subscribers=true adds subscribers', async () => {
    const subs = (await t.as('polonius').get('/users/me/subscriptions', { include_subscribers: 'true' })).json.subscriptions as Array<Record<string, unknown>>;
    expect(subs.find((s) => s.name === 'Denmark')!.subscribers).toEqual(expect.arrayContaining([t.userId('polonius'), t.userId('hamlet')]));
  });

  it('include_subscribers=partial gives the full list for small channels', async () => {
    const subs = (await t.as('polonius').get('/users/me/subscriptions', { include_subscribers: 'partial' })).json.subscriptions as Array<Record<string, unknown>>;
    expect(subs.find((s) => s.name === 'Denmark')!.subscribers).toEqual(expect.arrayContaining([t.userId('polonius')]));
  });

  it('an invalid include_subscribers is rejected', async () => {
    expect((await t.as('polonius').get('/users/me/subscriptions', { include_subscribers: 'some' })).json.code).toBe('REQUEST_VARIABLE_INVALID');
  });
});

describe('GET /streams', () => {
  const names = async (who: string, params: Record<string, boolean> = {}) =>
    ((await t.as(who).get('/streams', params)).json.streams as Array<{ name: string }>).map((s) => s.name);

  it('by default: public channels and subscribed channels, sorted by name', async () => {
    const n = await names('othello');
    expect(n).toEqual([...n].sort());
    expect(n).toContain('Denmark');
    expect(n).not.toContain('core team');
    expect(await names('hamlet')).toContain('core team');
  });

  it('guests do not get public channels, only subscribed ones', async () => {
    expect(await names('polonius')).toEqual(['Denmark', 'general']);
  });

  it('include_public false leaves only subscribed channels', async () => {
    const n = await names('cordelia', { include_public: false });
    expect(n).not.toContain('perms');
    expect(n).toContain('general');
  });

  it('include_subscribed false leaves only public channels', async () => {
    const n = await names('hamlet', { include_subscribed: false });
    expect(n).not.toContain('core team');
    expect(n).toContain('general');
  });

  it('include_all: every channel the user has metadata access to (administrators: all)', async () => {
    expect(await names('iago', { include_all: true })).toContain('secret');
    expect(await names('othello', { include_all: true })).not.toContain('core team');
  });

  it('include_default adds default channels for guests', async () => {
    expect(await names('polonius', { include_default: true })).toContain('Verona');
  });

  it('include_web_public adds web-public channels', async () => {
    expect(await names('polonius', { include_web_public: true })).toContain('web3');
  });

  it('include_owner_subscribed: a bot also gets the channels its owner is subscribed to', async () => {
    const db = t.server.state.db;
    db.prepare("INSERT INTO users (email, delivery_email, full_name, role, is_bot, bot_type, bot_owner_id, api_key, date_joined) VALUES ('bot-bot@example.com', 'bot-bot@example.com', 'Bot', 400, 1, 1, ?, 'botkey-123', 0)").run(t.userId('polonius'));
    const all = (await t.as('bot-bot@example.com').get('/streams', { include_public: false, include_owner_subscribed: true })).json.streams as Array<{ name: string }>;
    expect(all.map((s) => s.name)).toEqual(['Denmark', 'general']);
    const none = (await t.as('bot-bot@example.com').get('/streams', { include_public: false })).json.streams as Array<{ name: string }>;
    expect(none).toEqual([]);
  });

  it('include_can_access_content adds channels the user can read', async () => {
    expect(await names('polonius', { include_subscribed: false, include_can_access_content: true })).toEqual(['Denmark', 'general']);
  });

  it('archived channels are excluded unless exclude_archived is false', async () => {
    t.server.state.db.prepare("UPDATE channels SET is_archived = 1 WHERE name = 'keep3'").run();
    expect(await names('hamlet')).not.toContain('keep3');
    expect(await names('hamlet', { exclude_archived: false })).toContain('keep3');
  });

  it('each channel is a BasicChannel', async () => {
    const s = ((await t.as('hamlet').get('/streams')).json.streams as Array<Record<string, unknown>>).find((c) => c.name === 'general');
    expect(s).toMatchObject({
      stream_id: expect.any(Number),
      name: 'general',
      is_archived: false,
      description: 'Everyone, everything.',
      rendered_description: expect.any(String),
      date_created: expect.any(Number),
      invite_only: false,
      is_web_public: false,
      history_public_to_subscribers: true,
      topics_policy: 'inherit',
      message_retention_days: null,
      can_remove_subscribers_group: group('role:administrators'),
      subscriber_count: expect.any(Number),
    });
  });
});

describe('DELETE /users/me/subscriptions', () => {
  it('unsubscribes the caller: removed / not_removed', async () => {
    await t.as('cordelia').post('/users/me/subscriptions', { subscriptions: [{ name: 'leave-me' }] });
    const r = await t.as('cordelia').delete('/users/me/subscriptions', { subscriptions: ['leave-me', 'Scotland', 'Elsinore'] });
    expect(r.json).toMatchObject({ removed: ['leave-me', 'Scotland'], not_removed: ['Elsinore'] });
  });

  it('subscription remove to the user, peer_remove to the others', async () => {
    const me = listen('shiva');
    const peer = listen('iago');
    await t.as('shiva').delete('/users/me/subscriptions', { subscriptions: ['Denmark'] });
    const id = channel('Denmark')!.id;
    expect(await me.events()).toContainEqual(expect.objectContaining({ type: 'subscription', op: 'remove', subscriptions: [{ name: 'Denmark', stream_id: id }] }));
    expect(await peer.events()).toContainEqual(expect.objectContaining({ type: 'subscription', op: 'peer_remove', stream_ids: [id], user_ids: [t.userId('shiva')] }));
  });

  it('a nonexistent channel is an error', async () => {
    expect((await t.as('shiva').delete('/users/me/subscriptions', { subscriptions: ['nowhere'] })).json.code).toBe('BAD_REQUEST');
  });

  it('unsubscribing others needs can_remove_subscribers_group (administrators by default)', async () => {
    expect((await t.as('hamlet').delete('/users/me/subscriptions', { subscriptions: ['general'], principals: [t.userId('othello')] })).json.msg).toBe('Insufficient permission');
    expect((await t.as('iago').delete('/users/me/subscriptions', { subscriptions: ['general'], principals: [t.userId('othello')] })).json).toMatchObject({ removed: ['general'] });
  });

  it('a later subscribe reactivates the subscription and keeps its color', async () => {
    const before = t.server.state.db.prepare('SELECT color FROM subscriptions WHERE user_id = ? AND channel_id = ?').pluck().get(t.userId('othello'), channel('general')!.id);
    await t.as('othello').post('/users/me/subscriptions', { subscriptions: [{ name: 'general' }] });
    const after = t.server.state.db.prepare('SELECT color, active FROM subscriptions WHERE user_id = ? AND channel_id = ?').get(t.userId('othello'), channel('general')!.id);
    expect(after).toEqual({ color: before, active: 1 });
  });
});

describe('GET /streams/{stream_id}/members', () => {
  it('lists the active subscribers of a public channel to anyone who can see it', async () => {
    const r = await t.as('othello').get(`/streams/${channel('Denmark')!.id}/members`);
    expect(r.status).toBe(200);
    const ids = (r.json.subscribers as number[]).slice();
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids).toContain(t.userId('hamlet'));
    // Exactly the active subscriptions (earlier tests changed Denmark's): inactive ones are left out.
    const active = t.server.state.db.prepare('SELECT user_id FROM subscriptions WHERE channel_id = ? AND active = 1 ORDER BY user_id').pluck().all(channel('Denmark')!.id);
    expect(ids).toEqual(active);
    expect(ids).not.toContain(t.userId('shiva'));
  });

  it('a private channel: its subscribers and administrators see the list, others get "Invalid channel ID"', async () => {
    const id = channel('core team')!.id;
    expect((await t.as('hamlet').get(`/streams/${id}/members`)).json.subscribers).toContain(t.userId('hamlet'));
    expect((await t.as('shiva').get(`/streams/${id}/members`)).json).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
    expect((await t.as('iago').get(`/streams/${id}/members`)).status).toBe(200);
  });

  it('an unknown channel is "Invalid channel ID"', async () => {
    expect((await t.as('hamlet').get('/streams/99999/members')).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
  });
});
