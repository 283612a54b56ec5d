/**
 * `unsubscribe` and `update_user_group_permissions` end to end against the reference server
 * (acting as iago), with lost answers verified by reading and the permission change's `old`
 * value checked by the server (compare-and-swap: a stale one fails, it never overwrites).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sameSetting } from '../../../sync/outbox/mutations/user-group-permissions.js';
import { kindOf, personalEnv, type Env } from './outbox-env.js';

let env: Env;
beforeEach(async () => {
  env = await personalEnv();
});
afterEach(async () => {
  await env.close();
});

async function subscribedNames(): Promise<string[]> {
  return ((await env.t.as('iago').get('/users/me/subscriptions')).json.subscriptions as Array<{ name: string }>).map((s) => s.name);
}

interface Group {
  id: number;
  name: string;
  can_join_group: number | { direct_members: number[]; direct_subgroups: number[] };
}
async function groupNamed(name: string): Promise<Group> {
  const g = ((await env.t.as('iago').get('/user_groups')).json.user_groups as Group[]).find((x) => x.name === name);
  if (!g) throw new Error(`no group ${name}`);
  return g;
}

describe('unsubscribe', () => {
  it('unsubscribes by name; a dropped answer is verified, and a repeat merges into the queued row', async () => {
    expect(await subscribedNames()).toContain('Scotland');
    env.proxy.rule({ method: 'DELETE', path: /^\/api\/v1\/users\/me\/subscriptions/ }, { kind: 'drop' }, 1);
    const kind = kindOf(env.store, 'unsubscribe');
    env.store.enqueue(kind, { subscriptions: ['Scotland'] }, null);
    expect(env.store.enqueue(kind, { subscriptions: ['scotland'] }, null).outcome).toBe('merged');
    await env.drain();
    expect(env.proxy.counts.drop).toBe(1);
    expect(env.requests(/^DELETE \/api\/v1\/users\/me\/subscriptions/)).toBe(1);
    expect(env.store.all().map((r) => r.state)).toEqual(['done']);
    expect(await subscribedNames()).not.toContain('Scotland');
  });

  it('subscribe then unsubscribe of the same channel keep their order (one entity)', async () => {
    env.store.enqueue(kindOf(env.store, 'subscribe'), { subscriptions: [{ name: 'outbox brand new' }] }, null);
    env.store.enqueue(kindOf(env.store, 'unsubscribe'), { subscriptions: ['outbox brand new'] }, null);
    expect(new Set(env.store.all().map((r) => r.entityKey)).size).toBe(1);
    await env.drain();
    expect(env.store.all().map((r) => r.state)).toEqual(['done', 'done']);
    expect(await subscribedNames()).not.toContain('outbox brand new');
  });
});

describe('update_user_group_permissions', () => {
  it('changes a permission with {new, old}; a lost answer is verified; a stale old fails without overwriting', async () => {
    const leads = await groupNamed('leads');
    const moderators = await groupNamed('role:moderators');
    const admins = await groupNamed('role:administrators');
    const before = leads.can_join_group;
    expect([moderators.id, admins.id]).not.toContain(before);
    const kind = kindOf(env.store, 'update_user_group_permissions');
    env.proxy.rule({ method: 'PATCH', path: /^\/api\/v1\/user_groups\// }, { kind: 'drop' }, 1);
    env.store.enqueue(kind, { user_group_id: leads.id, settings: { can_join_group: { new: moderators.id, old: before } } }, null);
    // Queued changes merge: the last new wins, the first old (what the user saw) stays.
    expect(env.store.enqueue(kind, { user_group_id: leads.id, settings: { can_join_group: { new: admins.id, old: moderators.id } } }, null).outcome).toBe('merged');
    expect(env.store.all()[0]?.args).toEqual({ user_group_id: leads.id, settings: { can_join_group: { new: admins.id, old: before } } });
    await env.drain();
    expect(env.proxy.counts.drop).toBe(1);
    expect(env.requests(/^PATCH \/api\/v1\/user_groups\//)).toBe(1);
    expect(env.store.all().map((r) => r.state)).toEqual(['done']);
    expect(sameSetting((await groupNamed('leads')).can_join_group, admins.id)).toBe(true);

    // Changed meanwhile (by us, just now): a change made from the older view no longer matches.
    const stale = env.store.enqueue(kind, { user_group_id: leads.id, settings: { can_join_group: { new: moderators.id, old: before } } }, null);
    await env.drain();
    expect(env.store.get(stale.id)).toMatchObject({ state: 'failed', lastError: { code: 'EXPECTATION_MISMATCH' } });
    expect(sameSetting((await groupNamed('leads')).can_join_group, admins.id)).toBe(true);
  });

  it('a lone subgroup and its group id are the same permission', () => {
    expect(sameSetting(7, { direct_members: [], direct_subgroups: [7] })).toBe(true);
    expect(sameSetting({ direct_members: [2, 1], direct_subgroups: [] }, { direct_members: [1, 2], direct_subgroups: [] })).toBe(true);
    expect(sameSetting(7, { direct_members: [1], direct_subgroups: [7] })).toBe(false);
  });
});
