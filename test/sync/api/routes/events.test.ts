import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiConnection, DEFAULT_LONG_POLL_TIMEOUT_MS, LONG_POLL_MARGIN_MS } from '../../../../sync/api/core.js';
import { TimeoutError, ZulipApiError } from '../../../../sync/api/errors.js';
import {
  DEFAULT_CLIENT_CAPABILITIES,
  deleteEventQueue,
  eventResponses,
  getEvents,
  registerQueue,
} from '../../../../sync/api/routes/events.js';
import type { HttpRequest, Transport } from '../../../../sync/api/transport.js';
import * as eg from '../../../support/eg.js';
import { fakeServer, ok, REALM } from '../fake-transport.js';

const QUEUE = 'fb67bf8a-c031-47cc-84cf-ed80accacda8';

/** A realistic `/register` answer for fetch keys realm, realm_user, subscription, message, ... */
function registerBody(extra: Record<string, unknown> = {}) {
  return {
    queue_id: QUEUE,
    last_event_id: -1,
    zulip_feature_level: 420,
    zulip_version: '11.0',
    zulip_merge_base: '11.0',
    max_message_length: 10000,
    max_topic_length: 60,
    max_stream_name_length: 60,
    max_stream_description_length: 1024,
    realm_empty_topic_display_name: 'general chat',
    realm_allow_message_editing: true,
    realm_message_content_edit_limit_seconds: 600,
    realm_move_messages_within_stream_limit_seconds: null,
    realm_move_messages_between_streams_limit_seconds: 604800,
    realm_can_move_messages_between_topics_group: 11,
    realm_can_move_messages_between_channels_group: { direct_members: [10], direct_subgroups: [11] },
    realm_can_resolve_topics_group: 12,
    realm_topics_policy: 'allow_empty_topic',
    event_queue_longpoll_timeout_seconds: 90,
    server_typing_started_expiry_period_milliseconds: 15000,
    server_typing_stopped_wait_period_milliseconds: 5000,
    server_typing_started_wait_period_milliseconds: 10000,
    realm_url: REALM,
    user_id: 10,
    email: 'hamlet@example.com',
    full_name: 'King Hamlet',
    realm_users: [
      {
        user_id: 10,
        email: 'hamlet@example.com',
        delivery_email: null,
        full_name: 'King Hamlet',
        date_joined: '2020-07-15T15:04:02.030833+00:00',
        is_owner: false,
        is_admin: false,
        is_guest: false,
        is_bot: false,
        bot_type: null,
        role: 400,
        timezone: 'Europe/Copenhagen',
        avatar_url: null,
        avatar_version: 1,
        profile_data: { '1': { value: '+45 1234', rendered_value: '<p>+45 1234</p>' } },
      },
    ],
    subscriptions: [
      {
        ...eg.subscription({ description: 'Fair Verona', rendered_description: '<p>Fair Verona</p>', date_created: 1691057093, stream_weekly_traffic: 12, can_send_message_group: 2, pin_to_top: true }),
        desktop_notifications: null,
        email_notifications: null,
        push_notifications: false,
        audible_notifications: null,
        wildcard_mentions_notify: null,
      },
    ],
    unread_msgs: {
      count: 3,
      pms: [{ other_user_id: 8, sender_id: 8, unread_message_ids: [40] }, { sender_id: 9, unread_message_ids: [41] }],
      streams: [{ stream_id: 5, topic: '', unread_message_ids: [42] }],
      huddles: [{ user_ids_string: '8,9,10', unread_message_ids: [43] }],
      mentions: [42],
      old_unreads_missing: false,
    },
    user_topics: [{ stream_id: 5, topic_name: 'lunch', last_updated: 1594825442, visibility_policy: 3 }],
    realm_user_groups: [
      { id: 11, name: 'role:members', description: '', members: [10], direct_subgroup_ids: [], is_system_group: true, deactivated: false },
    ],
    saved_snippets: [{ id: 1, title: 'Hi', content: 'Hello', date_created: 1681662420 }],
    navigation_views: [{ fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alert Words' }],
    scheduled_messages: [],
    user_settings: { twenty_four_hour_time: true, color_scheme: 2, web_home_view: 'inbox', some_future_setting: 'kept' },
    starred_messages: [40],
    realm_some_web_only_field: { big: true },
    ...extra,
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('registerQueue', () => {
  it('POSTs a form body with the default client capabilities JSON-encoded and nothing else by default', async () => {
    const f = fakeServer();
    f.reply(ok({ queue_id: QUEUE, last_event_id: -1, zulip_feature_level: 420, zulip_version: '11.0' }));
    await registerQueue(f.conn);
    const req = f.only();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/register');
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(req.query).toEqual({});
    expect(Object.keys(req.body)).toEqual(['client_capabilities']);
    expect(JSON.parse(req.body.client_capabilities!)).toEqual({
      notification_settings_null: true,
      bulk_message_deletion: true,
      user_avatar_url_field_optional: true,
      stream_typing_notifications: true,
      user_settings_object: true,
      include_deactivated_groups: true,
      archived_channels: true,
      empty_topic_name: true,
      simplified_presence_events: true,
    });
    expect(DEFAULT_CLIENT_CAPABILITIES.empty_topic_name).toBe(true);
  });

  it('encodes arrays, objects and booleans as JSON and include_subscribers "partial" raw', async () => {
    const f = fakeServer();
    f.reply(ok({ queue_id: QUEUE, last_event_id: -1, zulip_feature_level: 420, zulip_version: '11.0' }));
    await registerQueue(f.conn, {
      event_types: ['message', 'navigation_view', 'user_group'],
      fetch_event_types: ['message', 'navigation_views', 'realm_user_groups'],
      narrow: [['channel', 'Verona']],
      apply_markdown: true,
      client_gravatar: false,
      include_subscribers: 'partial',
      all_public_streams: false,
      slim_presence: true,
      client_capabilities: { empty_topic_name: true },
    });
    expect(f.only().body).toEqual({
      event_types: '["message","navigation_view","user_group"]',
      fetch_event_types: '["message","navigation_views","realm_user_groups"]',
      narrow: '[["channel","Verona"]]',
      apply_markdown: 'true',
      client_gravatar: 'false',
      include_subscribers: 'partial',
      all_public_streams: 'false',
      slim_presence: 'true',
      client_capabilities: '{"empty_topic_name":true}',
    });
  });

  it('include_subscribers true is JSON true', async () => {
    const f = fakeServer();
    f.reply(ok({ queue_id: QUEUE, last_event_id: -1, zulip_feature_level: 420, zulip_version: '11.0' }));
    await registerQueue(f.conn, { include_subscribers: true });
    expect(f.only().body.include_subscribers).toBe('true');
  });

  it('parses the snapshot and teaches the connection its version, long-poll deadline and empty-topic name', async () => {
    const f = fakeServer({ featureLevel: 300 });
    f.reply(ok(registerBody()));
    expect(f.conn.longPollTimeoutMs).toBe(DEFAULT_LONG_POLL_TIMEOUT_MS);
    const res = await registerQueue(f.conn);

    expect(f.conn.featureLevel).toBe(420);
    expect(f.conn.zulipVersion).toBe('11.0');
    expect(f.conn.longPollTimeoutMs).toBe(90_000 + LONG_POLL_MARGIN_MS);
    expect(f.conn.emptyTopicDisplayName).toBe('general chat');
    expect(f.conn.topicForWire('general chat')).toBe('');

    expect(res.queue_id).toBe(QUEUE);
    expect(res.last_event_id).toBe(-1);
    expect(res.max_topic_length).toBe(60);
    expect(res.realm_can_move_messages_between_channels_group).toEqual({ direct_members: [10], direct_subgroups: [11] });
    expect(res.realm_move_messages_within_stream_limit_seconds).toBeNull();
    expect(res.realm_users?.[0]).toMatchObject({ user_id: 10, role: 400, bot_owner_id: null, delivery_email: null });
    expect(res.realm_users?.[0]).not.toHaveProperty('is_active');
    expect(res.subscriptions?.[0]).toMatchObject({ stream_id: 5, pin_to_top: true, push_notifications: false, desktop_notifications: null });
    // Legacy `sender_id`-only DM unreads read as `other_user_id`.
    expect(res.unread_msgs?.pms).toEqual([
      { other_user_id: 8, unread_message_ids: [40] },
      { other_user_id: 9, unread_message_ids: [41] },
    ]);
    expect(res.unread_msgs?.streams).toEqual([{ stream_id: 5, topic: '', unread_message_ids: [42] }]);
    expect(res.user_topics).toEqual([{ stream_id: 5, topic_name: 'lunch', last_updated: 1594825442, visibility_policy: 3 }]);
    expect(res.navigation_views).toEqual([{ fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alert Words' }]);
    expect(res.user_settings).toEqual({ twenty_four_hour_time: true, color_scheme: 2, web_home_view: 'inbox', some_future_setting: 'kept' });
    expect(res.server_typing_started_wait_period_milliseconds).toBe(10000);
    // Unknown top-level keys are dropped.
    expect(res).not.toHaveProperty('realm_some_web_only_field');
  });

  it('accepts an abbreviated subscription (OpenAPI example) but not one without its color', async () => {
    const abbreviated = {
      audible_notifications: true,
      color: '#e79ab5',
      creator_id: null,
      description: 'A Scandinavian country',
      desktop_notifications: true,
      is_archived: false,
      is_muted: false,
      invite_only: false,
      name: 'Denmark',
      pin_to_top: false,
      push_notifications: false,
      stream_id: 1,
      subscribers: [7, 10, 11, 12, 14],
    };
    const f = fakeServer();
    f.reply(ok(registerBody({ subscriptions: [abbreviated] })));
    const res = await registerQueue(f.conn);
    expect(res.subscriptions?.[0]).toMatchObject({ stream_id: 1, color: '#e79ab5', subscribers: [7, 10, 11, 12, 14], folder_id: null });
    expect(res.subscriptions?.[0]?.first_message_id).toBeUndefined();

    const { color: _color, ...colorless } = abbreviated;
    f.reply(ok(registerBody({ subscriptions: [colorless] })));
    await expect(registerQueue(f.conn)).rejects.toMatchObject({ kind: 'malformed' });
  });

  it('without the realm fetch key the connection keeps its defaults', async () => {
    const f = fakeServer();
    f.reply(ok({ queue_id: QUEUE, last_event_id: 17, zulip_feature_level: 410, zulip_version: '10.4' }));
    const res = await registerQueue(f.conn, { fetch_event_types: ['message'] });
    expect(res.last_event_id).toBe(17);
    expect(res.realm_users).toBeUndefined();
    expect(f.conn.featureLevel).toBe(410);
    expect(f.conn.longPollTimeoutMs).toBe(DEFAULT_LONG_POLL_TIMEOUT_MS);
    expect(f.conn.emptyTopicDisplayName).toBeUndefined();
  });

  it('a snapshot that breaks a model fails as malformed and teaches the connection nothing', async () => {
    const f = fakeServer();
    f.reply(ok(registerBody({ realm_users: [{ user_id: 'ten' }] })));
    const err = await registerQueue(f.conn).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'malformed' });
    expect(f.conn.featureLevel).toBeUndefined();
    expect(f.conn.emptyTopicDisplayName).toBeUndefined();
  });
});

describe('getEvents', () => {
  it('GETs with queue_id raw and last_event_id / dont_block JSON in the query, and classifies each event', async () => {
    const f = fakeServer();
    f.reply(
      ok({
        queue_id: QUEUE,
        events: [
          { id: 0, type: 'heartbeat' },
          { id: 1, type: 'user_topic', stream_id: 1, topic_name: 'topic', last_updated: 1594825442, visibility_policy: 1 },
          { id: 2, type: 'brand_new_thing', stuff: 1 },
          { id: 3, type: 'saved_snippets', op: 'remove' },
        ],
      }),
    );
    const res = await getEvents(f.conn, { queue_id: QUEUE, last_event_id: -1, dont_block: true });
    const req = f.only();
    expect(req.method).toBe('GET');
    expect(req.path).toBe('/events');
    expect(req.query).toEqual({ queue_id: QUEUE, last_event_id: '-1', dont_block: 'true' });
    expect(req.rawBody).toBeUndefined();

    expect(res.queue_id).toBe(QUEUE);
    expect(res.events.map((e) => e.type)).toEqual(['heartbeat', 'user_topic', 'unknown', 'malformed']);
    expect(res.events[1]).toEqual({ id: 1, type: 'user_topic', stream_id: 1, topic_name: 'topic', last_updated: 1594825442, visibility_policy: 1 });
    expect(res.events[2]).toMatchObject({ type: 'unknown', id: 2, originalType: 'brand_new_thing' });
    expect(res.events[3]).toMatchObject({ type: 'malformed', id: 3, originalType: 'saved_snippets' });
  });

  it('omits dont_block when not asked', async () => {
    const f = fakeServer();
    f.reply(ok({ events: [] }));
    await getEvents(f.conn, { queue_id: QUEUE, last_event_id: 41 });
    expect(f.only().query).toEqual({ queue_id: QUEUE, last_event_id: '41' });
  });

  it('a restart event updates the connection feature level and version', async () => {
    const f = fakeServer({ featureLevel: 420 });
    f.reply(
      ok({
        events: [{ id: 5, type: 'restart', zulip_feature_level: 433, zulip_version: '11.2', zulip_merge_base: '11.2', server_generation: 1619334181 }],
      }),
    );
    const res = await getEvents(f.conn, { queue_id: QUEUE, last_event_id: 4 });
    expect(res.events[0]).toMatchObject({ type: 'restart', zulip_feature_level: 433 });
    expect(f.conn.featureLevel).toBe(433);
    expect(f.conn.zulipVersion).toBe('11.2');
  });

  it('BAD_EVENT_QUEUE_ID surfaces as an api error with the queue id', async () => {
    const f = fakeServer();
    f.reply({ status: 400, json: { result: 'error', msg: `Bad event queue ID: ${QUEUE}`, code: 'BAD_EVENT_QUEUE_ID', queue_id: QUEUE } });
    const err = await getEvents(f.conn, { queue_id: QUEUE, last_event_id: 4 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZulipApiError);
    expect(err).toMatchObject({ kind: 'api', code: 'BAD_EVENT_QUEUE_ID', httpStatus: 400, details: { queue_id: QUEUE } });
  });

  it('waits for the long-poll deadline learnt from /register, not the normal one', async () => {
    vi.useFakeTimers();
    // Answers /register at once; holds /events open until the request is aborted.
    const transport: Transport = (req: HttpRequest) => {
      if (req.url.endsWith('/register')) {
        return Promise.resolve({
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ result: 'success', msg: '', ...registerBody({ event_queue_longpoll_timeout_seconds: 50 }) }),
        });
      }
      return new Promise((_resolve, reject) => {
        req.signal.addEventListener('abort', () => reject(new Error('aborted')));
      });
    };
    const conn = new ApiConnection({ realmUrl: REALM, email: 'a@b', apiKey: 'k', transport, timeoutMs: 1_000, logger: { warn: () => undefined } });
    await registerQueue(conn);
    expect(conn.longPollTimeoutMs).toBe(60_000);

    let settled: unknown = 'pending';
    const poll = getEvents(conn, { queue_id: QUEUE, last_event_id: -1 }).then(
      () => (settled = 'resolved'),
      (e: unknown) => (settled = e),
    );
    await vi.advanceTimersByTimeAsync(59_999);
    expect(settled).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    await poll;
    expect(settled).toBeInstanceOf(TimeoutError);
    expect(settled).toMatchObject({ kind: 'timeout', timeoutMs: 60_000 });

    // A normal request on the same connection keeps the short deadline.
    const del = deleteEventQueue(conn, { queue_id: QUEUE }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await del).toMatchObject({ kind: 'timeout', timeoutMs: 1_000 });
  });
});

describe('deleteEventQueue', () => {
  it('sends DELETE /events with queue_id in the query string', async () => {
    const f = fakeServer();
    const res = await deleteEventQueue(f.conn, { queue_id: QUEUE });
    expect(f.only()).toMatchObject({ method: 'DELETE', path: '/events', query: { queue_id: QUEUE }, body: {} });
    expect(res.result).toBe('success');
  });
});

describe('eventResponses', () => {
  it('names the three operations exactly as the OpenAPI file does', () => {
    expect(Object.keys(eventResponses).sort()).toEqual(['DELETE /events', 'GET /events', 'POST /register']);
  });

  it("accepts the OpenAPI examples' bodies", () => {
    expect(
      eventResponses['POST /register'].safeParse({
        last_event_id: -1,
        msg: '',
        queue_id: QUEUE,
        realm_emoji: {},
        result: 'success',
        zulip_feature_level: 2,
        zulip_version: '5.0-dev-1650-gc3fd37755f',
        zulip_merge_base: '5.0-dev-1646-gea6b21cd8c',
      }).success,
    ).toBe(true);
    expect(eventResponses['GET /events'].safeParse({ result: 'success', msg: '', queue_id: QUEUE, events: [{ id: 0, type: 'x' }] }).success).toBe(true);
  });
});

describe('register: edit-history visibility', () => {
  it('keeps realm_message_edit_history_visibility_policy (and degrades unknown values)', async () => {
    const { registerResponse } = await import('../../../../sync/api/schemas/register.js');
    const base = { result: 'success', msg: '', queue_id: 'q', last_event_id: -1, zulip_feature_level: 420, zulip_version: '11' };
    expect(registerResponse.parse({ ...base, realm_message_edit_history_visibility_policy: 'moves' }).realm_message_edit_history_visibility_policy).toBe('moves');
    expect(registerResponse.parse({ ...base, realm_message_edit_history_visibility_policy: 'later' }).realm_message_edit_history_visibility_policy).toBe('unknown');
  });
});
