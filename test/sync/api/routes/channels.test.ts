import { describe, expect, it } from 'vitest';
import { ZulipApiError } from '../../../../sync/api/errors.js';
import { getStreams, getStreamTopics, getSubscriptions, subscribe, unsubscribe } from '../../../../sync/api/routes/channels.js';
import { fakeServer, ok } from '../fake-transport.js';

const management = {
  can_add_subscribers_group: 10,
  can_remove_subscribers_group: 10,
  can_subscribe_group: 10,
  creator_id: null,
  date_created: 1691057093,
  description: 'A private channel',
  first_message_id: 18,
  folder_id: 1,
  is_recently_active: true,
  history_public_to_subscribers: false,
  invite_only: true,
  is_announcement_only: false,
  is_archived: false,
  is_default: false,
  is_web_public: false,
  message_retention_days: null,
  name: 'management',
  rendered_description: '<p>A private channel</p>',
  stream_id: 2,
  stream_post_policy: 1,
  stream_weekly_traffic: null,
  subscriber_count: 20,
};

describe('channel routes', () => {
  it('subscribe POSTs every parameter with its encoding: objects/arrays/bools/ints as JSON', async () => {
    const f = fakeServer();
    f.reply(ok({ subscribed: { '2': ['Verona'] }, already_subscribed: { '1': ['Denmark'] } }));
    const res = await subscribe(f.conn, {
      subscriptions: [{ name: 'Verona', description: 'Italian city & "more"' }, { name: 'Denmark' }],
      principals: [1, 2],
      authorization_errors_fatal: true,
      announce: true,
      invite_only: false,
      is_web_public: false,
      is_default_stream: true,
      history_public_to_subscribers: true,
      message_retention_days: 20,
      topics_policy: 'allow_empty_topic',
      can_add_subscribers_group: 10,
      can_remove_subscribers_group: { direct_members: [1], direct_subgroups: [10] },
      can_administer_channel_group: { direct_members: [1], direct_subgroups: [] },
      can_delete_any_message_group: 11,
      can_delete_own_message_group: 12,
      can_move_messages_out_of_channel_group: 13,
      can_move_messages_within_channel_group: 14,
      can_send_message_group: 15,
      can_subscribe_group: 16,
      can_resolve_topics_group: 17,
      folder_id: 3,
      send_new_subscription_messages: false,
    });
    const req = f.only();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/users/me/subscriptions');
    expect(req.query).toEqual({});
    expect(req.body).toEqual({
      subscriptions: '[{"name":"Verona","description":"Italian city & \\"more\\""},{"name":"Denmark"}]',
      principals: '[1,2]',
      authorization_errors_fatal: 'true',
      announce: 'true',
      invite_only: 'false',
      is_web_public: 'false',
      is_default_stream: 'true',
      history_public_to_subscribers: 'true',
      message_retention_days: '20',
      topics_policy: '"allow_empty_topic"',
      can_add_subscribers_group: '10',
      can_remove_subscribers_group: '{"direct_members":[1],"direct_subgroups":[10]}',
      can_administer_channel_group: '{"direct_members":[1],"direct_subgroups":[]}',
      can_delete_any_message_group: '11',
      can_delete_own_message_group: '12',
      can_move_messages_out_of_channel_group: '13',
      can_move_messages_within_channel_group: '14',
      can_send_message_group: '15',
      can_subscribe_group: '16',
      can_resolve_topics_group: '17',
      folder_id: '3',
      send_new_subscription_messages: 'false',
    });
    expect(res.subscribed).toEqual({ '2': ['Verona'] });
    expect(res.already_subscribed).toEqual({ '1': ['Denmark'] });
    expect(res.unauthorized).toBeUndefined();
  });

  it('subscribe with only the required list sends just that', async () => {
    const f = fakeServer();
    f.reply(ok({ subscribed: {}, already_subscribed: {} }));
    await subscribe(f.conn, { subscriptions: [{ name: 'Verona' }] });
    expect(f.only().body).toEqual({ subscriptions: '[{"name":"Verona"}]' });
  });

  it('principals may be API emails (JSON array of strings)', async () => {
    const f = fakeServer();
    f.reply(ok({ subscribed: {}, already_subscribed: {} }));
    await subscribe(f.conn, { subscriptions: [{ name: 'Verona' }], principals: ['ZOE@zulip.com'] });
    expect(f.only().body.principals).toBe('["ZOE@zulip.com"]');
  });

  it('principals cannot mix ids and emails, at the type level', () => {
    const typeOnly = (fn: () => unknown) => fn;
    // @ts-expect-error a list is all ids or all emails
    typeOnly(() => subscribe(fakeServer().conn, { subscriptions: [], principals: [1, 'a@b.c'] }));
    // @ts-expect-error the removed stream_post_policy is not a parameter
    typeOnly(() => subscribe(fakeServer().conn, { subscriptions: [], stream_post_policy: 1 }));
  });

  it('message_retention_days strings go JSON-encoded ("unlimited" with quotes), as the server parses JSON', async () => {
    const f = fakeServer();
    f.reply(ok({ subscribed: {}, already_subscribed: {} }));
    f.reply(ok({ subscribed: {}, already_subscribed: {} }));
    await subscribe(f.conn, { subscriptions: [{ name: 'a' }], message_retention_days: 'unlimited' });
    await subscribe(f.conn, { subscriptions: [{ name: 'a' }], message_retention_days: 'realm_default' });
    expect(f.calls[0]?.body.message_retention_days).toBe('"unlimited"');
    expect(f.calls[1]?.body.message_retention_days).toBe('"realm_default"');
  });

  it('subscribe parses unauthorized and new_subscription_messages_sent when present', async () => {
    const f = fakeServer();
    f.reply(
      ok({
        subscribed: { '7': ['Verona'] },
        already_subscribed: {},
        unauthorized: ['secret'],
        new_subscription_messages_sent: true,
      }),
    );
    const res = await subscribe(f.conn, {
      subscriptions: [{ name: 'Verona' }, { name: 'secret' }],
      principals: [7],
      authorization_errors_fatal: false,
    });
    expect(f.only().body.authorization_errors_fatal).toBe('false');
    expect(res.unauthorized).toEqual(['secret']);
    expect(res.new_subscription_messages_sent).toBe(true);
  });

  it('a deactivated or unknown principal is a 400 BAD_REQUEST api error', async () => {
    const f = fakeServer();
    f.reply({ status: 400, json: { result: 'error', msg: 'No such user', code: 'BAD_REQUEST' } });
    const err = await subscribe(f.conn, { subscriptions: [{ name: 'a' }], principals: [999] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZulipApiError);
    expect(err).toMatchObject({ kind: 'api', code: 'BAD_REQUEST', httpStatus: 400 });
  });

  it('a private channel without access (errors fatal) is a BAD_REQUEST api error', async () => {
    const f = fakeServer();
    f.reply({ status: 400, json: { msg: 'Unable to access channel (private).', result: 'error', code: 'BAD_REQUEST' } });
    const err = await subscribe(f.conn, { subscriptions: [{ name: 'private' }] }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'api', code: 'BAD_REQUEST', serverMsg: 'Unable to access channel (private).' });
  });

  it('getSubscriptions GETs with include_subscribers as a JSON bool in the query and parses subscriptions', async () => {
    const f = fakeServer();
    f.reply(
      ok({
        subscriptions: [
          { ...management, color: '#e79ab5', is_muted: false, pin_to_top: true, desktop_notifications: null, subscribers: [7, 10] },
        ],
      }),
    );
    const res = await getSubscriptions(f.conn, { include_subscribers: true });
    const req = f.only();
    expect(req.method).toBe('GET');
    expect(req.path).toBe('/users/me/subscriptions');
    expect(req.rawBody).toBeUndefined();
    expect(req.query).toEqual({ include_subscribers: 'true' });
    expect(res.subscriptions[0]).toMatchObject({ stream_id: 2, name: 'management', color: '#e79ab5', pin_to_top: true, subscribers: [7, 10] });
  });

  it('getSubscriptions without arguments sends no query', async () => {
    const f = fakeServer();
    f.reply(ok({ subscriptions: [] }));
    await getSubscriptions(f.conn);
    expect(f.only().query).toEqual({});
  });

  it('include_subscribers "partial" is sent raw from FL 412', async () => {
    const f = fakeServer({ featureLevel: 412 });
    f.reply(ok({ subscriptions: [] }));
    await getSubscriptions(f.conn, { include_subscribers: 'partial' });
    expect(f.only().query).toEqual({ include_subscribers: 'partial' });
  });

  it('include_subscribers "partial" is refused before FL 412, without sending', async () => {
    const f = fakeServer({ featureLevel: 411 });
    await expect(getSubscriptions(f.conn, { include_subscribers: 'partial' })).rejects.toMatchObject({ name: 'UnsupportedFeatureError', message: expect.stringMatching(/412.*411/) });
    expect(f.calls).toHaveLength(0);
  });

  it('getStreams sends each boolean filter as a JSON bool in the query and parses channels', async () => {
    const f = fakeServer({ featureLevel: 356 });
    f.reply(ok({ streams: [management] }));
    const res = await getStreams(f.conn, {
      include_public: false,
      include_web_public: true,
      include_subscribed: false,
      exclude_archived: false,
      include_all: true,
      include_default: true,
      include_owner_subscribed: true,
      include_can_access_content: true,
    });
    const req = f.only();
    expect(req.method).toBe('GET');
    expect(req.path).toBe('/streams');
    expect(req.rawBody).toBeUndefined();
    expect(req.query).toEqual({
      include_public: 'false',
      include_web_public: 'true',
      include_subscribed: 'false',
      exclude_archived: 'false',
      include_all: 'true',
      include_default: 'true',
      include_owner_subscribed: 'true',
      include_can_access_content: 'true',
    });
    expect(res.streams[0]).toMatchObject({ stream_id: 2, name: 'management', invite_only: true, folder_id: 1, can_subscribe_group: 10 });
  });

  it('getStreams sends include_all as include_all_active before FL 356', async () => {
    const f = fakeServer({ featureLevel: 355 });
    f.reply(ok({ streams: [] }));
    await getStreams(f.conn, { include_all: true });
    expect(f.only().query).toEqual({ include_all_active: 'true' });
  });

  it('getStreams without filters sends no query', async () => {
    const f = fakeServer();
    f.reply(ok({ streams: [] }));
    const res = await getStreams(f.conn);
    expect(f.only().query).toEqual({});
    expect(res.streams).toEqual([]);
  });

  it('unsubscribe sends DELETE with the names (and principals) as JSON in the query', async () => {
    const f = fakeServer();
    f.reply(ok({ removed: ['Verona'], not_removed: ['Denmark'] }));
    const res = await unsubscribe(f.conn, { subscriptions: ['Verona', 'Denmark'], principals: [5] });
    const req = f.only();
    expect(req.method).toBe('DELETE');
    expect(req.path).toBe('/users/me/subscriptions');
    expect(req.query).toEqual({ subscriptions: '["Verona","Denmark"]', principals: '[5]' });
    expect(res).toMatchObject({ removed: ['Verona'], not_removed: ['Denmark'] });
  });
});

