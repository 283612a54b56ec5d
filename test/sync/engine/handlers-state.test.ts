/**
 * Event handlers on synthetic events (real shapes, docs/zulip-behaviour.md "Events"): per-user
 * state, channels, users, groups, realm.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { parseEvent, type ZulipEvent } from '../../../sync/api/index.js';
import { openLocalDb, type LocalDb } from '../../../sync/db/open.js';
import { getChannel } from '../../../sync/db/queries/channels.js';
import { getUserGroup, putUserGroup } from '../../../sync/db/queries/groups.js';
import { getStoredMessages, upsertMessages } from '../../../sync/db/queries/messages.js';
import { getNavigationViews, getSavedSnippets, getScheduledMessages, getTopicVisibility, getUserSettings } from '../../../sync/db/queries/personal.js';
import { getRealmEditingSettings } from '../../../sync/db/queries/realm.js';
import { getUser, putUser } from '../../../sync/db/queries/users.js';
import { ChangeCollector } from '../../../sync/db/changes.js';
import { applyEvents, EventApplyError } from '../../../sync/engine/handlers/index.js';
import * as eg from '../../support/eg.js';

let db: LocalDb;
let warnings: string[];
let changes: ChangeCollector;

/** Applies the events (ids in increasing order, as a queue hands them out). */
function apply(...raw: Array<{ type: string } & Record<string, unknown>>) {
  const events: ZulipEvent[] = raw.map(({ type, ...fields }) => parseEvent(eg.event(type, fields)));
  return applyEvents(db, events, { selfUserId: eg.SELF, logger: { warn: (m) => warnings.push(m) } }, changes);
}

beforeEach(() => {
  db = openLocalDb(':memory:');
  warnings = [];
  changes = new ChangeCollector();
});

describe('channels and subscriptions', () => {
  it('subscribe, update, peers, rename (rewriting cached messages), unsubscribe', () => {
    upsertMessages(db, [eg.streamMessage({ id: 1 })], new ChangeCollector());
    apply({ type: 'subscription', op: 'add', subscriptions: [eg.subscription()] });
    apply({ type: 'subscription', op: 'update', stream_id: 5, property: 'is_muted', value: true });
    apply({ type: 'subscription', op: 'peer_add', stream_ids: [5], user_ids: [12] });
    apply({ type: 'stream', op: 'update', stream_id: 5, name: 'Verona', property: 'name', value: 'Padua' });
    apply({ type: 'stream', op: 'update', stream_id: 5, name: 'Padua', property: 'first_message_id', value: 9 });
    const c = getChannel(db, 5);
    expect(c?.channel).toMatchObject({ name: 'Padua', first_message_id: 9, subscriber_count: 3 });
    expect(c?.subscription).toMatchObject({ is_muted: true, in_home_view: false, subscribers: [10, 11, 12] });
    expect(getStoredMessages(db, [1])[0]?.display_recipient).toBe('Padua');
    expect(changes.updated.has(1)).toBe(true);
    apply({ type: 'subscription', op: 'remove', subscriptions: [{ stream_id: 5, name: 'Padua' }] });
    expect(getChannel(db, 5)?.subscription).toBeNull();
    apply({ type: 'stream', op: 'delete', stream_ids: [5] });
    expect(getChannel(db, 5)).toBeUndefined();
  });
});

describe('users and groups', () => {
  it('a rename reaches the cached messages that show the user', () => {
    putUser(db, eg.user({ person: eg.iago }), true);
    upsertMessages(db, [eg.streamMessage({ id: 1, sender: eg.iago }), eg.dmMessage({ id: 2, participants: [eg.SELF, 13], sender: eg.hamlet })], new ChangeCollector());
    apply({ type: 'realm_user', op: 'update', person: { user_id: 13, full_name: 'Iago the Ensign' } });
    apply({ type: 'realm_user', op: 'update', person: { user_id: 13, role: 200 } });
    expect(getUser(db, 13)?.user).toMatchObject({ full_name: 'Iago the Ensign', role: 200, is_admin: true });
    const [a, b] = getStoredMessages(db, [1, 2]);
    expect(a?.sender_full_name).toBe('Iago the Ensign');
    expect(Array.isArray(b?.display_recipient) && b.display_recipient.find((p) => p.id === 13)?.full_name).toBe('Iago the Ensign');
    apply({ type: 'realm_user', op: 'remove', person: { user_id: 13, full_name: 'x' } });
    expect(getUser(db, 13)).toBeUndefined();
  });

  it('group membership, subgroups, settings and removal', () => {
    putUserGroup(db, { id: 3, name: 'g', description: '', members: [1], direct_subgroup_ids: [], is_system_group: false, deactivated: false });
    apply(
      { type: 'user_group', op: 'add_members', group_id: 3, user_ids: [5, 2] },
      { type: 'user_group', op: 'remove_members', group_id: 3, user_ids: [1] },
      { type: 'user_group', op: 'add_subgroups', group_id: 3, direct_subgroup_ids: [8] },
      { type: 'user_group', op: 'update', group_id: 3, data: { name: 'h', deactivated: true } },
      { type: 'user_group', op: 'add_members', group_id: 99, user_ids: [1] },
    );
    expect(getUserGroup(db, 3)).toMatchObject({ name: 'h', members: [2, 5], direct_subgroup_ids: [8], deactivated: true });
    apply({ type: 'user_group', op: 'remove', group_id: 3 });
    expect(getUserGroup(db, 3)).toBeUndefined();
  });
});

