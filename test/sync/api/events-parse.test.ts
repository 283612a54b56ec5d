/**
 * parseEvent over every event family of docs/zulip-behaviour.md "Events", with payloads in the
 * shapes Zulip sends and from the OpenAPI examples (ids added where the OpenAPI example omits them).
 */
import { describe, expect, it } from 'vitest';
import { parseEvent, parseEvents, type ZulipEvent } from '../../../sync/api/schemas/events.js';

/** Parse and insist the event came out as a known type (not unknown/malformed). */
function known(raw: unknown): ZulipEvent {
  const ev = parseEvent(raw);
  if (ev.type === 'unknown' || ev.type === 'malformed') {
    throw new Error(`expected a known event, got ${JSON.stringify(ev)}`);
  }
  return ev;
}

const channelMessage = {
  id: 31,
  sender_id: 10,
  content: '<p>First message</p>',
  recipient_id: 23,
  timestamp: 1594825416,
  client: 'test suite',
  subject: 'test',
  topic_links: [],
  is_me_message: false,
  reactions: [],
  submessages: [],
  sender_full_name: 'King Hamlet',
  sender_email: 'user10@zulip.testserver',
  sender_realm_str: 'zulip',
  display_recipient: 'Denmark',
  type: 'stream',
  stream_id: 1,
  avatar_url: null,
  content_type: 'text/html',
};

const basicChannel = {
  name: 'private',
  stream_id: 12,
  is_archived: false,
  description: '',
  rendered_description: '',
  date_created: 1691057093,
  creator_id: 11,
  invite_only: true,
  is_web_public: false,
  stream_post_policy: 1,
  history_public_to_subscribers: false,
  first_message_id: null,
  folder_id: 1,
  is_recently_active: true,
  message_retention_days: null,
  is_announcement_only: false,
  can_add_subscribers_group: 2,
  can_remove_subscribers_group: 2,
  can_subscribe_group: { direct_members: [10], direct_subgroups: [2] },
  stream_weekly_traffic: null,
  subscriber_count: 0,
};

describe('parseEvent: classification', () => {
  it('an unknown type becomes the unknown branch with its id and raw payload', () => {
    const raw = { id: 7, type: 'holodeck_update', op: 'add', deck: 3 };
    expect(parseEvent(raw)).toEqual({ type: 'unknown', id: 7, originalType: 'holodeck_update', raw });
  });

  it('a known type with an op this client has no branch for is unknown too, with the op', () => {
    const raw = { id: 8, type: 'subscription', op: 'archive', stream_ids: [1] };
    expect(parseEvent(raw)).toEqual({ type: 'unknown', id: 8, originalType: 'subscription', originalOp: 'archive', raw });
  });

  it('a known type whose payload does not fit is malformed, with the problem paths', () => {
    const raw = { id: 9, type: 'update_message', message_id: 'fifty-eight', flags: [] };
    const ev = parseEvent(raw);
    expect(ev).toMatchObject({ type: 'malformed', id: 9, originalType: 'update_message', raw });
    if (ev.type !== 'malformed') throw new Error('unreachable');
    expect(ev.problems.some((p) => p.startsWith('message_id:'))).toBe(true);
    expect(ev.problems.some((p) => p.startsWith('edit_timestamp:'))).toBe(true);
  });

  it('a known op-type without its op is malformed (not unknown)', () => {
    const ev = parseEvent({ id: 3, type: 'stream', stream_id: 1 });
    expect(ev).toMatchObject({ type: 'malformed', id: 3, originalType: 'stream' });
  });

  it('a nested unknown enum value degrades instead of failing the event', () => {
    const ev = known({
      id: 4,
      type: 'reaction',
      op: 'add',
      message_id: 32,
      emoji_name: 'tada',
      emoji_code: '1f389',
      reaction_type: 'hologram_emoji',
      user_id: 10,
    });
    expect(ev).toMatchObject({ type: 'reaction', op: 'add', reaction_type: 'unknown' });
  });

  it('never throws on garbage: non-objects, missing type, missing id', () => {
    expect(parseEvent(null)).toMatchObject({ type: 'malformed', id: null, originalType: '' });
    expect(parseEvent([1, 2])).toMatchObject({ type: 'malformed', id: null });
    expect(parseEvent('heartbeat')).toMatchObject({ type: 'malformed', id: null });
    expect(parseEvent({ id: 5 })).toMatchObject({ type: 'malformed', id: 5, originalType: '' });
    expect(parseEvent({ type: 'heartbeat' })).toMatchObject({ type: 'malformed', id: null, originalType: 'heartbeat' });
    expect(parseEvent({ id: 1.5, type: 'heartbeat' })).toMatchObject({ type: 'malformed', id: null });
  });

  it('parseEvents keeps order and isolates a bad event', () => {
    const evs = parseEvents([
      { id: 1, type: 'heartbeat' },
      { id: 2, type: 'martian' },
      { id: 3, type: 'muted_users', muted_users: 'nope' },
      { id: 4, type: 'invites_changed' },
    ]);
    expect(evs.map((e) => [e.type, e.id])).toEqual([
      ['heartbeat', 1],
      ['unknown', 2],
      ['malformed', 3],
      ['invites_changed', 4],
    ]);
  });
});

