/** The channels screen, pure parts: pages from fragments, lists, outbox markers, the create form, answers in words. */
import { describe, expect, it } from 'vitest';
import type { ChannelCreationView, ChannelListing } from '../../../sync/protocol/commands.js';
import { commands } from '../../../sync/protocol/commands.js';
import type { OutboxChange, OutboxRowOf } from '../../../sync/outbox/registry.js';
import type { OutboxRowView } from '../../../sync/protocol/outbox.js';
import {
  addSubscribersSummary,
  channelNarrowHref,
  channelPageHref,
  channelsPage,
  createChannelRequest,
  EMPTY_FORM,
  groupChoices,
  listedChannels,
  pickablePeople,
  privacyLabel,
  retentionLabel,
  subscriptionMarker,
  subscriptionState,
} from '../../../renderer/src/channels/channels-model.js';
import { parseHash } from '../../../renderer/src/core/hash.js';
import { outboxRow } from '../fixtures.js';

const channel = (over: Partial<ChannelListing>): ChannelListing => ({
  channel_id: 1,
  name: 'general',
  description: '',
  rendered_description: '',
  invite_only: false,
  is_web_public: false,
  history_public_to_subscribers: true,
  is_archived: false,
  subscribed: true,
  color: '#76ce90',
  personal: { is_muted: false, pin_to_top: false, desktop_notifications: null, audible_notifications: null, push_notifications: null, email_notifications: null, wildcard_mentions_notify: null },
  subscriber_count: 3,
  date_created: 1_700_000_000,
  creator_id: null,
  message_retention_days: null,
  topics_policy: 'inherit',
  can_subscribe: true,
  can_add_subscribers: true,
  ...over,
});

const subscribeScotland: OutboxChange = { kind: 'subscribe', args: { subscriptions: [{ name: 'Scotland' }] } };
const row = (over: Partial<Omit<OutboxRowView, 'kind' | 'args'>>, change: OutboxChange = subscribeScotland): OutboxRowOf =>
  outboxRow({ outbox_id: 1, target: 'subscriptions:scotland', created_at: 1, updated_at: 1, ...over, ...change });

const options: ChannelCreationView = {
  can_create_public: true,
  can_create_private: true,
  can_create_web_public: false,
  web_public_enabled: false,
  is_admin: false,
  is_owner: false,
  system_groups: [
    { id: 8, name: 'role:nobody' },
    { id: 3, name: 'role:members' },
    { id: 1, name: 'role:internet' },
    { id: 6, name: 'role:administrators' },
    { id: 7, name: 'role:owners' },
  ],
  max_name_length: 60,
  max_description_length: 1024,
};

describe('channelsPage: Zulip fragments after #channels', () => {
  it('reads the lists, the create page and a channel page; anything else is unknown', () => {
    expect(channelsPage([])).toEqual({ kind: 'list', tab: 'subscribed' });
    expect(channelsPage(['subscribed'])).toEqual({ kind: 'list', tab: 'subscribed' });
    expect(channelsPage(['all'])).toEqual({ kind: 'list', tab: 'all' });
    expect(channelsPage(['notsubscribed'])).toEqual({ kind: 'list', tab: 'notsubscribed' });
    expect(channelsPage(['new'])).toEqual({ kind: 'new' });
    expect(channelsPage(['5', 'Denmark', 'general'])).toEqual({ kind: 'channel', channelId: 5 });
    expect(channelsPage(['0'])).toEqual({ kind: 'unknown', rest: '0' });
    expect(channelsPage(['archived', 'x'])).toEqual({ kind: 'unknown', rest: 'archived/x' });
  });

  it("a channel page's link goes through the router back to the same channel; the messages link is a channel narrow", () => {
    const c = channel({ channel_id: 12, name: 'core team (2.0)' });
    const route = parseHash(channelPageHref(c, 'subscribers'));
    expect(route).toMatchObject({ kind: 'other', section: 'channels' });
    expect(route.kind === 'other' && channelsPage(route.rest ?? [])).toEqual({ kind: 'channel', channelId: 12 });
    expect(channelPageHref(c)).toBe('#channels/12/core.20team.20.282.2E0.29');
    expect(parseHash(channelNarrowHref(c))).toEqual({ kind: 'narrow', terms: [{ operator: 'channel', operand: '12-core-team-(2.0)', negated: false }] });
  });
});