describe('personal state and realm', () => {
  it('topics, snippets, navigation views (order kept), scheduled messages, settings, realm', () => {
    apply(
      { type: 'user_topic', stream_id: 5, topic_name: '', last_updated: 1, visibility_policy: 3 },
      { type: 'saved_snippets', op: 'add', saved_snippet: { id: 1, title: 't', content: 'c', date_created: 1 } },
      { type: 'saved_snippets', op: 'update', saved_snippet: { id: 1, title: 't2', content: 'c', date_created: 1 } },
      { type: 'navigation_view', op: 'add', navigation_view: { fragment: 'inbox', is_pinned: true, name: null } },
      { type: 'navigation_view', op: 'add', navigation_view: { fragment: 'recent', is_pinned: false, name: null } },
      { type: 'navigation_view', op: 'update', fragment: 'inbox', data: { is_pinned: false } },
      { type: 'scheduled_messages', op: 'add', scheduled_messages: [{ scheduled_message_id: 4, type: 'stream', to: 5, topic: 'x', content: 'c', rendered_content: '<p>c</p>', scheduled_delivery_timestamp: 9 }] },
      { type: 'user_settings', op: 'update', property: 'enter_sends', value: true },
      { type: 'user_settings', op: 'update', property: 'enter_sends', value: 'not a boolean' },
      { type: 'realm', op: 'update_dict', property: 'default', data: { message_content_edit_limit_seconds: 600 } },
      { type: 'realm', op: 'update', property: 'empty_topic_display_name', value: 'general chat' },
    );
    expect(getTopicVisibility(db, 5, '')).toBe(3);
    expect(getSavedSnippets(db).map((s) => s.title)).toEqual(['t2']);
    expect(getNavigationViews(db)).toEqual([
      { fragment: 'inbox', is_pinned: false, name: null },
      { fragment: 'recent', is_pinned: false, name: null },
    ]);
    expect(getScheduledMessages(db).map((m) => m.scheduled_message_id)).toEqual([4]);
    expect(getUserSettings(db)).toEqual({ enter_sends: true });
    expect(getRealmEditingSettings(db)).toMatchObject({ contentEditLimitSeconds: 600, emptyTopicDisplayName: 'general chat' });
    expect(warnings).toHaveLength(1);
    apply(
      { type: 'user_topic', stream_id: 5, topic_name: '', last_updated: 2, visibility_policy: 0 },
      { type: 'saved_snippets', op: 'remove', saved_snippet_id: 1 },
      { type: 'navigation_view', op: 'remove', fragment: 'inbox' },
      { type: 'scheduled_messages', op: 'remove', scheduled_message_id: 4 },
    );
    expect(getTopicVisibility(db, 5, '')).toBe(0);
    expect([getSavedSnippets(db), getScheduledMessages(db)]).toEqual([[], []]);
    expect(getNavigationViews(db).map((v) => v.fragment)).toEqual(['recent']);
  });
});

describe('the batch', () => {
  it('hands back local echoes, typing and restart; skips unknown and malformed events with a log', () => {
    const out = apply(
      { type: 'message', message: eg.streamMessage({ id: 7 }), flags: ['read'], local_message_id: '12.01' },
      { type: 'typing', op: 'start', message_type: 'direct', sender: { user_id: 11 }, recipients: [{ user_id: 10 }, { user_id: 11 }] },
      { type: 'brand_new_event' },
      { type: 'reaction', op: 'add', message_id: 'not a number' },
      { type: 'update_message_flags', op: 'add', flag: 'starred', messages: [7, 99], all: false },
      { type: 'reaction', op: 'add', message_id: 99, emoji_name: 'x', emoji_code: '1', reaction_type: 'unicode_emoji', user_id: 3 },
      { type: 'delete_message', message_type: 'stream', message_id: 98 },
      { type: 'update_message', user_id: 3, rendering_only: false, message_id: 97, message_ids: [97], flags: [], edit_timestamp: 1, content: 'x', rendered_content: '<p>x</p>' },
      { type: 'heartbeat' },
      { type: 'restart', zulip_feature_level: 430 },
    );
    expect(out.localEchoes).toEqual([{ local_message_id: '12.01', message_id: 7 }]);
    expect(out.typing).toHaveLength(1);
    expect(out.restart?.zulip_feature_level).toBe(430);
    expect(out.skipped).toBe(2);
    expect(warnings).toHaveLength(2);
    expect(getStoredMessages(db, [7])[0]?.flags).toEqual(['read', 'starred']);
  });

  it('a handler failure names the event', () => {
    db.exec('DROP TABLE saved_snippets');
    expect(() => apply({ type: 'saved_snippets', op: 'remove', saved_snippet_id: 1 })).toThrow(EventApplyError);
  });
});
