/**
 * User groups: GET /user_groups, PATCH /user_groups/{id}, POST …/members, POST …/deactivate (spec;
 * docs/zulip-behaviour.md "User groups").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientCapabilities } from '../../server/events/queues.js';
import { systemGroupId } from '../../server/model/groups.js';
import { startTestServer, type TestServer } from './harness.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

function listen(who: string, capabilities: ClientCapabilities = { include_deactivated_groups: true }) {
  const q = t.server.state.queues.register(t.userId(who), { eventTypes: null, capabilities, applyMarkdown: true, clientGravatar: false, allPublicStreams: false, narrow: [] });
  return { events: () => t.server.state.queues.poll(q.id, q.userId, undefined, true) };
}

const sys = (name: string) => systemGroupId(t.server.state, name);
const gid = (name: string) => t.server.state.db.prepare('SELECT id FROM user_groups WHERE name = ?').pluck().get(name) as number;

/** A user-defined group made directly in the database (the API here has no create endpoint to test). */
function makeGroup(name: string, members: string[], settings: Record<string, unknown> = {}, deactivated = false): number {
  const db = t.server.state.db;
  const admins = sys('role:administrators');
  const all = { can_add_members_group: admins, can_join_group: sys('role:members'), can_leave_group: sys('role:everyone'), can_manage_group: admins, can_mention_group: { direct_members: [], direct_subgroups: [sys('role:everyone')] }, can_remove_members_group: admins, ...settings };
  const id = Number(db.prepare('INSERT INTO user_groups (name, description, creator_id, date_created, settings, deactivated) VALUES (?, ?, ?, 0, ?, ?)').run(name, `${name} group`, t.userId('desdemona'), JSON.stringify(all), deactivated ? 1 : 0).lastInsertRowid);
  for (const m of members) db.prepare('INSERT INTO group_members (group_id, user_id) VALUES (?, ?)').run(id, t.userId(m));
  return id;
}

type Group = Record<string, unknown> & { id: number; name: string };
const groups = async (who = 'hamlet', params: Record<string, boolean> = {}) => (await t.as(who).get('/user_groups', params)).json.user_groups as Group[];

