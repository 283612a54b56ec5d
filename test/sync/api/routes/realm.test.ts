import { describe, expect, it } from 'vitest';
import { ZulipApiError } from '../../../../sync/api/errors.js';
import { getCustomEmoji, getLinkifiers, updateRealmEditingSettings } from '../../../../sync/api/routes/realm.js';
import { fakeServer, ok } from '../fake-transport.js';

describe('realm routes', () => {
  it('updateRealmEditingSettings PATCHes /realm: bool and ints as JSON, "unlimited" as a JSON string, groups as {new, old}', async () => {
    const f = fakeServer();
    const res = await updateRealmEditingSettings(f.conn, {
      allow_message_editing: true,
      message_content_edit_limit_seconds: 600,
      move_messages_within_stream_limit_seconds: 'unlimited',
      move_messages_between_streams_limit_seconds: 259200,
      can_move_messages_between_channels_group: { new: 11, old: 10 },
      can_move_messages_between_topics_group: { new: { direct_members: [5], direct_subgroups: [11] } },
      can_resolve_topics_group: { new: 12 },
    });
    const req = f.only();
    expect(req.method).toBe('PATCH');
    expect(req.path).toBe('/realm');
    expect(req.query).toEqual({});
    expect(req.body).toEqual({
      allow_message_editing: 'true',
      message_content_edit_limit_seconds: '600',
      move_messages_within_stream_limit_seconds: '"unlimited"',
      move_messages_between_streams_limit_seconds: '259200',
      can_move_messages_between_channels_group: '{"new":11,"old":10}',
      can_move_messages_between_topics_group: '{"new":{"direct_members":[5],"direct_subgroups":[11]}}',
      can_resolve_topics_group: '{"new":12}',
    });
    expect(res).toEqual({ result: 'success', msg: '' });
  });

  it('sends only the settings given', async () => {
    const f = fakeServer();
    await updateRealmEditingSettings(f.conn, { message_content_edit_limit_seconds: 'unlimited' });
    expect(f.only().body).toEqual({ message_content_edit_limit_seconds: '"unlimited"' });
    expect(f.only().rawBody).toBe('message_content_edit_limit_seconds=%22unlimited%22');
  });

  it('null is not a limit and group settings need the update form, at the type level', () => {
    const typeOnly = (fn: () => unknown) => fn;
    // @ts-expect-error null would read as "absent" on the server; use 'unlimited'
    typeOnly(() => updateRealmEditingSettings(fakeServer().conn, { message_content_edit_limit_seconds: null }));
    // @ts-expect-error a bare group id is not an update value
    typeOnly(() => updateRealmEditingSettings(fakeServer().conn, { can_resolve_topics_group: 11 }));
  });

  it('can_resolve_topics_group is sent from FL 367', async () => {
    const f = fakeServer({ featureLevel: 367 });
    await updateRealmEditingSettings(f.conn, { can_resolve_topics_group: { new: 12 } });
    expect(f.only().body).toEqual({ can_resolve_topics_group: '{"new":12}' });
  });

  it('can_resolve_topics_group is refused before FL 367, without sending', async () => {
    const f = fakeServer({ featureLevel: 366 });
    await expect(
      updateRealmEditingSettings(f.conn, { allow_message_editing: true, can_resolve_topics_group: { new: 12 } }),
    ).rejects.toMatchObject({ name: 'UnsupportedFeatureError', message: expect.stringMatching(/can_resolve_topics_group needs feature level 367; the server is at 366/) });
    expect(f.calls).toHaveLength(0);
  });

  it('can_move_messages_between_topics_group is refused before FL 316', async () => {
    const f = fakeServer({ featureLevel: 315 });
    await expect(
      updateRealmEditingSettings(f.conn, { can_move_messages_between_topics_group: { new: 1 } }),
    ).rejects.toMatchObject({ name: 'UnsupportedFeatureError', message: expect.stringMatching(/can_move_messages_between_topics_group needs feature level 316/) });
    expect(f.calls).toHaveLength(0);
  });

  it('can_move_messages_between_channels_group is refused before FL 310', async () => {
    const f = fakeServer({ featureLevel: 309 });
    await expect(
      updateRealmEditingSettings(f.conn, { can_move_messages_between_channels_group: { new: 1 } }),
    ).rejects.toMatchObject({ name: 'UnsupportedFeatureError', message: expect.stringMatching(/can_move_messages_between_channels_group needs feature level 310/) });
    expect(f.calls).toHaveLength(0);
  });

  it('the time limits and allow_message_editing still go to older servers', async () => {
    const f = fakeServer({ featureLevel: 200 });
    await updateRealmEditingSettings(f.conn, { allow_message_editing: false, move_messages_within_stream_limit_seconds: 3600 });
    expect(f.only().body).toEqual({ allow_message_editing: 'false', move_messages_within_stream_limit_seconds: '3600' });
  });

  it('from FL 138 an unlimited content edit limit is the JSON string "unlimited"', async () => {
    const f = fakeServer({ featureLevel: 138 });
    await updateRealmEditingSettings(f.conn, { message_content_edit_limit_seconds: 'unlimited' });
    expect(f.only().body).toEqual({ message_content_edit_limit_seconds: '"unlimited"' });
  });

  it('before FL 138 an unlimited content edit limit is sent as 0; numbers pass through', async () => {
    const f = fakeServer({ featureLevel: 137 });
    await updateRealmEditingSettings(f.conn, { message_content_edit_limit_seconds: 'unlimited' });
    await updateRealmEditingSettings(f.conn, { message_content_edit_limit_seconds: 300 });
    expect(f.calls.map((c) => c.body)).toEqual([
      { message_content_edit_limit_seconds: '0' },
      { message_content_edit_limit_seconds: '300' },
    ]);
  });

  it('a non-administrator gets an api error', async () => {
    const f = fakeServer();
    f.reply({ status: 400, json: { result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' } });
    const err = await updateRealmEditingSettings(f.conn, { allow_message_editing: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZulipApiError);
    expect(err).toMatchObject({ kind: 'api', code: 'UNAUTHORIZED_PRINCIPAL', httpStatus: 400 });
  });
});

describe('realm data routes', () => {
  it('getCustomEmoji GETs /realm/emoji: emoji by id; still_url and author_id default to null when absent', async () => {
    const f = fakeServer();
    f.reply(ok({ emoji: { '1': { id: '1', name: 'green_tick', source_url: '/user_avatars/1/emoji/images/1.png', deactivated: false } } }));
    const res = await getCustomEmoji(f.conn);
    expect([f.only().method, f.only().path, f.only().query]).toEqual(['GET', '/realm/emoji', {}]);
    expect(res.emoji['1']).toEqual({ id: '1', name: 'green_tick', source_url: '/user_avatars/1/emoji/images/1.png', still_url: null, deactivated: false, author_id: null });
  });

  it('getLinkifiers GETs /realm/linkifiers and keeps their order', async () => {
    const f = fakeServer();
    const linkifiers = [
      { pattern: '#(?P<id>[0-9]+)', url_template: 'https://github.com/zulip/zulip/issues/{id}', id: 2 },
      { pattern: 'T(?P<id>[0-9]+)', url_template: 'https://t.example/{id}', id: 1 },
    ];
    f.reply(ok({ linkifiers }));
    const res = await getLinkifiers(f.conn);
    expect([f.only().method, f.only().path]).toEqual(['GET', '/realm/linkifiers']);
    expect(res.linkifiers).toEqual(linkifiers);
  });
});
