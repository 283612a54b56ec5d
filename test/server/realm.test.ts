/** PATCH /realm: the message editing and moving settings (spec rule 2 of edit message; Events 2). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemGroupId } from '../../server/model/groups.js';
import { getRealm } from '../../server/model/realm.js';
import { startTestServer, type TestServer } from './harness.js';
import { openQueue } from './messages-util.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** A queue of `who`'s events, registered without client capabilities. */
const listen = (who: string) => openQueue(t, who, { capabilities: {} });

const sys = (name: string) => systemGroupId(t.server.state, name);
const realm = () => getRealm(t.server.state);

describe('PATCH /realm', () => {
  it('administrators only: others get UNAUTHORIZED_PRINCIPAL', async () => {
    const r = await t.as('shiva').patch('/realm', { allow_message_editing: false });
    expect(r.json).toMatchObject({ result: 'error', code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
    expect(realm().allow_message_editing).toBe(true);
  });

  it('allow_message_editing is changed; realm update_dict (property "default") tells everyone', async () => {
    const l = listen('polonius');
    expect((await t.as('iago').patch('/realm', { allow_message_editing: false })).status).toBe(200);
    expect(realm().allow_message_editing).toBe(false);
    expect(await l.events()).toEqual([{ type: 'realm', op: 'update_dict', property: 'default', data: { allow_message_editing: false }, id: 0 }]);
    await t.as('iago').patch('/realm', { allow_message_editing: true });
  });

  it('the time limits take seconds; one event carries every changed setting', async () => {
    const l = listen('hamlet');
    await t.as('iago').patch('/realm', { message_content_edit_limit_seconds: 3600, move_messages_within_stream_limit_seconds: 7200, move_messages_between_streams_limit_seconds: 86400 });
    expect(realm()).toMatchObject({ message_content_edit_limit_seconds: 3600, move_messages_within_stream_limit_seconds: 7200, move_messages_between_streams_limit_seconds: 86400 });
    expect(await l.events()).toEqual([
      {
        type: 'realm',
        op: 'update_dict',
        property: 'default',
        data: { message_content_edit_limit_seconds: 3600, move_messages_within_stream_limit_seconds: 7200, move_messages_between_streams_limit_seconds: 86400 },
        id: 0,
      },
    ]);
  });

  it('"unlimited" (JSON string) means no limit: stored and announced as null', async () => {
    const l = listen('hamlet');
    await t.as('iago').patch('/realm', { message_content_edit_limit_seconds: 'unlimited' });
    expect(realm().message_content_edit_limit_seconds).toBeNull();
    expect(await l.events()).toEqual([expect.objectContaining({ data: { message_content_edit_limit_seconds: null } })]);
  });

  it('JSON null also means no limit', async () => {
    await t.as('iago').patch('/realm', { move_messages_within_stream_limit_seconds: null });
    expect(realm().move_messages_within_stream_limit_seconds).toBeNull();
  });

  it('a zero, negative or non-numeric limit is rejected', async () => {
    for (const v of [0, -5, 'soon', 1.5]) {
      const r = await t.as('iago').patch('/realm', { message_content_edit_limit_seconds: v });
      expect(r.json.code).toBe('BAD_REQUEST');
    }
  });

  it('unchanged values produce no event', async () => {
    await t.as('iago').patch('/realm', { move_messages_between_streams_limit_seconds: 86400 });
    const l = listen('hamlet');
    await t.as('iago').patch('/realm', { move_messages_between_streams_limit_seconds: 86400 });
    expect(await l.events()).toEqual([]);
  });

  it('group settings accept an update value {new}', async () => {
    const l = listen('hamlet');
    await t.as('iago').patch('/realm', { can_move_messages_between_topics_group: { new: sys('role:moderators') } });
    expect(realm().can_move_messages_between_topics_group).toBe(sys('role:moderators'));
    expect(await l.events()).toEqual([expect.objectContaining({ op: 'update_dict', data: { can_move_messages_between_topics_group: sys('role:moderators') } })]);
  });

  it('group settings accept a plain group-setting value', async () => {
    const value = { direct_members: [t.userId('hamlet')], direct_subgroups: [sys('role:moderators')] };
    await t.as('iago').patch('/realm', { can_resolve_topics_group: value });
    expect(realm().can_resolve_topics_group).toEqual(value);
  });

  it('a mismatching old value is EXPECTATION_MISMATCH with field_name "old"', async () => {
    const r = await t.as('iago').patch('/realm', { can_mention_many_users_group: { new: sys('role:members'), old: sys('role:everyone') } });
    expect(r.json).toMatchObject({ code: 'EXPECTATION_MISMATCH', field_name: 'old' });
  });

  it('a matching old value is accepted', async () => {
    const r = await t.as('iago').patch('/realm', { can_mention_many_users_group: { new: sys('role:members'), old: sys('role:administrators') } });
    expect(r.status).toBe(200);
    expect(realm().can_mention_many_users_group).toBe(sys('role:members'));
  });

  it('can_move_messages_between_channels_group is changed', async () => {
    await t.as('iago').patch('/realm', { can_move_messages_between_channels_group: { new: sys('role:administrators') } });
    expect(realm().can_move_messages_between_channels_group).toBe(sys('role:administrators'));
  });

  it('can_add_subscribers_group is changed: members then may not subscribe others, in the server\'s words', async () => {
    const before = realm().can_add_subscribers_group;
    try {
      await t.as('iago').patch('/realm', { can_add_subscribers_group: { new: sys('role:administrators') } });
      expect(realm().can_add_subscribers_group).toBe(sys('role:administrators'));
      const r = await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'general' }], principals: [t.userId('othello')] });
      expect(r.json).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Insufficient permission' });
    } finally {
      await t.as('iago').patch('/realm', { can_add_subscribers_group: { new: before } });
    }
  });

  it('unknown or deactivated groups, and role:internet, are rejected', async () => {
    const retired = t.server.state.db.prepare("SELECT id FROM user_groups WHERE name = 'retired'").pluck().get() as number;
    for (const v of [9999, retired, sys('role:internet')]) {
      expect((await t.as('iago').patch('/realm', { can_resolve_topics_group: { new: v } })).json.code).toBe('BAD_REQUEST');
    }
  });

  it('an error rolls back the other changes of the request', async () => {
    const r = await t.as('iago').patch('/realm', { allow_message_editing: false, can_resolve_topics_group: { new: 9999 } });
    expect(r.status).toBe(400);
    expect(realm().allow_message_editing).toBe(true);
  });

  it('other realm settings are not supported here: ignored_parameters_unsupported', async () => {
    const r = await t.as('iago').patch('/realm', { name: 'New name', allow_message_editing: true });
    expect(r.json).toMatchObject({ result: 'success', ignored_parameters_unsupported: ['name'] });
  });
});

describe('GET /realm/emoji and GET /realm/linkifiers', () => {
  it("the demo realm's custom emoji by id, the same as register realm_emoji", async () => {
    const r = await t.as('hamlet').get('/realm/emoji');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ result: 'success', msg: '', emoji: { '1': { id: '1', name: 'shipit', source_url: '/user_avatars/2/emoji/images/1.png', deactivated: false } } });
    expect((await t.as('hamlet').post('/register', { fetch_event_types: ['realm_emoji'] })).json.realm_emoji).toEqual(r.json.emoji);
  });

  it('and no linkifiers: linkifiers is an empty list, the same as register realm_linkifiers', async () => {
    const r = await t.as('polonius').get('/realm/linkifiers');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ result: 'success', msg: '', linkifiers: [] });
    expect((await t.as('polonius').post('/register', { fetch_event_types: ['realm_linkifiers'] })).json.realm_linkifiers).toEqual(r.json.linkifiers);
  });

  it('both need authentication', async () => {
    expect((await t.raw('GET', '/realm/emoji')).json).toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await t.raw('GET', '/realm/linkifiers')).json).toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