describe('GET /user_groups', () => {
  it('lists active groups (system groups included) with the UserGroup fields', async () => {
    const g = await groups();
    const players = g.find((x) => x.name === 'players');
    expect(players).toMatchObject({
      id: gid('players'),
      description: 'The cast',
      members: [t.userId('hamlet'), t.userId('othello'), t.userId('cordelia'), t.userId('polonius')].sort((a, b) => a - b),
      direct_subgroup_ids: [gid('leads')],
      is_system_group: false,
      creator_id: t.userId('desdemona'),
      date_created: expect.any(Number),
      deactivated: false,
      can_manage_group: sys('role:administrators'),
      can_mention_group: { direct_members: [], direct_subgroups: [sys('role:everyone')] },
    });
    expect(g.map((x) => x.name)).not.toContain('retired');
  });

  it('system groups have role-derived members and nest by role', async () => {
    const admins = (await groups()).find((x) => x.name === 'role:administrators');
    expect(admins).toMatchObject({ is_system_group: true, members: [t.userId('iago')], direct_subgroup_ids: [sys('role:owners')] });
  });

  it('include_deactivated_groups adds deactivated groups', async () => {
    expect((await groups('hamlet', { include_deactivated_groups: true })).find((x) => x.name === 'retired')).toMatchObject({ deactivated: true });
  });

  it('guests may not list groups', async () => {
    expect((await t.as('polonius').get('/user_groups')).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Not allowed for guest users' });
  });
});

describe('PATCH /user_groups/{user_group_id}', () => {
  it('an invalid group id is BAD_REQUEST "Invalid user group"', async () => {
    const r = await t.as('iago').patch('/user_groups/9999', { name: 'x' });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid user group' });
  });

  it('a request without data is an error', async () => {
    expect((await t.as('iago').patch(`/user_groups/${gid('players')}`, {})).json.msg).toBe('No new data supplied');
  });

  it('name and description change with user_group update events', async () => {
    const id = makeGroup('renameme', ['hamlet']);
    const l = listen('cordelia');
    const r = await t.as('iago').patch(`/user_groups/${id}`, { name: 'renamed', description: 'new words' });
    expect(r.json).toEqual({ result: 'success', msg: '' });
    expect(await l.events()).toEqual([
      { type: 'user_group', op: 'update', group_id: id, data: { name: 'renamed' }, id: 0 },
      { type: 'user_group', op: 'update', group_id: id, data: { description: 'new words' }, id: 1 },
    ]);
  });

  it('who may edit: can_manage_group, else the realm can_manage_all_groups; others get "Insufficient permission"', async () => {
    const id = makeGroup('managed', [], { can_manage_group: { direct_members: [t.userId('othello')], direct_subgroups: [] } });
    expect((await t.as('hamlet').patch(`/user_groups/${id}`, { description: 'no' })).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Insufficient permission' });
    expect((await t.as('othello').patch(`/user_groups/${id}`, { description: 'yes' })).status).toBe(200);
    expect((await t.as('desdemona').patch(`/user_groups/${id}`, { description: 'owner' })).status).toBe(200);
  });

  it('system groups cannot be edited', async () => {
    expect((await t.as('desdemona').patch(`/user_groups/${sys('role:members')}`, { description: 'x' })).json.msg).toBe('Insufficient permission');
  });

  it('group names: not empty, at most 100 characters, no reserved prefix, unique', async () => {
    const id = makeGroup('names', []);
    expect((await t.as('iago').patch(`/user_groups/${id}`, { name: ' ' })).json.msg).toBe("User group name can't be empty!");
    expect((await t.as('iago').patch(`/user_groups/${id}`, { name: 'n'.repeat(101) })).json.msg).toBe('User group name cannot exceed 100 characters.');
    expect((await t.as('iago').patch(`/user_groups/${id}`, { name: 'role:fake' })).json.msg).toBe("User group name cannot start with 'role:'.");
    expect((await t.as('iago').patch(`/user_groups/${id}`, { name: 'players' })).json.msg).toBe("User group 'players' already exists.");
  });

  it('a permission is changed by an update value {new}; the event carries the new value', async () => {
    const id = makeGroup('perm1', []);
    const l = listen('hamlet');
    const r = await t.as('iago').patch(`/user_groups/${id}`, { can_join_group: { new: sys('role:moderators') } });
    expect(r.status).toBe(200);
    expect(await l.events()).toEqual([{ type: 'user_group', op: 'update', group_id: id, data: { can_join_group: sys('role:moderators') }, id: 0 }]);
    expect((await groups()).find((g) => g.id === id)!.can_join_group).toBe(sys('role:moderators'));
  });

  it('a matching old value is accepted', async () => {
    const id = makeGroup('perm2', []);
    const r = await t.as('iago').patch(`/user_groups/${id}`, { can_leave_group: { new: sys('role:nobody'), old: sys('role:everyone') } });
    expect(r.status).toBe(200);
  });

  it('a mismatching old value is EXPECTATION_MISMATCH with field_name "old"', async () => {
    const id = makeGroup('perm3', []);
    const r = await t.as('iago').patch(`/user_groups/${id}`, { can_leave_group: { new: sys('role:nobody'), old: sys('role:members') } });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'EXPECTATION_MISMATCH', field_name: 'old' });
  });

  it('a plain group-setting value (not an update value) is rejected', async () => {
    const id = makeGroup('perm4', []);
    expect((await t.as('iago').patch(`/user_groups/${id}`, { can_join_group: sys('role:members') })).json.code).toBe('REQUEST_VARIABLE_INVALID');
  });

  it('can_manage_group cannot be role:internet or role:everyone', async () => {
    const id = makeGroup('perm5', []);
    for (const g of ['role:internet', 'role:everyone']) {
      expect((await t.as('iago').patch(`/user_groups/${id}`, { can_manage_group: { new: sys(g) } })).json.code).toBe('BAD_REQUEST');
    }
    expect((await t.as('iago').patch(`/user_groups/${id}`, { can_manage_group: { new: sys('role:members') } })).status).toBe(200);
  });

  it('can_mention_group cannot be role:internet or role:owners', async () => {
    const id = makeGroup('perm6', []);
    for (const g of ['role:internet', 'role:owners']) {
      expect((await t.as('iago').patch(`/user_groups/${id}`, { can_mention_group: { new: { direct_members: [], direct_subgroups: [sys(g)] } } })).json.code).toBe('BAD_REQUEST');
    }
  });

  it('can_mention_group accepts only the object form', async () => {
    const id = makeGroup('perm7', []);
    expect((await t.as('iago').patch(`/user_groups/${id}`, { can_mention_group: { new: sys('role:members') } })).json.code).toBe('BAD_REQUEST');
    const ok = await t.as('iago').patch(`/user_groups/${id}`, { can_mention_group: { new: { direct_members: [t.userId('hamlet')], direct_subgroups: [sys('role:members')] } } });
    expect(ok.status).toBe(200);
  });

  it('a deactivated group cannot be used in a permission value', async () => {
    const id = makeGroup('perm8', []);
    const r = await t.as('iago').patch(`/user_groups/${id}`, { can_join_group: { new: { direct_members: [], direct_subgroups: [gid('retired')] } } });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'User group is deactivated.' });
    expect((await t.as('iago').patch(`/user_groups/${id}`, { can_join_group: { new: gid('retired') } })).json.code).toBe('BAD_REQUEST');
  });

  it('a deactivated group\'s own permissions can be edited', async () => {
    const id = makeGroup('old-perm', [], {}, true);
    expect((await t.as('iago').patch(`/user_groups/${id}`, { can_join_group: { new: sys('role:nobody') } })).status).toBe(200);
  });

  it('deactivated: true does nothing', async () => {
    const id = makeGroup('stay', []);
    const l = listen('hamlet');
    expect((await t.as('iago').patch(`/user_groups/${id}`, { deactivated: true })).status).toBe(200);
    expect(t.server.state.db.prepare('SELECT deactivated FROM user_groups WHERE id = ?').pluck().get(id)).toBe(0);
    expect(await l.events()).toEqual([]);
  });

  it('deactivated: false reactivates: update {deactivated:false} with include_deactivated_groups, add otherwise', async () => {
    const id = makeGroup('back', ['othello'], {}, true);
    const capable = listen('hamlet');
    const legacy = listen('cordelia', {});
    expect((await t.as('iago').patch(`/user_groups/${id}`, { deactivated: false })).status).toBe(200);
    expect(t.server.state.db.prepare('SELECT deactivated FROM user_groups WHERE id = ?').pluck().get(id)).toBe(0);
    expect(await capable.events()).toEqual([{ type: 'user_group', op: 'update', group_id: id, data: { deactivated: false }, id: 0 }]);
    expect(await legacy.events()).toEqual([expect.objectContaining({ type: 'user_group', op: 'add', group: expect.objectContaining({ id, name: 'back', members: [t.userId('othello')], deactivated: false }) })]);
  });
});

