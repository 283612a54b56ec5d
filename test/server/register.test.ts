/**
 * POST /register (docs/zulip-behaviour.md "Register"): the queue, the always-present fields, and each part of the initial
 * state under its fetch key, shaped by the client's parameters and capabilities.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { atomically } from '../../server/events/emit.js';
import type { Event } from '../../server/events/queues.js';
import { sendMessage, type SendTarget } from '../../server/model/message-send.js';
import { setRealmSettings } from '../../server/model/realm.js';
import { getUser } from '../../server/model/users.js';
import { pendingEvents, registerQueue } from './events-helpers.js';
import { startTestServer, type ParamValue, type TestServer } from './harness.js';

let t: TestServer;
const ch: Record<string, number> = {};
beforeAll(async () => {
  t = await startTestServer();
  for (const name of ['general', 'Verona', 'Denmark', 'Scotland', 'core team']) {
    ch[name] = t.server.state.db.prepare('SELECT id FROM channels WHERE name = ?').pluck().get(name) as number;
  }
});
afterAll(() => t.close());

const reg = async (who: string, params: Record<string, ParamValue | undefined> = {}) => {
  const r = await t.as(who).post('/register', params);
  expect(r.json.result, JSON.stringify(r.json)).toBe('success');
  return r.json;
};

function send(who: string, to: SendTarget, content: string): number {
  const srv = t.server.state;
  return atomically(srv, () => sendMessage(srv, getUser(srv, t.userId(who))!, { to, content }));
}

const BASE_KEYS = ['result', 'msg', 'queue_id', 'last_event_id', 'zulip_feature_level', 'zulip_version', 'zulip_merge_base'];

describe('POST /register: the queue and the always-present fields', () => {
  it('returns queue_id, last_event_id -1, feature level 420, version and merge base', async () => {
    const r = await reg('hamlet', { fetch_event_types: [] });
    expect(r).toEqual({
      result: 'success',
      msg: '',
      queue_id: expect.any(String),
      last_event_id: -1,
      zulip_feature_level: 420,
      zulip_version: t.server.state.config.zulipVersion,
      zulip_merge_base: expect.any(String),
    });
  });

  it('the queue_id can be polled at once', async () => {
    const r = await reg('hamlet', { fetch_event_types: [] });
    const e = await t.as('hamlet').get('/events', { queue_id: r.queue_id as string, last_event_id: -1, dont_block: true });
    expect(e.json).toMatchObject({ result: 'success', events: [] });
  });

  it('each registration creates a new queue', async () => {
    const a = await reg('hamlet', { fetch_event_types: [] });
    const b = await reg('hamlet', { fetch_event_types: [] });
    expect(a.queue_id).not.toBe(b.queue_id);
  });
});

describe('POST /register: which state is returned', () => {
  it('fetch_event_types selects the parts returned', async () => {
    const r = await reg('hamlet', { fetch_event_types: ['saved_snippets', 'navigation_views'] });
    expect(Object.keys(r).sort()).toEqual([...BASE_KEYS, 'saved_snippets', 'navigation_views'].sort());
  });

  it('fetch_event_types defaults to event_types', async () => {
    const r = await reg('hamlet', { event_types: ['user_topic'] });
    expect(Object.keys(r).sort()).toEqual([...BASE_KEYS, 'user_topics'].sort());
  });

  it('fetch_event_types wins over event_types for the state', async () => {
    const r = await reg('hamlet', { event_types: ['user_topic'], fetch_event_types: ['starred_messages'] });
    expect(r).toHaveProperty('starred_messages');
    expect(r).not.toHaveProperty('user_topics');
  });

  it('with neither, all state is returned', async () => {
    const r = await reg('hamlet');
    for (const key of [
      'realm_users',
      'subscriptions',
      'unsubscribed',
      'never_subscribed',
      'unread_msgs',
      'realm_user_groups',
      'user_topics',
      'saved_snippets',
      'navigation_views',
      'scheduled_messages',
      'user_settings',
      'starred_messages',
      'recent_private_conversations',
      'muted_users',
      'max_message_id',
      'max_topic_length',
      'realm_empty_topic_display_name',
    ]) {
      expect(r, key).toHaveProperty(key);
    }
  });

  it('unknown event types are ignored', async () => {
    const r = await reg('hamlet', { event_types: ['no_such_event'], fetch_event_types: ['no_such_event', 'muted_users'] });
    expect(r.muted_users).toEqual([]);
  });

  it('event_types must be a list of strings', async () => {
    const r = await t.as('hamlet').post('/register', { event_types: 'message' });
    expect(r.status).toBe(400);
  });

  it('register keys differ from event names: navigation_views / realm_user_groups / user_topic', async () => {
    const byEvent = await reg('hamlet', { fetch_event_types: ['navigation_view', 'user_group'] });
    expect(byEvent).not.toHaveProperty('navigation_views');
    expect(byEvent).not.toHaveProperty('realm_user_groups');
    const byKey = await reg('hamlet', { fetch_event_types: ['navigation_views', 'realm_user_groups', 'user_topic'] });
    expect(byKey).toHaveProperty('navigation_views');
    expect(byKey).toHaveProperty('realm_user_groups');
    expect(byKey).toHaveProperty('user_topics');
  });
});

describe('POST /register: realm', () => {
  it('has the length limits and the empty-topic display name', async () => {
    const r = await reg('hamlet', { fetch_event_types: ['realm'] });
    expect(r).toMatchObject({
      max_topic_length: 60,
      max_message_length: 10000,
      max_stream_name_length: 60,
      max_stream_description_length: 1024,
      realm_empty_topic_display_name: 'general chat',
    });
  });

  it('has the message editing settings', async () => {
    const r = await reg('hamlet', { fetch_event_types: ['realm'] });
    const group = (name: string) => t.server.state.db.prepare('SELECT id FROM user_groups WHERE name = ?').pluck().get(name);
    expect(r).toMatchObject({
      realm_allow_message_editing: true,
      realm_message_content_edit_limit_seconds: 600,
      realm_move_messages_within_stream_limit_seconds: 259200,
      realm_move_messages_between_streams_limit_seconds: 604800,
      realm_can_move_messages_between_topics_group: group('role:everyone'),
      realm_can_move_messages_between_channels_group: group('role:members'),
      realm_can_resolve_topics_group: group('role:everyone'),
      realm_topics_policy: 'allow_empty_topic',
      realm_can_mention_many_users_group: group('role:administrators'),
    });
  });

  it('event_queue_longpoll_timeout_seconds is the server long-poll period', async () => {
    const r = await reg('hamlet', { fetch_event_types: ['realm'] });
    expect(r.event_queue_longpoll_timeout_seconds).toBe(t.server.state.config.longPollSeconds);
  });

  it('has the typing periods 15000 / 5000 / 10000 ms', async () => {
    const r = await reg('hamlet', { fetch_event_types: ['realm'] });
    expect(r).toMatchObject({
      server_typing_started_expiry_period_milliseconds: 15000,
      server_typing_stopped_wait_period_milliseconds: 5000,
      server_typing_started_wait_period_milliseconds: 10000,
    });
  });

  it('reflects changed realm settings', async () => {
    const srv = t.server.state;
    setRealmSettings(srv, { empty_topic_display_name: 'lobby' });
    try {
      expect((await reg('hamlet', { fetch_event_types: ['realm'] })).realm_empty_topic_display_name).toBe('lobby');
    } finally {
      setRealmSettings(srv, { empty_topic_display_name: 'general chat' });
    }
  });
});

describe('POST /register: realm_user', () => {
  it("has the user's own user_id, email and full_name", async () => {
    const r = await reg('hamlet', { fetch_event_types: ['realm_user'] });
    expect(r).toMatchObject({ user_id: t.userId('hamlet'), email: 'hamlet@example.com', full_name: 'King Hamlet', is_admin: false, is_guest: false });
  });

  it('realm_users lists every active user, without is_active', async () => {
    const r = await reg('hamlet', { fetch_event_types: ['realm_user'] });
    const users = r.realm_users as Array<Record<string, unknown>>;
    expect(users.map((u) => u.email)).toEqual(expect.arrayContaining(['desdemona@example.com', 'polonius@example.com', 'hamlet@example.com']));
    expect(users[0]).not.toHaveProperty('is_active');
    expect(users.find((u) => u.user_id === t.userId('iago'))).toMatchObject({ full_name: 'Iago', role: 200, is_admin: true });
  });

  it('system bots (the Notification Bot) are listed under cross_realm_bots, not realm_users', async () => {
    const r = await reg('hamlet', { fetch_event_types: ['realm_user'] });
    const emails = (k: string) => (r[k] as Array<Record<string, unknown>>).map((u) => u.email);
    expect(emails('cross_realm_bots')).toContain('notification-bot@zulip.com');
    expect(emails('realm_users')).not.toContain('notification-bot@zulip.com');
    expect((r.cross_realm_bots as Array<Record<string, unknown>>)[0]).toMatchObject({ is_bot: true, is_system_bot: true });
  });

  it('client_gravatar defaults to true (avatar_url null); false gives URLs', async () => {
    const dflt = await reg('hamlet', { fetch_event_types: ['realm_user'] });
    expect((dflt.realm_users as Array<Record<string, unknown>>)[0]?.avatar_url).toBeNull();
    const urls = await reg('hamlet', { fetch_event_types: ['realm_user'], client_gravatar: false });
    expect((urls.realm_users as Array<Record<string, unknown>>)[0]?.avatar_url).toEqual(expect.any(String));
  });
});

describe('POST /register: subscriptions', () => {
  it('subscriptions are the channels the user is subscribed to; never_subscribed the visible others', async () => {
    const r = await reg('hamlet', { fetch_event_types: ['subscription'] });
    const names = (k: string) => (r[k] as Array<Record<string, unknown>>).map((s) => s.name).sort();
    expect(names('subscriptions')).toEqual(['Denmark', 'Verona', 'core team', 'general'].sort());
    expect(names('never_subscribed')).toEqual(['Scotland']);
    expect(r.unsubscribed).toEqual([]);
  });

  it('a private channel the user cannot see appears nowhere', async () => {
    const r = await reg('othello', { fetch_event_types: ['subscription'] });
    const all = ['subscriptions', 'unsubscribed', 'never_subscribed'].flatMap((k) => (r[k] as Array<Record<string, unknown>>).map((s) => s.name));
    expect(all).not.toContain('core team');
  });

  it('a guest never sees public channels it is not subscribed to', async () => {
    const r = await reg('polonius', { fetch_event_types: ['subscription'] });
    expect(r.never_subscribed).toEqual([]);
  });

  it('channels the user left are listed as unsubscribed', async () => {
    await t.as('cordelia').delete('/users/me/subscriptions', { subscriptions: ['Denmark'] });
    const r = await reg('cordelia', { fetch_event_types: ['subscription'] });
    expect((r.unsubscribed as Array<Record<string, unknown>>).map((s) => s.name)).toEqual(['Denmark']);
  });

  it('subscription objects carry personal properties (color, is_muted, pin_to_top)', async () => {
    const r = await reg('hamlet', { fetch_event_types: ['subscription'] });
    const general = (r.subscriptions as Array<Record<string, unknown>>).find((s) => s.name === 'general');
    expect(general).toMatchObject({ stream_id: ch.general, color: expect.any(String), is_muted: false, pin_to_top: false });
  });

  it('include_subscribers adds subscribers; without it there are none', async () => {
    const none = await reg('hamlet', { fetch_event_types: ['subscription'] });
    expect((none.subscriptions as Array<Record<string, unknown>>)[0]).not.toHaveProperty('subscribers');
    const withSubs = await reg('hamlet', { fetch_event_types: ['subscription'], include_subscribers: true });
    const verona = (withSubs.subscriptions as Array<Record<string, unknown>>).find((s) => s.name === 'Verona');
    expect(verona?.subscribers).toEqual(expect.arrayContaining([t.userId('hamlet'), t.userId('othello')]));
    const scotland = (withSubs.never_subscribed as Array<Record<string, unknown>>).find((s) => s.name === 'Scotland');
    expect(scotland?.subscribers).toEqual(expect.arrayContaining([t.userId('iago')]));
  });

  it('include_subscribers "partial" is accepted', async () => {
    const r = await reg('hamlet', { fetch_event_types: ['subscription'], include_subscribers: 'partial' });
    expect((r.subscriptions as Array<Record<string, unknown>>)[0]).toHaveProperty('subscribers');
  });

  it('an invalid include_subscribers is rejected', async () => {
    const r = await t.as('hamlet').post('/register', { include_subscribers: 'sometimes' });
    expect(r.status).toBe(400);
  });
});

describe('POST /register: messages', () => {
  it('unread_msgs needs both message and update_message_flags', async () => {
    expect(await reg('hamlet', { fetch_event_types: ['message'] })).not.toHaveProperty('unread_msgs');
    expect(await reg('hamlet', { fetch_event_types: ['update_message_flags'] })).not.toHaveProperty('unread_msgs');
    const r = await reg('hamlet', { fetch_event_types: ['message', 'update_message_flags'] });
    expect(r.unread_msgs).toMatchObject({ count: expect.any(Number), pms: expect.any(Array), streams: expect.any(Array), huddles: expect.any(Array), mentions: expect.any(Array) });
  });

  it('unread_msgs lists a new unread channel message under its topic', async () => {
    const id = send('othello', { channelId: ch.Verona!, topic: 'unread here' }, 'hello');
    const r = await reg('hamlet', { fetch_event_types: ['message', 'update_message_flags'] });
    const streams = (r.unread_msgs as { streams: Array<{ stream_id: number; topic: string; unread_message_ids: number[] }> }).streams;
    expect(streams).toContainEqual({ stream_id: ch.Verona, topic: 'unread here', unread_message_ids: [id] });
  });

  it('the empty topic shows as the display name in unread_msgs without empty_topic_name, as "" with it', async () => {
    const id = send('othello', { channelId: ch.Verona!, topic: '' }, 'no topic');
    const find = (r: Record<string, unknown>) =>
      (r.unread_msgs as { streams: Array<{ topic: string; unread_message_ids: number[] }> }).streams.find((s) => s.unread_message_ids.includes(id))?.topic;
    expect(find(await reg('hamlet', { fetch_event_types: ['message', 'update_message_flags'] }))).toBe('general chat');
    expect(find(await reg('hamlet', { fetch_event_types: ['message', 'update_message_flags'], client_capabilities: { empty_topic_name: true } }))).toBe('');
  });

  it('max_message_id is the highest message id the user received', async () => {
    const id = send('iago', { userIds: [t.userId('hamlet')] }, 'latest');
    const r = await reg('hamlet', { fetch_event_types: ['message'] });
    expect(r.max_message_id).toBe(id);
  });

  it('recent_private_conversations lists DM conversations newest first, user_ids without the user', async () => {
    const group = send('iago', { userIds: [t.userId('hamlet'), t.userId('shiva')] }, 'group chat');
    const one = send('othello', { userIds: [t.userId('hamlet')] }, 'just us');
    const r = await reg('hamlet', { fetch_event_types: ['recent_private_conversations'] });
    const convs = r.recent_private_conversations as Array<{ max_message_id: number; user_ids: number[] }>;
    expect(convs[0]).toEqual({ max_message_id: one, user_ids: [t.userId('othello')] });
    expect(convs).toContainEqual({ max_message_id: group, user_ids: [t.userId('iago'), t.userId('shiva')].sort((a, b) => a - b) });
    for (let i = 1; i < convs.length; i++) expect(convs[i - 1]!.max_message_id).toBeGreaterThan(convs[i]!.max_message_id);
  });

  it('starred_messages lists the ids of starred messages', async () => {
    const id = send('othello', { channelId: ch.Verona!, topic: 'stars' }, 'shine');
    t.server.state.db.prepare('UPDATE user_messages SET flags = flags | 2 WHERE user_id = ? AND message_id = ?').run(t.userId('hamlet'), id);
    const r = await reg('hamlet', { fetch_event_types: ['starred_messages'] });
    expect(r.starred_messages).toContain(id);
  });

  it('muted_users is empty', async () => {
    expect((await reg('hamlet', { fetch_event_types: ['muted_users'] })).muted_users).toEqual([]);
  });
});

describe('POST /register: groups and settings', () => {
  it('realm_user_groups omits deactivated groups unless include_deactivated_groups', async () => {
    const names = (r: Record<string, unknown>) => (r.realm_user_groups as Array<{ name: string }>).map((g) => g.name);
    const plain = await reg('hamlet', { fetch_event_types: ['realm_user_groups'] });
    expect(names(plain)).toEqual(expect.arrayContaining(['players', 'leads', 'role:everyone']));
    expect(names(plain)).not.toContain('retired');
    const capable = await reg('hamlet', { fetch_event_types: ['realm_user_groups'], client_capabilities: { include_deactivated_groups: true } });
    expect(names(capable)).toContain('retired');
  });

  it('user_settings is an object with the user settings', async () => {
    const r = await reg('hamlet', { fetch_event_types: ['user_settings'], client_capabilities: { user_settings_object: true } });
    expect(r.user_settings).toMatchObject({ twenty_four_hour_time: false, emojiset: 'google', timezone: 'Europe/Copenhagen', enter_sends: false });
    expect(r).not.toHaveProperty('emojiset');
  });

  it('without user_settings_object the legacy keys put settings at the top level', async () => {
    const r = await reg('hamlet', { fetch_event_types: ['update_display_settings', 'update_global_notifications'] });
    expect(r).toMatchObject({ emojiset: 'google', twenty_four_hour_time: false, enable_sounds: true });
    expect(r).not.toHaveProperty('user_settings');
  });
});

describe('POST /register: parameters and capabilities', () => {
  it('apply_markdown defaults to false: message events carry Markdown', async () => {
    const q = await registerQueue(t, 'hamlet', { event_types: ['message'] });
    send('othello', { channelId: ch.Verona!, topic: 'md' }, 'some **bold**');
    const m = (await pendingEvents(t, 'hamlet', q))[0]?.message as Record<string, unknown>;
    expect(m).toMatchObject({ content: 'some **bold**', content_type: 'text/x-markdown' });
  });

  it('apply_markdown true gives HTML', async () => {
    const q = await registerQueue(t, 'hamlet', { event_types: ['message'], apply_markdown: true });
    send('othello', { channelId: ch.Verona!, topic: 'md' }, 'some **bold**');
    const m = (await pendingEvents(t, 'hamlet', q))[0]?.message as Record<string, unknown>;
    expect(m).toMatchObject({ content: '<p>some <strong>bold</strong></p>', content_type: 'text/html' });
  });

  it('narrow filters the message events a queue receives', async () => {
    const q = await registerQueue(t, 'hamlet', { event_types: ['message'], narrow: [['stream', 'Denmark']] });
    send('iago', { channelId: ch.Verona!, topic: 'elsewhere' }, 'not for the narrow');
    send('iago', { channelId: ch.Denmark!, topic: 'here' }, 'for the narrow');
    expect((await pendingEvents(t, 'hamlet', q)).map((e: Event) => (e.message as Record<string, unknown>).content)).toEqual(['for the narrow']);
  });

  it('a narrow with an operator the event filter does not support is BAD_REQUEST', async () => {
    const r = await t.as('hamlet').post('/register', { narrow: [['search', 'castle']] });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('BAD_REQUEST');
  });

  it('a malformed narrow is rejected', async () => {
    const r = await t.as('hamlet').post('/register', { narrow: [{ operator: 'stream' }] });
    expect(r.status).toBe(400);
  });

  it('all_public_streams delivers messages of public channels the user is not subscribed to', async () => {
    const plain = await registerQueue(t, 'othello', { event_types: ['message'] });
    const all = await registerQueue(t, 'othello', { event_types: ['message'], all_public_streams: true });
    send('iago', { channelId: ch.Denmark!, topic: 'public' }, 'for everyone');
    expect(await pendingEvents(t, 'othello', plain)).toEqual([]);
    expect((await pendingEvents(t, 'othello', all)).map((e: Event) => (e.message as Record<string, unknown>).content)).toEqual(['for everyone']);
  });

  it('all_public_streams is refused to guests', async () => {
    const r = await t.as('polonius').post('/register', { all_public_streams: true });
    expect(r.status).toBe(400);
  });

  it('client_capabilities must be an object', async () => {
    const r = await t.as('hamlet').post('/register', { client_capabilities: ['empty_topic_name'] });
    expect(r.status).toBe(400);
  });

  it('unknown capabilities are ignored', async () => {
    const r = await reg('hamlet', { fetch_event_types: [], client_capabilities: { some_future_capability: true } });
    expect(r.result).toBe('success');
  });

  it('empty_topic_name shapes the topic in message events', async () => {
    const plain = await registerQueue(t, 'hamlet', { event_types: ['message'] });
    const capable = await registerQueue(t, 'hamlet', { event_types: ['message'], client_capabilities: { empty_topic_name: true } });
    send('othello', { channelId: ch.Verona!, topic: '' }, 'empty topic');
    expect(((await pendingEvents(t, 'hamlet', plain))[0]?.message as Record<string, unknown>).subject).toBe('general chat');
    expect(((await pendingEvents(t, 'hamlet', capable))[0]?.message as Record<string, unknown>).subject).toBe('');
  });
});