describe('parseEvent: messages', () => {
  it('message: flags are copied onto the message and local_message_id is kept', () => {
    const ev = known({ id: 1, type: 'message', message: channelMessage, flags: ['read', 'mentioned'], local_message_id: '1204.01' });
    if (ev.type !== 'message') throw new Error(ev.type);
    expect(ev.local_message_id).toBe('1204.01');
    expect(ev.flags).toEqual(['read', 'mentioned']);
    expect(ev.message.flags).toEqual(['read', 'mentioned']);
    expect(ev.message).toMatchObject({ id: 31, subject: 'test', stream_id: 1, type: 'stream', content_type: 'text/html' });
  });

  it('message: a numeric local id is read as a string; without one it is absent', () => {
    const a = known({ id: 1, type: 'message', message: channelMessage, flags: [], local_message_id: 17 });
    const b = known({ id: 2, type: 'message', message: channelMessage, flags: [] });
    expect(a).toMatchObject({ local_message_id: '17' });
    expect(b).not.toHaveProperty('local_message_id');
  });

  it('update_message: the notes example (content and topic edit) has no op', () => {
    const raw = {
      type: 'update_message',
      user_id: 10,
      edit_timestamp: 1594825451,
      message_id: 58,
      stream_name: 'Verona',
      orig_content: 'hello',
      orig_rendered_content: '<p>hello</p>',
      content: 'new content',
      rendered_content: '<p>new content</p>',
      is_me_message: false,
      propagate_mode: 'change_all',
      stream_id: 5,
      orig_subject: 'test',
      subject: 'new_topic',
      topic_links: [],
      message_ids: [57, 58],
      flags: [],
      rendering_only: false,
      id: 0,
    };
    const ev = known(raw);
    expect(ev).toEqual(raw);
    expect(ev).not.toHaveProperty('op');
  });

  it('update_message: a channel move keeping the topic has new_stream_id but no subject', () => {
    const ev = known({
      id: 2,
      type: 'update_message',
      user_id: 10,
      edit_timestamp: 1594825500,
      message_id: 58,
      message_ids: [58, 59],
      flags: ['read'],
      rendering_only: false,
      stream_id: 5,
      new_stream_id: 6,
      orig_subject: 'test',
      propagate_mode: 'change_later',
    });
    expect(ev).toMatchObject({ new_stream_id: 6, orig_subject: 'test', propagate_mode: 'change_later' });
    expect(ev).not.toHaveProperty('subject');
  });

  it('update_message: a rendering-only update has user_id null', () => {
    const ev = known({
      id: 3,
      type: 'update_message',
      user_id: null,
      rendering_only: true,
      message_id: 58,
      message_ids: [58],
      flags: [],
      edit_timestamp: 1594825600,
      content: 'see https://example.com',
      rendered_content: '<p>see <a href="https://example.com">https://example.com</a></p>',
    });
    expect(ev).toMatchObject({ user_id: null, rendering_only: true });
  });

  it('delete_message: bulk and single forms both give message_ids', () => {
    expect(known({ type: 'delete_message', message_type: 'private', message_id: 37, id: 0 })).toEqual({
      type: 'delete_message',
      message_type: 'private',
      message_ids: [37],
      id: 0,
    });
    expect(
      known({ type: 'delete_message', message_type: 'stream', message_ids: [40, 41], stream_id: 3, topic: 'lunch', id: 1 }),
    ).toEqual({ type: 'delete_message', message_type: 'stream', message_ids: [40, 41], stream_id: 3, topic: 'lunch', id: 1 });
    expect(parseEvent({ type: 'delete_message', message_type: 'stream', id: 2 })).toMatchObject({ type: 'malformed' });
  });

  it('typing: direct and channel forms', () => {
    const dm = known({
      type: 'typing',
      op: 'start',
      message_type: 'direct',
      sender: { user_id: 10, email: 'user10@zulip.testserver' },
      recipients: [
        { user_id: 8, email: 'user8@zulip.testserver' },
        { user_id: 10, email: 'user10@zulip.testserver' },
      ],
      id: 0,
    });
    expect(dm).toMatchObject({ type: 'typing', op: 'start', message_type: 'direct', sender: { user_id: 10 } });
    const ch = known({ type: 'typing', op: 'stop', message_type: 'stream', sender: { user_id: 10, email: 'a@b' }, stream_id: 4, topic: '', id: 1 });
    expect(ch).toMatchObject({ op: 'stop', message_type: 'stream', stream_id: 4, topic: '' });
  });

  it('typing_edit_message: sender_id and a recipient object (notes example)', () => {
    const raw = { type: 'typing_edit_message', op: 'start', sender_id: 10, recipient: { type: 'direct', user_ids: [8, 10] }, message_id: 7, id: 0 };
    expect(known(raw)).toEqual(raw);
    const ch = known({ type: 'typing_edit_message', op: 'stop', sender_id: 10, recipient: { type: 'channel', channel_id: 3, topic: 'x' }, message_id: 9, id: 1 });
    expect(ch).toMatchObject({ op: 'stop', recipient: { type: 'channel', channel_id: 3, topic: 'x' } });
  });

  it('update_message_flags: add, and remove with message_details', () => {
    expect(known({ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'starred', messages: [63], all: false, id: 0 })).toEqual({
      type: 'update_message_flags',
      op: 'add',
      operation: 'add',
      flag: 'starred',
      messages: [63],
      all: false,
      id: 0,
    });
    const rm = known({
      type: 'update_message_flags',
      op: 'remove',
      flag: 'read',
      messages: [63, 64],
      message_details: {
        '63': { type: 'stream', stream_id: 22, topic: 'lunch', mentioned: true },
        '64': { type: 'private', user_ids: [8] },
      },
      id: 1,
    });
    expect(rm).toMatchObject({
      op: 'remove',
      flag: 'read',
      all: false,
      message_details: { '63': { type: 'stream', stream_id: 22, topic: 'lunch', mentioned: true }, '64': { type: 'private', user_ids: [8] } },
    });
  });

  it('reaction add/remove and submessage', () => {
    const add = {
      type: 'reaction',
      op: 'add',
      user_id: 10,
      user: { user_id: 10, email: 'user10@zulip.testserver', full_name: 'King Hamlet' },
      message_id: 32,
      emoji_name: 'tada',
      emoji_code: '1f389',
      reaction_type: 'unicode_emoji',
      id: 0,
    };
    expect(known(add)).toEqual(add);
    // FL 484 dropped `user`.
    expect(known({ ...add, op: 'remove', user: undefined, id: 1 })).toMatchObject({ op: 'remove', user_id: 10 });
    const sub = {
      type: 'submessage',
      msg_type: 'widget',
      message_id: 970461,
      submessage_id: 4737,
      sender_id: 58,
      content: '{"type":"vote","key":"58,1","vote":1}',
      id: 28,
    };
    expect(known(sub)).toEqual(sub);
  });
});