describe('POST /user_groups/{user_group_id}/members', () => {
  it('add: members are added with an add_members event', async () => {
    const id = makeGroup('m1', []);
    const l = listen('polonius');
    expect((await t.as('iago').post(`/user_groups/${id}/members`, { add: [t.userId('hamlet'), t.userId('shiva')] })).status).toBe(200);
    expect(await l.events()).toEqual([{ type: 'user_group', op: 'add_members', group_id: id, user_ids: [t.userId('hamlet'), t.userId('shiva')], id: 0 }]);
  });

  it('delete: members are removed with a remove_members event', async () => {
    const id = makeGroup('m2', ['hamlet', 'othello']);
    const l = listen('polonius');
    expect((await t.as('iago').post(`/user_groups/${id}/members`, { delete: [t.userId('othello')] })).status).toBe(200);
    expect(await l.events()).toEqual([{ type: 'user_group', op: 'remove_members', group_id: id, user_ids: [t.userId('othello')], id: 0 }]);
  });

  it('adding an existing member or removing a non-member is an error', async () => {
    const id = makeGroup('m3', ['hamlet']);
    expect((await t.as('iago').post(`/user_groups/${id}/members`, { add: [t.userId('hamlet')] })).json.msg).toBe(`User ${t.userId('hamlet')} is already a member of this group`);
    expect((await t.as('iago').post(`/user_groups/${id}/members`, { delete: [t.userId('othello')] })).json.msg).toBe(`There is no member '${t.userId('othello')}' in this user group`);
  });

  it('user ids must be non-deactivated users', async () => {
    const id = makeGroup('m4', []);
    t.server.state.db.prepare("INSERT INTO users (email, delivery_email, full_name, role, is_active, api_key, date_joined) VALUES ('left@example.com', 'left@example.com', 'Left', 400, 0, 'k-left', 0)").run();
    const r = await t.as('iago').post(`/user_groups/${id}/members`, { add: [t.userId('left')] });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: `Invalid user ID: ${t.userId('left')}` });
  });

  it('adding others needs can_add_members_group (or can_manage_group)', async () => {
    const id = makeGroup('m5', []);
    expect((await t.as('hamlet').post(`/user_groups/${id}/members`, { add: [t.userId('othello')] })).json.msg).toBe('Insufficient permission');
    const id2 = makeGroup('m6', [], { can_add_members_group: { direct_members: [t.userId('hamlet')], direct_subgroups: [] } });
    expect((await t.as('hamlet').post(`/user_groups/${id2}/members`, { add: [t.userId('othello')] })).status).toBe(200);
  });

  it('joining yourself needs can_join_group; leaving yourself needs can_leave_group', async () => {
    const id = makeGroup('m7', [], { can_join_group: sys('role:members'), can_leave_group: sys('role:nobody') });
    expect((await t.as('cordelia').post(`/user_groups/${id}/members`, { add: [t.userId('cordelia')] })).status).toBe(200);
    expect((await t.as('cordelia').post(`/user_groups/${id}/members`, { delete: [t.userId('cordelia')] })).json.msg).toBe('Insufficient permission');
  });

  it('members of a deactivated group can be changed', async () => {
    expect((await t.as('iago').post(`/user_groups/${gid('retired')}/members`, { add: [t.userId('othello')] })).status).toBe(200);
  });

  it('system groups\' members cannot be changed', async () => {
    expect((await t.as('desdemona').post(`/user_groups/${sys('role:moderators')}/members`, { add: [t.userId('hamlet')] })).json.msg).toBe('Insufficient permission');
  });

  it('a request with nothing to do is an error', async () => {
    expect((await t.as('iago').post(`/user_groups/${gid('players')}/members`, {})).json.code).toBe('BAD_REQUEST');
  });

  it('add_subgroups and delete_subgroups with their events', async () => {
    const id = makeGroup('s1', []);
    const sub = makeGroup('s1-sub', []);
    const l = listen('hamlet');
    expect((await t.as('iago').post(`/user_groups/${id}/members`, { add_subgroups: [sub] })).status).toBe(200);
    expect((await t.as('iago').post(`/user_groups/${id}/members`, { delete_subgroups: [sub] })).status).toBe(200);
    expect(await l.events()).toEqual([
      { type: 'user_group', op: 'add_subgroups', group_id: id, direct_subgroup_ids: [sub], id: 0 },
      { type: 'user_group', op: 'remove_subgroups', group_id: id, direct_subgroup_ids: [sub], id: 1 },
    ]);
  });

  it('cycles are rejected (a group inside its own subgroup, or itself)', async () => {
    const a = makeGroup('cyc-a', []);
    const b = makeGroup('cyc-b', []);
    await t.as('iago').post(`/user_groups/${a}/members`, { add_subgroups: [b] });
    expect((await t.as('iago').post(`/user_groups/${b}/members`, { add_subgroups: [a] })).json.msg).toBe(`User group ${b} is already a subgroup of one of the passed subgroups.`);
    expect((await t.as('iago').post(`/user_groups/${a}/members`, { add_subgroups: [a] })).json.code).toBe('BAD_REQUEST');
  });

  it('subgroup errors: unknown, deactivated, already a subgroup, not a subgroup', async () => {
    const id = makeGroup('s2', []);
    const sub = makeGroup('s2-sub', []);
    await t.as('iago').post(`/user_groups/${id}/members`, { add_subgroups: [sub] });
    expect((await t.as('iago').post(`/user_groups/${id}/members`, { add_subgroups: [9999] })).json.msg).toBe('Invalid user group ID: 9999');
    expect((await t.as('iago').post(`/user_groups/${id}/members`, { add_subgroups: [gid('retired')] })).json.msg).toBe('User group is deactivated.');
    expect((await t.as('iago').post(`/user_groups/${id}/members`, { add_subgroups: [sub] })).json.msg).toBe(`User group ${sub} is already a subgroup of this group.`);
    expect((await t.as('iago').post(`/user_groups/${id}/members`, { delete_subgroups: [gid('leads')] })).json.msg).toBe(`User group ${gid('leads')} is not a subgroup of this group.`);
  });

  it('delete_subgroups needs can_manage_group (can_add_members_group is not enough)', async () => {
    const sub = makeGroup('s3-sub', []);
    const id = makeGroup('s3', [], { can_add_members_group: { direct_members: [t.userId('hamlet')], direct_subgroups: [] } });
    expect((await t.as('hamlet').post(`/user_groups/${id}/members`, { add_subgroups: [sub] })).status).toBe(200);
    expect((await t.as('hamlet').post(`/user_groups/${id}/members`, { delete_subgroups: [sub] })).json.msg).toBe('Insufficient permission');
  });

  it('an error in one part rolls back the whole request', async () => {
    const id = makeGroup('atomic', []);
    const r = await t.as('iago').post(`/user_groups/${id}/members`, { add: [t.userId('hamlet')], add_subgroups: [9999] });
    expect(r.status).toBe(400);
    expect(t.server.state.db.prepare('SELECT COUNT(*) FROM group_members WHERE group_id = ?').pluck().get(id)).toBe(0);
  });
});

