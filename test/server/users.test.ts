/**
 * Users: GET /users, GET /users/me, GET /users/{id}, POST /users (spec "create a user";
 * docs/zulip-behaviour.md "User and channel lists").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientCapabilities } from '../../server/events/queues.js';
import { insertUser, ROLE } from '../../server/model/users.js';
import { startTestServer, type TestServer } from './harness.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

function listen(who: string, capabilities: ClientCapabilities = {}, clientGravatar = false) {
  const q = t.server.state.queues.register(t.userId(who), { eventTypes: null, capabilities, applyMarkdown: true, clientGravatar, allPublicStreams: false, narrow: [] });
  return { events: () => t.server.state.queues.poll(q.id, q.userId, undefined, true) };
}

type Member = Record<string, unknown>;

describe('GET /users', () => {
  it('lists every user with the User fields, is_active included', async () => {
    const r = await t.as('hamlet').get('/users');
    expect(r.status).toBe(200);
    const members = r.json.members as Member[];
    expect(members.length).toBeGreaterThanOrEqual(7);
    expect(members.find((m) => m.user_id === t.userId('iago'))).toMatchObject({
      email: 'iago@example.com',
      delivery_email: 'iago@example.com',
      full_name: 'Iago',
      date_joined: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      is_active: true,
      is_owner: false,
      is_admin: true,
      is_guest: false,
      is_bot: false,
      role: 200,
      timezone: 'Europe/Rome',
      avatar_version: expect.any(Number),
    });
  });

  it('client_gravatar defaults to true (avatar_url null); false gives URLs', async () => {
    const a = (await t.as('hamlet').get('/users')).json.members as Member[];
    expect(a[0]!.avatar_url).toBeNull();
    const b = (await t.as('hamlet').get('/users', { client_gravatar: false })).json.members as Member[];
    expect(b[0]!.avatar_url).toEqual(expect.any(String));
  });

  it('profile_data only with include_custom_profile_fields', async () => {
    const a = (await t.as('hamlet').get('/users')).json.members as Member[];
    expect(a[0]).not.toHaveProperty('profile_data');
    const b = (await t.as('hamlet').get('/users', { include_custom_profile_fields: true })).json.members as Member[];
    expect(b[0]).toHaveProperty('profile_data', {});
  });

  it('user_ids restricts the list', async () => {
    const r = await t.as('hamlet').get('/users', { user_ids: [t.userId('iago'), t.userId('shiva')] });
    expect((r.json.members as Member[]).map((m) => m.user_id)).toEqual([t.userId('iago'), t.userId('shiva')]);
  });

  it('an unknown id in user_ids is an error', async () => {
    expect((await t.as('hamlet').get('/users', { user_ids: [9999] })).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid user ID: 9999' });
  });
});

describe('GET /users/me and /users/{user_id}', () => {
  it('GET /users/me returns the caller\'s own fields at top level with max_message_id', async () => {
    const r = await t.as('shiva').get('/users/me');
    expect(r.json).toMatchObject({ result: 'success', user_id: t.userId('shiva'), email: 'shiva@example.com', role: 300, is_active: true, avatar_url: expect.any(String), profile_data: {} });
    expect(typeof r.json.max_message_id).toBe('number');
  });

  it('GET /users/{user_id} returns one user', async () => {
    const r = await t.as('shiva').get(`/users/${t.userId('polonius')}`);
    expect(r.json.user).toMatchObject({ user_id: t.userId('polonius'), role: 600, is_guest: true });
  });

  it('GET /users/{user_id} for an unknown user is an error', async () => {
    expect((await t.as('shiva').get('/users/9999')).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'No such user' });
  });
});

describe('bot_type and bot_owner_id: only on bots (real Zulip; its /users/me schema forbids them for humans)', () => {
  let botId: number;
  beforeAll(() => {
    const bot = insertUser(t.server.state, { email: 'hamlet-bot@example.com', full_name: "Hamlet's Bot", role: ROLE.member, is_bot: true });
    t.server.state.db.prepare('UPDATE users SET bot_type = 1, bot_owner_id = ? WHERE id = ?').run(t.userId('hamlet'), bot.id);
    botId = bot.id;
  });

  it('GET /users: humans carry neither key, the bot carries both (and no profile_data)', async () => {
    const members = (await t.as('hamlet').get('/users', { include_custom_profile_fields: true })).json.members as Member[];
    const humans = members.filter((m) => m.is_bot === false);
    expect(humans.length).toBeGreaterThanOrEqual(7);
    for (const h of humans) {
      expect(h).not.toHaveProperty('bot_type');
      expect(h).not.toHaveProperty('bot_owner_id');
      expect(h).toHaveProperty('profile_data');
    }
    const bot = members.find((m) => m.user_id === botId);
    expect(bot).toMatchObject({ is_bot: true, bot_type: 1, bot_owner_id: t.userId('hamlet') });
    expect(bot).not.toHaveProperty('profile_data');
  });

  it('GET /users/me and /users/{id}: a human has no bot keys, a bot has both', async () => {
    const me = (await t.as('hamlet').get('/users/me')).json;
    expect(me).not.toHaveProperty('bot_type');
    expect(me).not.toHaveProperty('bot_owner_id');
    const botMe = (await t.as('hamlet-bot').get('/users/me')).json;
    expect(botMe).toMatchObject({ user_id: botId, is_bot: true, bot_type: 1, bot_owner_id: t.userId('hamlet') });
    const one = (await t.as('iago').get(`/users/${t.userId('othello')}`)).json.user as Member;
    expect(Object.keys(one)).not.toContain('bot_type');
    expect((await t.as('iago').get(`/users/${botId}`)).json.user).toMatchObject({ bot_type: 1, bot_owner_id: t.userId('hamlet') });
  });

  it("register's realm_users: the same rule", async () => {
    const r = (await t.as('hamlet').post('/register', { fetch_event_types: ['realm_user'] })).json;
    const users = r.realm_users as Member[];
    expect(users.find((u) => u.user_id === t.userId('iago'))).not.toHaveProperty('bot_type');
    expect(users.find((u) => u.user_id === botId)).toMatchObject({ bot_type: 1, bot_owner_id: t.userId('hamlet') });
    for (const b of r.cross_realm_bots as Member[]) expect(b).toHaveProperty('bot_type');
  });
});

describe('POST /users', () => {
  it('an administrator with can_create_users creates a member: response user_id', async () => {
    const r = await t.as('desdemona').post('/users', { email: 'viola@example.com', password: 'twelfth-night', full_name: 'Viola' });
    expect(r.status).toBe(200);
    expect(r.json.user_id).toBe(t.userId('viola'));
    const row = t.server.state.db.prepare('SELECT role, full_name, is_active FROM users WHERE id = ?').get(r.json.user_id);
    expect(row).toEqual({ role: 400, full_name: 'Viola', is_active: 1 });
  });

  it('the new user can log in with the password', async () => {
    const login = await t.raw('POST', '/fetch_api_key', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'username=viola%40example.com&password=twelfth-night' });
    expect(login.json.result).toBe('success');
  });

  it('the new user is subscribed to the default channels', async () => {
    const subs = (await t.as('viola').get('/users/me/subscriptions')).json.subscriptions as Member[];
    expect(subs.map((s) => s.name).sort()).toEqual(['Verona', 'general']);
  });

  it('realm_user op add goes to everyone', async () => {
    const l = listen('polonius');
    const r = await t.as('desdemona').post('/users', { email: 'sebastian@example.com', password: 'twelfth-night', full_name: 'Sebastian' });
    const ev = (await l.events()).find((e) => e.type === 'realm_user');
    expect(ev).toMatchObject({ op: 'add', person: { user_id: r.json.user_id, email: 'sebastian@example.com', full_name: 'Sebastian', role: 400, is_active: true } });
    expect(ev?.person).not.toHaveProperty('bot_type');
    expect(ev?.person).not.toHaveProperty('bot_owner_id');
  });

  it('a duplicate email is BAD_REQUEST "Email is already in use."', async () => {
    const r = await t.as('desdemona').post('/users', { email: 'hamlet@example.com', password: 'whatever-1', full_name: 'Another Hamlet' });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Email is already in use.' });
  });

  it('email, password and full_name are all required', async () => {
    for (const missing of ['email', 'password', 'full_name']) {
      const params: Record<string, string> = { email: 'x1@example.com', password: 'whatever-1', full_name: 'X One' };
      delete params[missing];
      expect((await t.as('desdemona').post('/users', params)).json).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: missing });
    }
  });

  it('an administrator without can_create_users is refused (iago)', async () => {
    const r = await t.as('iago').post('/users', { email: 'x2@example.com', password: 'whatever-1', full_name: 'X Two' });
    expect(r.status).toBe(400);
    expect(r.json.result).toBe('error');
    expect(t.server.state.db.prepare("SELECT 1 FROM users WHERE email = 'x2@example.com'").get()).toBeUndefined();
  });

  it('non-administrators are refused even with can_create_users', async () => {
    t.server.state.db.prepare('UPDATE users SET can_create_users = 1 WHERE id = ?').run(t.userId('hamlet'));
    const r = await t.as('hamlet').post('/users', { email: 'x3@example.com', password: 'whatever-1', full_name: 'X Three' });
    expect(r.json).toMatchObject({ code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
  });

  it('an invalid email, a bad name or a weak password is rejected', async () => {
    expect((await t.as('desdemona').post('/users', { email: 'nope', password: 'whatever-1', full_name: 'X Four' })).json.code).toBe('BAD_REQUEST');
    expect((await t.as('desdemona').post('/users', { email: 'x5@example.com', password: 'whatever-1', full_name: 'X' })).json.msg).toBe('Name too short!');
    expect((await t.as('desdemona').post('/users', { email: 'x6@example.com', password: 'abc', full_name: 'X Six' })).json.msg).toBe('The password is too weak.');
  });
});