describe('parseEvent: per-user state', () => {
  it('user_topic (no op) with an open visibility policy', () => {
    const raw = { id: 1, type: 'user_topic', stream_id: 1, topic_name: 'topic', last_updated: 1594825442, visibility_policy: 1 };
    expect(known(raw)).toEqual(raw);
    expect(known({ ...raw, visibility_policy: 9 })).toMatchObject({ visibility_policy: 'unknown' });
  });

  it('saved_snippets add/update/remove', () => {
    const snippet = { id: 1, title: 'Example', content: 'Welcome to the organization.', date_created: 1681662420 };
    expect(known({ type: 'saved_snippets', op: 'add', saved_snippet: snippet, id: 1 })).toMatchObject({ op: 'add', saved_snippet: snippet });
    expect(known({ type: 'saved_snippets', op: 'update', saved_snippet: { ...snippet, title: 'New' }, id: 2 })).toMatchObject({
      op: 'update',
      saved_snippet: { title: 'New' },
    });
    expect(known({ type: 'saved_snippets', op: 'remove', saved_snippet_id: 17, id: 3 })).toEqual({
      type: 'saved_snippets',
      op: 'remove',
      saved_snippet_id: 17,
      id: 3,
    });
  });

  it('navigation_view (singular) add/update/remove', () => {
    expect(
      known({ type: 'navigation_view', op: 'add', navigation_view: { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alert Words' }, id: 1 }),
    ).toMatchObject({ navigation_view: { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alert Words' } });
    expect(known({ type: 'navigation_view', op: 'update', fragment: 'narrow/is/alerted', data: { is_pinned: false }, id: 2 })).toEqual({
      type: 'navigation_view',
      op: 'update',
      fragment: 'narrow/is/alerted',
      data: { is_pinned: false },
      id: 2,
    });
    expect(known({ type: 'navigation_view', op: 'remove', fragment: 'narrow/is/mentioned', id: 3 })).toMatchObject({ op: 'remove' });
  });

  it('scheduled_messages add/update/remove', () => {
    const sm = {
      scheduled_message_id: 17,
      type: 'private',
      to: [6],
      content: 'Hello there!',
      rendered_content: '<p>Hello there!</p>',
      scheduled_delivery_timestamp: 1681662420,
      failed: false,
    };
    expect(known({ type: 'scheduled_messages', op: 'add', scheduled_messages: [sm], id: 1 })).toMatchObject({ scheduled_messages: [sm] });
    expect(
      known({ type: 'scheduled_messages', op: 'update', scheduled_message: { ...sm, type: 'stream', to: 3, topic: 'x' }, id: 2 }),
    ).toMatchObject({ scheduled_message: { type: 'stream', to: 3, topic: 'x' } });
    expect(known({ type: 'scheduled_messages', op: 'remove', scheduled_message_id: 17, id: 3 })).toMatchObject({ scheduled_message_id: 17 });
  });

  it('reminders add/remove', () => {
    const reminder = {
      reminder_id: 17,
      type: 'private',
      to: [6],
      content: 'Hello there!',
      rendered_content: '<p>Hello there!</p>',
      scheduled_delivery_timestamp: 1681662420,
      failed: false,
      reminder_target_message_id: 42,
    };
    expect(known({ type: 'reminders', op: 'add', reminders: [reminder], id: 1 })).toMatchObject({ reminders: [reminder] });
    expect(known({ type: 'reminders', op: 'remove', reminder_id: 17, id: 2 })).toMatchObject({ reminder_id: 17 });
  });

  it('user_settings update, with language_name for default_language', () => {
    expect(known({ type: 'user_settings', op: 'update', property: 'high_contrast_mode', value: false, id: 0 })).toEqual({
      type: 'user_settings',
      op: 'update',
      property: 'high_contrast_mode',
      value: false,
      id: 0,
    });
    expect(
      known({ type: 'user_settings', op: 'update', property: 'default_language', value: 'de', language_name: 'Deutsch', id: 1 }),
    ).toMatchObject({ value: 'de', language_name: 'Deutsch' });
    expect(known({ type: 'user_settings', op: 'update', property: 'twenty_four_hour_time', value: null, id: 2 })).toMatchObject({ value: null });
  });

  it('muted_users, alert_words, has_zoom_token, onboarding_steps, drafts, attachment', () => {
    expect(known({ type: 'muted_users', muted_users: [{ id: 1, timestamp: 1594825442 }], id: 0 })).toMatchObject({
      muted_users: [{ id: 1, timestamp: 1594825442 }],
    });
    expect(known({ type: 'alert_words', alert_words: ['lunch'], id: 1 })).toMatchObject({ alert_words: ['lunch'] });
    expect(known({ type: 'has_zoom_token', value: true, id: 2 })).toMatchObject({ value: true });
    expect(
      known({ type: 'onboarding_steps', onboarding_steps: [{ type: 'one_time_notice', name: 'visibility_policy_banner' }], id: 3 }),
    ).toMatchObject({ onboarding_steps: [{ name: 'visibility_policy_banner' }] });
    const draft = { id: 17, type: 'private', to: [6], topic: '', content: 'Hello there!', timestamp: 15954790200 };
    expect(known({ type: 'drafts', op: 'add', drafts: [draft], id: 4 })).toMatchObject({ drafts: [draft] });
    expect(known({ type: 'drafts', op: 'update', draft, id: 5 })).toMatchObject({ draft });
    expect(known({ type: 'drafts', op: 'remove', draft_id: 17, id: 6 })).toMatchObject({ draft_id: 17 });
    const attachment = { id: 1, name: 'zulip.txt', path_id: '2/ce/2Xpnnwgh8JWKxBXtTfD6BHKV/zulip.txt', size: 6, create_time: 1594825414, messages: [] };
    expect(known({ type: 'attachment', op: 'add', attachment, upload_space_used: 6, id: 7 })).toMatchObject({ attachment });
    expect(known({ type: 'attachment', op: 'remove', attachment: { id: 1 }, upload_space_used: 0, id: 8 })).toMatchObject({ op: 'remove' });
  });
});

describe('parseEvent: channels and subscriptions', () => {
  const sub = {
    ...basicChannel,
    name: 'test',
    stream_id: 9,
    color: '#76ce90',
    is_muted: false,
    pin_to_top: false,
    audible_notifications: null,
    desktop_notifications: null,
    email_notifications: null,
    push_notifications: true,
    wildcard_mentions_notify: null,
    in_home_view: true,
    subscribers: [10],
  };

  it('subscription add/remove/update/peer_add/peer_remove', () => {
    const add = known({ type: 'subscription', op: 'add', subscriptions: [sub], id: 0 });
    expect(add).toMatchObject({ op: 'add', subscriptions: [{ stream_id: 9, color: '#76ce90', push_notifications: true, desktop_notifications: null }] });
    expect(known({ type: 'subscription', op: 'remove', subscriptions: [{ name: 'test', stream_id: 9 }], id: 1 })).toMatchObject({
      subscriptions: [{ name: 'test', stream_id: 9 }],
    });
    expect(known({ op: 'update', type: 'subscription', property: 'pin_to_top', value: true, stream_id: 11, id: 2 })).toEqual({
      op: 'update',
      type: 'subscription',
      property: 'pin_to_top',
      value: true,
      stream_id: 11,
      id: 2,
    });
    expect(known({ type: 'subscription', op: 'peer_add', stream_ids: [9], user_ids: [12], id: 3 })).toMatchObject({ op: 'peer_add' });
    expect(known({ type: 'subscription', op: 'peer_remove', stream_ids: [9], user_ids: [12], id: 4 })).toMatchObject({ op: 'peer_remove' });
  });

  it('a subscription missing its personal color is malformed', () => {
    const { color: _color, ...noColor } = sub;
    expect(parseEvent({ type: 'subscription', op: 'add', subscriptions: [noColor], id: 5 })).toMatchObject({ type: 'malformed' });
  });

  it('stream create, delete (both forms) and update incl. first_message_id and a group-setting value', () => {
    expect(known({ type: 'stream', op: 'create', streams: [basicChannel], id: 0 })).toMatchObject({
      streams: [{ stream_id: 12, can_subscribe_group: { direct_members: [10], direct_subgroups: [2] } }],
    });
    expect(known({ type: 'stream', op: 'delete', streams: [{ stream_id: 1 }, { stream_id: 2 }], stream_ids: [1, 2], id: 1 })).toEqual({
      type: 'stream',
      op: 'delete',
      stream_ids: [1, 2],
      id: 1,
    });
    expect(known({ type: 'stream', op: 'delete', streams: [basicChannel], id: 2 })).toMatchObject({ stream_ids: [12] });
    expect(known({ op: 'update', type: 'stream', property: 'first_message_id', value: 120, stream_id: 11, name: 'test', id: 3 })).toMatchObject({
      property: 'first_message_id',
      value: 120,
    });
    expect(
      known({ op: 'update', type: 'stream', property: 'can_remove_subscribers_group', value: { direct_members: [1], direct_subgroups: [] }, stream_id: 11, name: 'test', id: 4 }),
    ).toMatchObject({ value: { direct_members: [1], direct_subgroups: [] } });
    expect(
      known({ op: 'update', type: 'stream', property: 'invite_only', value: true, history_public_to_subscribers: true, is_web_public: false, stream_id: 11, name: 'test', id: 5 }),
    ).toMatchObject({ history_public_to_subscribers: true, is_web_public: false });
  });

  it('default_streams and channel_folder', () => {
    expect(known({ type: 'default_streams', default_streams: [2, 3], id: 0 })).toMatchObject({ default_streams: [2, 3] });
    expect(
      known({ type: 'channel_folder', op: 'add', channel_folder: { id: 2, name: 'frontend', order: 1, is_archived: false }, id: 1 }),
    ).toMatchObject({ channel_folder: { id: 2, name: 'frontend' } });
    expect(known({ type: 'channel_folder', op: 'update', channel_folder_id: 2, data: { name: 'New frontend' }, id: 2 })).toMatchObject({
      data: { name: 'New frontend' },
    });
    expect(known({ type: 'channel_folder', op: 'reorder', order: [3, 1, 2], id: 3 })).toMatchObject({ order: [3, 1, 2] });
  });
});

describe('parseEvent: users, groups, realm', () => {
  it('user_group add/update/members/subgroups/remove', () => {
    const group = {
      name: 'backend',
      members: [12],
      direct_subgroup_ids: [],
      creator_id: 9,
      date_created: 1717484476,
      description: 'Backend team',
      id: 2,
      is_system_group: false,
      can_add_members_group: 16,
      can_join_group: 16,
      can_leave_group: 15,
      can_manage_group: 16,
      can_mention_group: 11,
      can_remove_members_group: 16,
    };
    expect(known({ type: 'user_group', op: 'add', group, id: 0 })).toMatchObject({ group: { id: 2, deactivated: false } });
    expect(
      known({ type: 'user_group', op: 'update', group_id: 2, data: { description: 'Security', can_mention_group: { direct_members: [3], direct_subgroups: [] } }, id: 1 }),
    ).toMatchObject({ data: { description: 'Security', can_mention_group: { direct_members: [3], direct_subgroups: [] } } });
    expect(known({ type: 'user_group', op: 'update', group_id: 2, data: { deactivated: true }, id: 2 })).toMatchObject({ data: { deactivated: true } });
    for (const op of ['add_members', 'remove_members']) {
      expect(known({ type: 'user_group', op, group_id: 2, user_ids: [10], id: 3 })).toMatchObject({ op, user_ids: [10] });
    }
    for (const op of ['add_subgroups', 'remove_subgroups']) {
      expect(known({ type: 'user_group', op, group_id: 2, direct_subgroup_ids: [10], id: 4 })).toMatchObject({ op, direct_subgroup_ids: [10] });
    }
    expect(known({ type: 'user_group', op: 'remove', group_id: 2, id: 5 })).toEqual({ type: 'user_group', op: 'remove', group_id: 2, id: 5 });
  });

  it('realm_user add/update/remove', () => {
    const person = {
      email: 'foo@zulip.com',
      delivery_email: null,
      user_id: 38,
      avatar_version: 1,
      is_admin: false,
      is_owner: false,
      is_guest: false,
      role: 400,
      is_bot: false,
      full_name: 'full name',
      timezone: '',
      is_active: true,
      date_joined: '2020-07-15T15:04:02.030833+00:00',
      avatar_url: 'https://secure.gravatar.com/avatar/c6b5578d4964bd9c5fae593c6868912a?d=identicon&version=1',
      profile_data: {},
    };
    expect(known({ type: 'realm_user', op: 'add', person, id: 0 })).toMatchObject({ person: { user_id: 38, role: 400, bot_type: null } });
    expect(known({ type: 'realm_user', op: 'update', person: { user_id: 10, role: 300 }, id: 1 })).toMatchObject({ person: { user_id: 10, role: 300 } });
    expect(
      known({ type: 'realm_user', op: 'update', person: { user_id: 10, custom_profile_field: { id: 4, value: null } }, id: 2 }),
    ).toMatchObject({ person: { custom_profile_field: { id: 4, value: null } } });
    expect(known({ type: 'realm_user', op: 'remove', person: { user_id: 35, full_name: 'Foo Bot' }, id: 3 })).toMatchObject({ op: 'remove' });
  });

  it('realm update, update_dict (editing settings) and deactivated', () => {
    expect(known({ type: 'realm', op: 'update', property: 'disallow_disposable_email_addresses', value: false, id: 0 })).toMatchObject({
      property: 'disallow_disposable_email_addresses',
      value: false,
    });
    const dict = known({
      type: 'realm',
      op: 'update_dict',
      property: 'default',
      data: { message_content_edit_limit_seconds: 600, can_resolve_topics_group: 11, topics_policy: 'disable_empty_topic', plan_type: 2 },
      id: 1,
    });
    expect(dict).toMatchObject({
      op: 'update_dict',
      data: { message_content_edit_limit_seconds: 600, can_resolve_topics_group: 11, topics_policy: 'disable_empty_topic', plan_type: 2 },
    });
    expect(
      parseEvent({ type: 'realm', op: 'update_dict', property: 'default', data: { message_content_edit_limit_seconds: 'ten' }, id: 2 }),
    ).toMatchObject({ type: 'malformed' });
    expect(known({ type: 'realm', op: 'deactivated', realm_id: 2, id: 3 })).toMatchObject({ realm_id: 2 });
  });

  it('presence (legacy and modern), user_status, custom_profile_fields, invites_changed', () => {
    expect(
      known({
        type: 'presence',
        user_id: 10,
        email: 'user10@zulip.testserver',
        server_timestamp: 1594825445.3200784,
        presence: { website: { client: 'website', status: 'idle', timestamp: 1594825445, pushable: false } },
        id: 0,
      }),
    ).toMatchObject({ presence: { website: { status: 'idle' } } });
    expect(known({ type: 'presence', presences: { '10': { active_timestamp: 1, idle_timestamp: 2 } }, id: 1 })).toMatchObject({
      presences: { '10': { active_timestamp: 1 } },
    });
    expect(
      known({ type: 'user_status', user_id: 10, away: true, status_text: 'out to lunch', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji', id: 2 }),
    ).toMatchObject({ status_text: 'out to lunch', reaction_type: 'unicode_emoji' });
    expect(
      known({ type: 'custom_profile_fields', fields: [{ id: 1, name: 'Phone number', type: 1, hint: '', field_data: '', order: 1 }], id: 3 }),
    ).toMatchObject({ fields: [{ id: 1, name: 'Phone number', hint: '' }] });
    expect(known({ type: 'invites_changed', id: 4 })).toEqual({ type: 'invites_changed', id: 4 });
  });
});

describe('parseEvent: queue and server', () => {
  it('heartbeat, restart and device', () => {
    expect(known({ type: 'heartbeat', id: 0 })).toEqual({ type: 'heartbeat', id: 0 });
    const restart = {
      id: 1,
      server_generation: 1619334181,
      type: 'restart',
      zulip_feature_level: 425,
      zulip_version: '11.0',
      zulip_merge_base: '11.0',
    };
    expect(known(restart)).toEqual(restart);
    expect(known({ type: 'device', op: 'add', device_id: 5, id: 2 })).toMatchObject({ type: 'device', op: 'add', device_id: 5 });
  });

  it('the other FL 420 types are known and kept loosely', () => {
    const raw = { type: 'realm_linkifiers', realm_linkifiers: [{ id: 1, pattern: '#(?P<id>[0-9]+)', url_template: 'https://x/{id}' }], id: 0 };
    expect(known(raw)).toEqual(raw);
    // realm_emoji is read (the store keeps the set): its emoji are parsed as RealmEmoji.
    const emoji = { id: '1', name: 'green_tick', source_url: '/user_avatars/2/emoji/images/1.png', still_url: null, deactivated: false, author_id: 5 };
    expect(known({ type: 'realm_emoji', op: 'update', realm_emoji: { '1': emoji }, id: 2 })).toMatchObject({ realm_emoji: { '1': emoji } });
    expect(known({ id: 1, type: 'web_reload_client', immediate: true })).toMatchObject({ type: 'web_reload_client' });
  });
});