describe('getStreamTopics', () => {
  it('GETs /users/me/{stream_id}/topics with allow_empty_topic_name true from FL 334, and returns the list', async () => {
    const f = fakeServer({ featureLevel: 420 });
    const topics = [
      { max_id: 26, name: 'Denmark3' },
      { max_id: 6, name: '' },
    ];
    f.reply(ok({ topics }));
    const res = await getStreamTopics(f.conn, { streamId: 7 });
    const req = f.only();
    expect([req.method, req.path, req.query]).toEqual(['GET', '/users/me/7/topics', { allow_empty_topic_name: 'true' }]);
    expect(res.topics).toEqual(topics);
  });

  it('before FL 334 the flag is not sent unless asked for', async () => {
    const f = fakeServer({ featureLevel: 333 });
    f.reply(ok({ topics: [] }));
    await getStreamTopics(f.conn, { streamId: 7 });
    expect(f.only().query).toEqual({});
  });

  it('an inaccessible channel is a BAD_REQUEST api error', async () => {
    const f = fakeServer();
    f.reply({ status: 400, json: { result: 'error', code: 'BAD_REQUEST', msg: 'Invalid channel ID' } });
    const err = await getStreamTopics(f.conn, { streamId: 99 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZulipApiError);
    expect(err).toMatchObject({ kind: 'api', code: 'BAD_REQUEST' });
  });
});
