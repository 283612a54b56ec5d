/**
 * User groups through the engine service, as the groups screen uses them: the `userGroups` query
 * (deactivated ones on request, the realm's managers of every group), subgroup changes and
 * reactivation queued offline and shown at once, then landed; deactivation online only (OFFLINE at
 * once and nothing queued; refused in the server's words while the group is in use; shown at once
 * when done).
 */
import { describe, expect, it } from 'vitest';
import type { OutboxCounts, OutboxRowView, UserGroupsView } from '../../../sync/protocol/index.js';
import { until } from '../engine/session-helpers.js';
import { proxy, serviceSuite, signedIn, signedInService, t } from './service-support.js';

serviceSuite();

interface ServerGroup {
  id: number;
  can_join_group?: unknown;
  name: string;
  deactivated: boolean;
  direct_subgroup_ids: number[];
}
const serverGroups = async () => (await t.as('iago').get('/user_groups', { include_deactivated_groups: true })).json.user_groups as ServerGroup[];
const idOf = async (name: string) => (await serverGroups()).find((g) => g.name === name)!.id;

describe('user groups through the engine service', () => {
  it('lists groups (system ones too), deactivated ones only on request, and who manages every group', async () => {
    const { svc, call } = await signedIn('iago');
    const active = (await call('userGroups', {})) as UserGroupsView;
    const names = active.groups.map((g) => g.name);
    expect(names).toEqual(expect.arrayContaining(['players', 'leads', 'role:administrators', 'role:everyone']));
    expect(names).not.toContain('retired');
    const all = (await call('userGroups', { include_deactivated: true })) as UserGroupsView;
    expect(all.groups.find((g) => g.name === 'retired')).toMatchObject({ deactivated: true, is_system_group: false });
    const owners = all.groups.find((g) => g.name === 'role:owners')!;
    expect(all.can_manage_all_groups).toBe(owners.id);
    const players = all.groups.find((g) => g.name === 'players')!;
    expect(players.can_mention_group).toEqual({ direct_members: [], direct_subgroups: [all.groups.find((g) => g.name === 'role:everyone')!.id] });
    await svc.close();
  });

  it('offline: reactivation and a subgroup change answer at once and show; back online they land', async () => {
    const { svc, client, call } = await signedIn('iago');
    const retired = await idOf('retired');
    const leads = await idOf('leads');
    const players = await idOf('players');
    await proxy.pause();
    await until(() => svc.activeSession?.status.state === 'offline', 10_000, 'offline');

    expect(await call('updateUserGroupReactivate', { user_group_id: retired })).toMatchObject({ outcome: 'added' });
    await call('updateUserGroupSubgroups', { user_group_id: leads, add: [retired] });
    const shown = (await call('userGroups', {})) as UserGroupsView;
    expect(shown.groups.find((g) => g.id === retired)?.deactivated).toBe(false);
    expect(shown.groups.find((g) => g.id === leads)?.direct_subgroup_ids).toEqual([retired]);
    expect(shown.groups.find((g) => g.id === players)?.direct_subgroup_ids).toEqual([leads]);
    const rows = (await call('outbox')) as OutboxRowView[];
    expect(rows.map((r) => [r.kind, r.target])).toEqual([
      ['update_user_group_reactivate', `user_group:${retired}`],
      ['update_user_group_subgroups', `user_group:${leads}`],
    ]);
    // A group cannot be its own subgroup; nothing to change is refused too.
    const self = await client.invoke('updateUserGroupSubgroups', { user_group_id: leads, add: [leads] });
    expect(self.ok === false && self.error.code).toBe('INVALID_REQUEST');
    const empty = await client.invoke('updateUserGroupSubgroups', { user_group_id: leads });
    expect(empty.ok === false && empty.error.code).toBe('INVALID_REQUEST');
    // Deactivation is online only: refused at once, nothing queued.
    const off = await client.invoke('deactivateUserGroup', { user_group_id: players });
    expect(off.ok === false && off.error.code).toBe('OFFLINE');
    expect(((await call('outboxCounts')) as OutboxCounts).pending).toBe(2);

    // The reactivation goes first (the subgroup add would be refused while retired is deactivated).
    await proxy.resume();
    await call('nudge', { reason: 'network' });
    await until(() => (svc.activeSession?.outbox.counts().pending ?? 1) === 0, 15_000, 'drained');
    const failed = ((await call('outbox')) as OutboxRowView[]).filter((r) => r.state === 'failed');
    if (failed.length > 0) {
      // Different groups are sent independently: a subgroup add that overtook the reactivation is retried.
      expect(failed[0]!.last_error?.message).toBe('User group is deactivated.');
      await call('outboxRetry', { outbox_id: failed[0]!.outbox_id });
      await until(() => svc.activeSession?.outbox.counts().failed === 0 && svc.activeSession.outbox.counts().pending === 0, 15_000, 'retried');
    }
    const after = await serverGroups();
    expect(after.find((g) => g.id === retired)?.deactivated).toBe(false);
    expect(after.find((g) => g.id === leads)?.direct_subgroup_ids).toEqual([retired]);
    expect(after.find((g) => g.id === players)?.direct_subgroup_ids).toEqual([leads]);
    await svc.close();
  });

  it('a permission changed offline whose `old` no longer matches is refused in the server’s words, never overwriting; Discard shows theirs', async () => {
    const { svc, call } = await signedIn('iago');
    const leads = await idOf('leads');
    const groups = (await call('userGroups', {})) as UserGroupsView;
    const id = (name: string) => groups.groups.find((g) => g.name === name)!.id;
    const seen = groups.groups.find((g) => g.id === leads)!.can_join_group;
    expect(seen).toBe(id('role:members'));
    await proxy.pause();
    await until(() => svc.activeSession?.status.state === 'offline', 10_000, 'offline');
    await call('updateUserGroup', { user_group_id: leads, permissions: { can_join_group: { new: id('role:moderators'), old: seen } } });
    expect(((await call('userGroups', {})) as UserGroupsView).groups.find((g) => g.id === leads)?.can_join_group).toBe(id('role:moderators'));
    // Meanwhile, elsewhere.
    expect((await t.as('desdemona').patch(`/user_groups/${leads}`, { can_join_group: JSON.stringify({ new: id('role:nobody') }) })).status).toBe(200);
    await proxy.resume();
    await call('nudge', { reason: 'network' });
    await until(() => svc.activeSession?.outbox.counts().failed === 1, 15_000, 'refused');
    const [row] = (await call('outbox')) as OutboxRowView[];
    expect(row).toMatchObject({ kind: 'update_user_group_permissions', state: 'failed', last_error: { code: 'EXPECTATION_MISMATCH', message: "'old' value does not match the expected value." } });
    expect((await serverGroups()).find((g) => g.id === leads)).toMatchObject({ can_join_group: id('role:nobody') });
    await call('outboxDiscard', { outbox_id: row!.outbox_id });
    await until(() => ((svc.activeSession?.queries.userGroups(false).groups.find((g) => g.id === leads)?.can_join_group) ?? 0) === id('role:nobody'), 15_000, 'theirs shown');
    await svc.close();
  });

  it('online: deactivating a group in use is refused in the server’s words; once free it is deactivated and shown at once', async () => {
    const { svc, client, call } = await signedIn('iago');
    const leads = await idOf('leads');
    const players = await idOf('players');
    const refused = await client.invoke('deactivateUserGroup', { user_group_id: leads });
    expect(refused.ok === false && refused.error).toMatchObject({
      code: 'SERVER',
      message: 'Cannot deactivate user group in use.',
      details: { code: 'CANNOT_DEACTIVATE_GROUP_IN_USE', details: { objections: [{ type: 'subgroup', supergroup_ids: [players] }] } },
    });
    expect(((await call('outboxCounts')) as OutboxCounts).pending).toBe(0);
    // Hamlet may not manage players (administrators do): the server's refusal, in its words.
    const hamlet = await signedInService(t, 'hamlet');
    const denied = await hamlet.client.invoke('deactivateUserGroup', { user_group_id: players });
    expect(denied.ok === false && denied.error).toMatchObject({ code: 'SERVER', message: 'Insufficient permission' });
    await hamlet.svc.close();
    await hamlet.proxy.close();

    expect(await call('deactivateUserGroup', { user_group_id: players })).toEqual({ ok: true });
    // At once, before any event could have been polled.
    const shown = (await call('userGroups', { include_deactivated: true })) as UserGroupsView;
    expect(shown.groups.find((g) => g.id === players)?.deactivated).toBe(true);
    expect(((await call('userGroups', {})) as UserGroupsView).groups.some((g) => g.id === players)).toBe(false);
    expect((await serverGroups()).find((g) => g.id === players)?.deactivated).toBe(true);
    // And back, queued.
    await call('updateUserGroupReactivate', { user_group_id: players });
    await until(() => (svc.activeSession?.outbox.counts().pending ?? 1) === 0, 15_000, 'landed');
    expect((await serverGroups()).find((g) => g.id === players)?.deactivated).toBe(false);
    await svc.close();
  });
});