describe('lists', () => {
  const all = [
    channel({ channel_id: 1, name: 'general', subscribed: true }),
    channel({ channel_id: 2, name: 'Scotland', subscribed: false, description: 'Heath and castles.' }),
    channel({ channel_id: 3, name: 'old', subscribed: false, is_archived: true }),
  ];
  it('by tab and filter (name or description, any case); archived channels are left out', () => {
    expect(listedChannels(all, 'subscribed', '').map((c) => c.name)).toEqual(['general']);
    expect(listedChannels(all, 'notsubscribed', '').map((c) => c.name)).toEqual(['Scotland']);
    expect(listedChannels(all, 'all', '').map((c) => c.name)).toEqual(['general', 'Scotland']);
    expect(listedChannels(all, 'all', 'CASTLE').map((c) => c.name)).toEqual(['Scotland']);
    expect(listedChannels(all, 'all', '  gen ').map((c) => c.name)).toEqual(['general']);
  });

  it('labels privacy and retention', () => {
    expect(privacyLabel({ invite_only: true, is_web_public: false })).toBe('Private');
    expect(privacyLabel({ invite_only: false, is_web_public: true })).toBe('Web-public');
    expect(privacyLabel({ invite_only: false, is_web_public: false })).toBe('Public');
    expect(retentionLabel(null)).toBe('the organization’s default');
    expect(retentionLabel(-1)).toBe('forever');
    expect(retentionLabel(1)).toBe('1 day');
    expect(retentionLabel(30)).toBe('30 days');
  });
});

describe("a channel's subscription in the outbox", () => {
  it('a queued subscribe is "not saved yet"; names compare without case; finished rows do not count', () => {
    const s = subscriptionState([row({ outbox_id: 4 })], 'scotland');
    expect(s).toEqual({ status: 'pending', outboxId: 4, action: 'subscribe', error: null });
    expect(subscriptionMarker(s!)).toBe('not saved yet');
    expect(subscriptionState([row({ state: 'done' }), row({ state: 'discarded' })], 'Scotland')).toBeNull();
    expect(subscriptionState([row({})], 'Verona')).toBeNull();
    expect(subscriptionState([row({}, { kind: 'update_user_topic', args: { stream_id: 7, topic: 'Scotland', visibility_policy: 1 } })], 'Scotland')).toBeNull();
    // A row whose args the engine could not read names no channel.
    expect(subscriptionState([row({}, { kind: 'subscribe', args: null })], 'Scotland')).toBeNull();
  });

  it("an unsubscribe (names as strings); the newest pending row wins; a failed one shows the server's words", () => {
    const rows = [row({ outbox_id: 1 }), row({ outbox_id: 2 }, { kind: 'unsubscribe', args: { subscriptions: ['Scotland'] } })];
    expect(subscriptionState(rows, 'Scotland')).toMatchObject({ status: 'pending', outboxId: 2, action: 'unsubscribe' });
    const failed = row({ outbox_id: 3, state: 'failed', last_error: { kind: 'api', code: 'BAD_REQUEST', message: 'Unable to access channel (Scotland).', details: null } });
    const s = subscriptionState([...rows, failed], 'Scotland')!;
    expect(s).toEqual({ status: 'failed', outboxId: 3, action: 'subscribe', error: 'Unable to access channel (Scotland).' });
    expect(subscriptionMarker(s)).toBe('Subscribing failed');
  });
});