describe('POST /user_groups/{user_group_id}/deactivate', () => {
  it('deactivates: update {deactivated:true} with include_deactivated_groups, remove otherwise', async () => {
    const id = makeGroup('bye', []);
    const capable = listen('hamlet');
    const legacy = listen('cordelia', {});
    expect((await t.as('iago').post(`/user_groups/${id}/deactivate`)).status).toBe(200);
    expect(await capable.events()).toEqual([{ type: 'user_group', op: 'update', group_id: id, data: { deactivated: true }, id: 0 }]);
    expect(await legacy.events()).toEqual([{ type: 'user_group', op: 'remove', group_id: id, id: 0 }]);
  });

  it('a group in use cannot be deactivated: CANNOT_DEACTIVATE_GROUP_IN_USE with objections', async () => {
    const r = await t.as('iago').post(`/user_groups/${gid('leads')}/deactivate`);
    expect(r.json).toMatchObject({ code: 'CANNOT_DEACTIVATE_GROUP_IN_USE', objections: [{ type: 'subgroup', supergroup_ids: [gid('players')] }] });
  });

  it('an already deactivated group cannot be deactivated again', async () => {
    expect((await t.as('iago').post(`/user_groups/${gid('retired')}/deactivate`)).json.msg).toBe('User group is deactivated.');
  });

  it('events about a deactivated group reach only queues with include_deactivated_groups', async () => {
    const capable = listen('hamlet');
    const legacy = listen('cordelia', {});
    await t.as('iago').patch(`/user_groups/${gid('retired')}`, { description: 'still retired' });
    expect(await capable.events()).toHaveLength(1);
    expect(await legacy.events()).toEqual([]);
  });
});
