/** storeRegisterSnapshot with a real snapshot from the reference server, and the reads over it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiConnection, registerQueue, type RegisterResponse } from '../../../sync/api/index.js';
import { openLocalDb, type LocalDb } from '../../../sync/db/open.js';
import { getChannels, getSubscribedChannels } from '../../../sync/db/queries/channels.js';
import { getUserGroups } from '../../../sync/db/queries/groups.js';
import { getStoredMessages, upsertMessages } from '../../../sync/db/queries/messages.js';
import { getNavigationViews, getSavedSnippets, getUserSettings, putUserTopic } from '../../../sync/db/queries/personal.js';
import { getRealmEditingSettings, getRealmLimits } from '../../../sync/db/queries/realm.js';
import { storeRegisterSnapshot } from '../../../sync/db/queries/snapshot.js';
import { getAccount, getQueuePosition, setAccount, setQueuePosition } from '../../../sync/db/queries/state.js';
import { channelsWithTopics, unreadCounts } from '../../../sync/db/queries/topics.js';
import { getUser, getUsers } from '../../../sync/db/queries/users.js';
import { ChangeCollector } from '../../../sync/db/changes.js';
import { startTestServer, type TestServer } from '../../server/harness.js';
import * as eg from '../../support/eg.js';

let t: TestServer;
let reg: RegisterResponse;
let db: LocalDb;

beforeAll(async () => {
  t = await startTestServer();
  const hamlet = t.as('hamlet');
  await hamlet.post('/navigation_views', { fragment: 'narrow/channel/Verona', is_pinned: true });
  await hamlet.post('/navigation_views', { fragment: 'inbox', is_pinned: false });
  await hamlet.post('/saved_snippets', { title: 'hi', content: 'hello there' });
  const conn = new ApiConnection({ realmUrl: t.url, email: hamlet.email, apiKey: hamlet.apiKey, logger: { warn: () => undefined }, timeoutMs: 10_000 });
  reg = await registerQueue(conn, { apply_markdown: true, client_gravatar: false });
  db = openLocalDb(':memory:');
  setAccount(db, { realm_url: t.url, email: hamlet.email });
});

afterAll(async () => {
  db?.close();
  await t?.close();
});

describe('storeRegisterSnapshot', () => {
  it('stores every collection of the snapshot', () => {
    const changes = new ChangeCollector();
    storeRegisterSnapshot(db, reg, changes);
    expect([...changes.areas]).toEqual(expect.arrayContaining(['realm', 'users', 'channels', 'subscriptions', 'navigation_views']));
    const userCount = (reg.realm_users?.length ?? 0) + (reg.realm_non_active_users?.length ?? 0) + (reg.cross_realm_bots?.length ?? 0);
    expect(getUsers(db)).toHaveLength(userCount);
    expect(getUser(db, reg.user_id ?? -1)?.user.full_name).toBe('King Hamlet');
    const channelCount = (reg.subscriptions?.length ?? 0) + (reg.unsubscribed?.length ?? 0) + (reg.never_subscribed?.length ?? 0);
    expect(getChannels(db)).toHaveLength(channelCount);
    expect(getSubscribedChannels(db).map((c) => c.channel.stream_id).sort()).toEqual((reg.subscriptions ?? []).map((s) => s.stream_id).sort());
    expect(getNavigationViews(db).map((v) => v.fragment)).toEqual(reg.navigation_views?.map((v) => v.fragment));
    expect(getSavedSnippets(db).map((s) => s.title)).toEqual(reg.saved_snippets?.map((s) => s.title));
    expect(getSavedSnippets(db).map((s) => s.title)).toContain('hi');
    expect(getUserGroups(db, { includeDeactivated: true })).toHaveLength(reg.realm_user_groups?.length ?? 0);
    expect(getUserSettings(db)).toMatchObject({ receives_typing_notifications: reg.user_settings?.receives_typing_notifications });
    expect(getAccount(db)).toMatchObject({ user_id: reg.user_id, feature_level: reg.zulip_feature_level });
  });

  it('keeps the editing settings, limits and the empty-topic display name', () => {
    const e = getRealmEditingSettings(db);
    expect(e.contentEditLimitSeconds).toBe(reg.realm_message_content_edit_limit_seconds ?? null);
    expect(e.emptyTopicDisplayName).toBe(reg.realm_empty_topic_display_name);
    expect(e.allowMessageEditing).toBe(reg.realm_allow_message_editing);
    expect(getRealmLimits(db)).toMatchObject({ maxTopicLength: reg.max_topic_length, maxMessageLength: reg.max_message_length });
  });

  it('reconciles unread and starred state onto cached messages', () => {
    const fresh = openLocalDb(':memory:');
    upsertMessages(fresh, [eg.streamMessage({ id: 1, flags: [] }), eg.streamMessage({ id: 2, flags: ['read', 'starred'] }), eg.dmMessage({ id: 3, participants: [10, 12], flags: ['read'] })], new ChangeCollector());
    const changes = new ChangeCollector();
    storeRegisterSnapshot(
      fresh,
      {
        ...reg,
        unread_msgs: { count: 1, pms: [{ other_user_id: 12, unread_message_ids: [3] }], streams: [], huddles: [], mentions: [], old_unreads_missing: false },
        starred_messages: [1],
      },
      changes,
    );
    expect(getStoredMessages(fresh, [1, 2, 3]).map((m) => m.flags)).toEqual([['read', 'starred'], ['read'], []]);
    expect([...changes.updated].sort()).toEqual([1, 2, 3]);
    expect(unreadCounts(fresh)).toEqual({
      total: 1,
      mentions: 0,
      followed: 0,
      starred: 1,
      channels: [],
      topics: [],
      dms: [{ dm_key: '10,12', count: 1, mentions: 0 }],
      complete: true,
    });
    fresh.close();
  });
  it('with a truncated unread list, only messages above its oldest id are known read', () => {
    const fresh = openLocalDb(':memory:');
    upsertMessages(fresh, [1, 2, 3, 4].map((id) => eg.streamMessage({ id, flags: [] })), new ChangeCollector());
    const unread_msgs = { count: 1, pms: [], streams: [{ stream_id: 5, topic: 'castle', unread_message_ids: [3] }], huddles: [], mentions: [], old_unreads_missing: true };
    storeRegisterSnapshot(fresh, { ...reg, unread_msgs }, new ChangeCollector());
    expect(getStoredMessages(fresh, [1, 2, 3, 4]).map((m) => m.flags)).toEqual([[], [], [], ['read']]);
    fresh.close();
  });
});

describe('reads over the cache', () => {
  it('lists channels with their topics, newest first, with unread counts and topic policy', () => {
    const local = openLocalDb(':memory:');
    storeRegisterSnapshot(local, reg, new ChangeCollector());
    const verona = getChannels(local).find((c) => c.channel.name === 'Verona')?.channel.stream_id ?? -1;
    upsertMessages(
      local,
      [
        eg.streamMessage({ id: 1, stream_id: verona, topic: 'Lunch', flags: ['read'] }),
        eg.streamMessage({ id: 2, stream_id: verona, topic: 'dinner', flags: [] }),
        eg.streamMessage({ id: 3, stream_id: verona, topic: 'lunch', flags: [] }),
      ],
      new ChangeCollector(),
    );
    putUserTopic(local, { stream_id: verona, topic_name: 'LUNCH', visibility_policy: 3, last_updated: 0 });
    const topics = channelsWithTopics(local).find((c) => c.channel_id === verona)?.topics ?? [];
    // The cached messages' topics (one topic for Lunch and lunch, the newest spelling shown) ...
    expect(topics.filter((tp) => tp.last_message_id <= 3)).toEqual([
      { topic: 'lunch', topic_key: 'lunch', last_message_id: 3, last_message_timestamp: 1_700_000_003, unread_count: 1, visibility_policy: 3 },
      { topic: 'dinner', topic_key: 'dinner', last_message_id: 2, last_message_timestamp: 1_700_000_002, unread_count: 1, visibility_policy: 0 },
    ]);
    // ... and those of hamlet's unread messages register listed, which the cache does not hold.
    const fromServer = reg.unread_msgs!.streams.filter((u) => u.stream_id === verona);
    expect(fromServer.length).toBeGreaterThan(0);
    for (const u of fromServer) {
      // Known by id only: the time of a message the device does not hold is unknown.
      expect(topics).toContainEqual(expect.objectContaining({ topic: u.topic, unread_count: u.unread_message_ids.length, last_message_id: Math.max(...u.unread_message_ids), last_message_timestamp: null }));
    }
    const serverCount = fromServer.reduce((n, u) => n + u.unread_message_ids.length, 0);
    expect(unreadCounts(local).channels).toContainEqual({ channel_id: verona, count: 2 + serverCount, unmuted_count: 2 + serverCount });
    local.close();
  });

  it('keeps the queue position and its registration time', () => {
    setQueuePosition(db, { queue_id: 'q1', last_event_id: -1 }, 1000);
    setQueuePosition(db, { queue_id: 'q1', last_event_id: 7 }, 2000);
    expect(getQueuePosition(db)).toEqual({ queue_id: 'q1', last_event_id: 7, registered_at: 1000 });
    setQueuePosition(db, { queue_id: 'q2', last_event_id: -1 }, 3000);
    expect(getQueuePosition(db)).toEqual({ queue_id: 'q2', last_event_id: -1, registered_at: 3000 });
  });
});
