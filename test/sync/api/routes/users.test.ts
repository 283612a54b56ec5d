import { describe, expect, it } from 'vitest';
import { MalformedResponseError, ZulipApiError } from '../../../../sync/api/errors.js';
import { createUser, getOwnUser, getUsers } from '../../../../sync/api/routes/users.js';
import { fakeServer, ok } from '../fake-transport.js';

const aaron = {
  is_active: true,
  email: 'AARON@zulip.com',
  delivery_email: null,
  is_admin: false,
  is_owner: false,
  role: 400,
  avatar_url: 'https://secure.gravatar.com/avatar/818c212b9f8830dfef491b3f7da99a14?d=identicon&version=1',
  avatar_version: 1,
  bot_type: null,
  timezone: '',
  is_bot: false,
  user_id: 7,
  profile_data: {},
  is_guest: false,
  date_joined: '2019-10-20T07:50:53.728864+00:00',
  full_name: 'aaron',
};
const iagoBot = {
  bot_owner_id: 11,
  is_guest: false,
  date_joined: '2019-10-20T12:52:17.862053+00:00',
  full_name: "Iago's Bot",
  email: 'iago-bot@zulipdev.com',
  delivery_email: 'iago-bot@zulipdev.com',
  is_active: true,
  avatar_url: null,
  avatar_version: 2,
  is_admin: false,
  is_owner: false,
  role: 400,
  user_id: 23,
  bot_type: 1,
  timezone: '',
  is_bot: true,
};

describe('user routes', () => {
  it('getUsers GETs /users with its flags as JSON bools and user_ids as a JSON array in the query (FL 384)', async () => {
    const f = fakeServer({ featureLevel: 384 });
    f.reply(ok({ members: [aaron, iagoBot] }));
    const res = await getUsers(f.conn, { client_gravatar: false, include_custom_profile_fields: true, user_ids: [7, 23] });
    const req = f.only();
    expect(req.method).toBe('GET');
    expect(req.path).toBe('/users');
    expect(req.rawBody).toBeUndefined();
    expect(req.query).toEqual({ client_gravatar: 'false', include_custom_profile_fields: 'true', user_ids: '[7,23]' });
    expect(res.members.map((m) => m.user_id)).toEqual([7, 23]);
    expect(res.members[0]).toMatchObject({ full_name: 'aaron', role: 400, delivery_email: null, bot_owner_id: null });
    expect(res.members[1]).toMatchObject({ is_bot: true, bot_type: 1, bot_owner_id: 11, avatar_url: null });
  });

  it('getUsers without arguments sends no query parameters', async () => {
    const f = fakeServer();
    f.reply(ok({ members: [] }));
    const res = await getUsers(f.conn);
    expect(f.only().query).toEqual({});
    expect(res.members).toEqual([]);
  });

  it('before FL 384 user_ids is not sent and the list is filtered here instead', async () => {
    const f = fakeServer({ featureLevel: 383 });
    f.reply(ok({ members: [aaron, iagoBot] }));
    const res = await getUsers(f.conn, { user_ids: [23] });
    expect(f.only().query).toEqual({});
    expect(res.members.map((m) => m.user_id)).toEqual([23]);
  });

  it('an unknown role degrades to "unknown" instead of failing the list', async () => {
    const f = fakeServer();
    f.reply(ok({ members: [{ ...aaron, role: 250 }] }));
    const res = await getUsers(f.conn);
    expect(res.members[0]?.role).toBe('unknown');
  });

  it('a member missing its id is a malformed response', async () => {
    const f = fakeServer();
    const { user_id: _omit, ...noId } = aaron;
    f.reply(ok({ members: [noId] }));
    const err = await getUsers(f.conn).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MalformedResponseError);
  });

  it('getOwnUser GETs /users/me and parses the top-level user fields', async () => {
    const f = fakeServer();
    f.reply(
      ok({
        avatar_url: 'https://secure.gravatar.com/avatar/af4f06322c177ef4e1e9b2c424986b54?d=identicon&version=1',
        avatar_version: 1,
        email: 'iago@zulip.com',
        delivery_email: 'iago@zulip.com',
        full_name: 'Iago',
        is_admin: true,
        is_owner: false,
        role: 200,
        is_guest: false,
        is_bot: false,
        is_active: true,
        timezone: '',
        date_joined: '2019-10-20T07:50:53.728864+00:00',
        max_message_id: 30,
        user_id: 5,
        profile_data: { '1': { value: '+1-234-567-8901', rendered_value: '<p>+1-234-567-8901</p>' }, '4': { value: 'emacs' } },
      }),
    );
    const me = await getOwnUser(f.conn);
    const req = f.only();
    expect(req.method).toBe('GET');
    expect(req.path).toBe('/users/me');
    expect(req.query).toEqual({});
    expect(me).toMatchObject({ user_id: 5, email: 'iago@zulip.com', full_name: 'Iago', role: 200, is_admin: true, max_message_id: 30 });
    expect(me.profile_data?.['4']).toEqual({ value: 'emacs' });
  });

  it('getOwnUser accepts both shapes real Zulip sends: a human without bot keys, a bot with them and no profile_data', async () => {
    const { bot_type: _t, ...human } = aaron;
    const f = fakeServer();
    f.reply(ok({ ...human, max_message_id: 3 }));
    f.reply(ok({ ...iagoBot, max_message_id: 3 }));
    const me = await getOwnUser(f.conn);
    expect(me).toMatchObject({ user_id: 7, is_bot: false, bot_type: null, bot_owner_id: null });
    const bot = await getOwnUser(f.conn);
    expect(bot).toMatchObject({ user_id: 23, is_bot: true, bot_type: 1, bot_owner_id: 11 });
    expect(bot.profile_data).toBeUndefined();
  });

  it('createUser POSTs email, password and full_name raw and returns the new id', async () => {
    const f = fakeServer();
    f.reply(ok({ user_id: 25 }));
    const res = await createUser(f.conn, { email: 'newbie+1@zulip.com', password: 'p@ss w&rd', full_name: 'New "User"' });
    const req = f.only();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/users');
    expect(req.query).toEqual({});
    expect(req.body).toEqual({ email: 'newbie+1@zulip.com', password: 'p@ss w&rd', full_name: 'New "User"' });
    expect(res.user_id).toBe(25);
  });

  it('createUser: an email already in use is a BAD_REQUEST api error', async () => {
    const f = fakeServer();
    f.reply({ status: 400, json: { code: 'BAD_REQUEST', msg: 'Email is already in use.', result: 'error' } });
    const err = await createUser(f.conn, { email: 'a@b.c', password: 'x', full_name: 'A' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZulipApiError);
    expect(err).toMatchObject({ kind: 'api', code: 'BAD_REQUEST', httpStatus: 400, serverMsg: 'Email is already in use.' });
  });
});