describe('the create form', () => {
  const known = [{ name: 'general' }];
  const parse = (r: ReturnType<typeof createChannelRequest>) => (r.ok ? commands.createChannel.request.parse(r.request) : null);

  it('a public channel: only what was chosen is sent, and the contract accepts it', () => {
    const r = createChannelRequest({ ...EMPTY_FORM, name: '  lunch ', description: 'Food. ' }, options, known);
    expect(r).toEqual({ ok: true, request: { name: 'lunch', description: 'Food.', invite_only: false, is_web_public: false, announce: false, is_default_stream: false, user_ids: [] } });
    expect(parse(r)).toMatchObject({ name: 'lunch' });
  });

  it('a private channel with history, retention, a topics rule, groups and people', () => {
    const r = createChannelRequest(
      { ...EMPTY_FORM, name: 'war council', privacy: 'private', historyPublic: true, retention: 'days', retentionDays: '30', topicsPolicy: 'disable_empty_topic', canAddSubscribersGroup: 6, canAdministerGroup: 7, userIds: [5, 9] },
      options,
      known,
    );
    expect(r.ok && r.request).toMatchObject({
      invite_only: true,
      history_public_to_subscribers: true,
      message_retention_days: 30,
      topics_policy: 'disable_empty_topic',
      can_add_subscribers_group: 6,
      can_administer_channel_group: 7,
      user_ids: [5, 9],
    });
    expect(parse(r)).not.toBeNull();
    expect(createChannelRequest({ ...EMPTY_FORM, name: 'x', retention: 'unlimited' }, options, known)).toMatchObject({ ok: true, request: { message_retention_days: 'unlimited' } });
  });

  it('says what is wrong: no name, too long, a known name (any case), bad days, rules the realm does not allow', () => {
    const err = (f: Partial<typeof EMPTY_FORM>, o: ChannelCreationView = options) => {
      const r = createChannelRequest({ ...EMPTY_FORM, ...f }, o, known);
      return r.ok ? null : r.error;
    };
    expect(err({ name: '   ' })).toBe('A channel needs a name.');
    expect(err({ name: 'x'.repeat(61) })).toBe('A channel name has at most 60 characters.');
    expect(err({ name: 'General' })).toBe('A channel named “General” exists already.');
    expect(err({ name: 'x', description: 'd'.repeat(1025) })).toBe('A description has at most 1024 characters.');
    expect(err({ name: 'x', retention: 'days', retentionDays: '0' })).toBe('Message retention is a whole number of days, at least 1.');
    expect(err({ name: 'x', retention: 'days', retentionDays: '2.5' })).toBe('Message retention is a whole number of days, at least 1.');
    expect(err({ name: 'x', privacy: 'web_public' })).toBe('Your organization does not let you create web-public channels.');
    expect(err({ name: 'x', privacy: 'private' }, { ...options, can_create_private: false })).toBe('Your organization does not let you create private channels.');
    expect(err({ name: 'x', privacy: 'private', isDefault: true })).toBe('A default channel cannot be private.');
  });

  it('offers the system groups by their names for people, narrowest first, without role:internet', () => {
    expect(groupChoices(options.system_groups)).toEqual([
      { id: 7, label: 'Owners' },
      { id: 6, label: 'Administrators' },
      { id: 3, label: 'Members' },
      { id: 8, label: 'Nobody' },
    ]);
  });
});

describe('people and answers', () => {
  const users = [
    { user_id: 1, full_name: 'Othello', email: 'othello@example.com', is_active: true, is_bot: false },
    { user_id: 2, full_name: 'Cordelia', email: 'cordelia@example.com', is_active: true, is_bot: false },
    { user_id: 3, full_name: 'Gone', email: 'gone@example.com', is_active: false, is_bot: false },
    { user_id: 4, full_name: 'Bot', email: 'bot@example.com', is_active: true, is_bot: true },
  ];
  it('pickable people: active humans not excluded, by name, matching name or email', () => {
    expect(pickablePeople(users, new Set(), '').map((u) => u.user_id)).toEqual([2, 1]);
    expect(pickablePeople(users, new Set([2]), '').map((u) => u.user_id)).toEqual([1]);
    expect(pickablePeople(users, new Set(), 'OTHELLO@').map((u) => u.user_id)).toEqual([1]);
    expect(pickablePeople(users, new Set(), '', 1)).toHaveLength(1);
  });

  it('an addSubscribers answer in words, per channel', () => {
    const name = (id: number) => users.find((u) => u.user_id === id)?.full_name ?? `user ${id}`;
    expect(
      addSubscribersSummary(
        {
          channels: [
            { channel_id: 1, name: 'general', subscribed_user_ids: [1], already_subscribed_user_ids: [2], unauthorized: false },
            { channel_id: 2, name: 'core team', subscribed_user_ids: [], already_subscribed_user_ids: [], unauthorized: true },
            { channel_id: 3, name: 'Verona', subscribed_user_ids: [], already_subscribed_user_ids: [1, 2], unauthorized: false },
          ],
        },
        name,
      ),
    ).toEqual([
      '#general: subscribed Othello; Cordelia was subscribed already.',
      '#core team: the server did not let you reach this channel; nobody was subscribed.',
      '#Verona: Othello, Cordelia were subscribed already.',
    ]);
  });
});
