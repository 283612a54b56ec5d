/** update_user_group and update_user_group_members end to end against the reference server. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { kindOf, personalEnv, type Env } from './outbox-env.js';

let env: Env;
beforeEach(async () => {
  env = await personalEnv();
});
afterEach(async () => {
  await env.close();
});

interface Group {
  id: number;
  name: string;
  description: string;
  members: number[];
}
async function group(name: string): Promise<Group> {
  const all = (await env.t.as('iago').get('/user_groups')).json.user_groups as Group[];
  const g = all.find((x) => x.name === name);
  if (!g) throw new Error(`no group ${name}`);
  return g;
}
async function groupById(id: number): Promise<Group | undefined> {
  return ((await env.t.as('iago').get('/user_groups')).json.user_groups as Group[]).find((x) => x.id === id);
}

describe('update_user_group', () => {
  it('queued updates merge into one request, last value per field', async () => {
    const g = await group('leads');
    env.store.enqueue(kindOf(env.store, 'update_user_group'), { user_group_id: g.id, name: 'leaders' }, null);
    env.store.enqueue(kindOf(env.store, 'update_user_group'), { user_group_id: g.id, description: 'who leads' }, null);
    env.store.enqueue(kindOf(env.store, 'update_user_group'), { user_group_id: g.id, name: 'the leads' }, null);
    await env.drain();
    expect(env.store.all().map((r) => r.state)).toEqual(['done']);
    expect(env.requests(/^PATCH \/api\/v1\/user_groups\//)).toBe(1);
    expect(await groupById(g.id)).toMatchObject({ name: 'the leads', description: 'who leads' });
  });
});

describe('update_user_group_members', () => {
  it('adds and removes members; opposite queued changes cancel; a lost answer is verified', async () => {
    const g = await group('leads');
    const cordelia = env.t.userId('cordelia');
    const hamlet = env.t.userId('hamlet');
    expect(g.members).not.toContain(cordelia);
    expect(g.members).toContain(hamlet);
    // Add then remove the same user while queued: nothing to send at all.
    env.store.enqueue(kindOf(env.store, 'update_user_group_members'), { user_group_id: g.id, add: [cordelia] }, null);
    expect(env.store.enqueue(kindOf(env.store, 'update_user_group_members'), { user_group_id: g.id, delete: [cordelia] }, null).outcome).toBe('cancelled');
    await env.drain();
    expect(env.proxy.log).toHaveLength(0);

    env.proxy.rule({ method: 'POST', path: /^\/api\/v1\/user_groups\/\d+\/members/ }, { kind: 'drop' }, 1);
    env.store.enqueue(kindOf(env.store, 'update_user_group_members'), { user_group_id: g.id, add: [cordelia] }, null);
    env.store.enqueue(kindOf(env.store, 'update_user_group_members'), { user_group_id: g.id, delete: [hamlet] }, null);
    await env.drain();
    expect(env.proxy.counts.drop).toBe(1);
    expect(env.requests(/^POST \/api\/v1\/user_groups\/\d+\/members/)).toBe(1);
    expect(env.store.all().map((r) => r.state)).toEqual(['discarded', 'done']);
    const after = await groupById(g.id);
    expect(after?.members).toContain(cordelia);
    expect(after?.members).not.toContain(hamlet);
  });
});

interface FullGroup extends Group {
  direct_subgroup_ids: number[];
  deactivated: boolean;
}
async function allGroups(): Promise<FullGroup[]> {
  return (await env.t.as('iago').get('/user_groups', { include_deactivated_groups: true })).json.user_groups as FullGroup[];
}

describe('update_user_group_subgroups', () => {
  it('opposite queued changes cancel; a removal and an addition go in one request; a lost answer is verified', async () => {
    const groups = await allGroups();
    const players = groups.find((g) => g.name === 'players')!;
    const leads = groups.find((g) => g.name === 'leads')!;
    expect(players.direct_subgroup_ids).toEqual([leads.id]);
    env.store.enqueue(kindOf(env.store, 'update_user_group_subgroups'), { user_group_id: players.id, delete: [leads.id] }, null);
    expect(env.store.enqueue(kindOf(env.store, 'update_user_group_subgroups'), { user_group_id: players.id, add: [leads.id] }, null).outcome).toBe('cancelled');
    await env.drain();
    expect(env.proxy.log).toHaveLength(0);

    // The answer is lost after the server removed it: verified by reading, not sent again.
    env.proxy.rule({ method: 'POST', path: /^\/api\/v1\/user_groups\/\d+\/members/ }, { kind: 'drop' }, 1);
    env.store.enqueue(kindOf(env.store, 'update_user_group_subgroups'), { user_group_id: players.id, delete: [leads.id] }, null);
    await env.drain();
    expect(env.proxy.counts.drop).toBe(1);
    expect(env.store.all().map((r) => r.state)).toEqual(['discarded', 'done']);
    expect((await allGroups()).find((g) => g.id === players.id)?.direct_subgroup_ids).toEqual([]);
  });

  it('a group is never its own subgroup (refused before it is queued)', () => {
    expect(() => env.store.enqueue(kindOf(env.store, 'update_user_group_subgroups'), { user_group_id: 5, add: [5] }, null)).toThrow(/own subgroup/);
  });
});

describe('update_user_group_reactivate', () => {
  it('reactivates with PATCH deactivated=false; a lost answer is verified by reading the deactivated groups too', async () => {
    const retired = (await allGroups()).find((g) => g.name === 'retired')!;
    expect(retired.deactivated).toBe(true);
    env.proxy.rule({ method: 'PATCH', path: /^\/api\/v1\/user_groups\/\d+$/ }, { kind: 'drop' }, 1);
    env.store.enqueue(kindOf(env.store, 'update_user_group_reactivate'), { user_group_id: retired.id }, null);
    expect(env.store.enqueue(kindOf(env.store, 'update_user_group_reactivate'), { user_group_id: retired.id }, null).outcome).toBe('merged');
    await env.drain();
    expect(env.proxy.counts.drop).toBe(1);
    expect(env.requests(/^PATCH \/api\/v1\/user_groups\//)).toBe(1);
    expect(env.store.all().map((r) => r.state)).toEqual(['done']);
    expect((await allGroups()).find((g) => g.id === retired.id)?.deactivated).toBe(false);
  });
});
