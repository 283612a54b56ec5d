/** User groups: membership, what the user may do (and why not), editing a group-setting value, the spec's rules, the list. */
import { describe, expect, it } from 'vitest';
import type { UserGroupView } from '../../../sync/protocol/commands.js';
import type { OutboxRowView } from '../../../sync/protocol/outbox.js';
import {
  abilities,
  byId,
  draftOf,
  editDraft,
  holds,
  isMember,
  sameValue,
  settingProblem,
  subgroupCandidates,
  systemChoices,
  valueInWords,
  valueOf,
  whoManages,
  type SettingDraft,
} from '../../../renderer/src/groups/group-rules.js';
import { groupHref, groupRows, groupsPlace, listedGroups, objectionsInWords, refusalHint } from '../../../renderer/src/groups/groups-list.js';
import { outboxRow } from '../fixtures.js';

// Users as in the demo realm: owner, administrator, moderator, three members, a guest.
const DES = 10;
const IAGO = 11;
const SHIVA = 12;
const HAMLET = 13;
const OTHELLO = 14;
const CORDELIA = 15;
const POLONIUS = 16;
const NAMES: Record<number, string> = { [DES]: 'Desdemona', [IAGO]: 'Iago', [SHIVA]: 'Shiva', [HAMLET]: 'King Hamlet', [OTHELLO]: 'Othello', [CORDELIA]: 'Cordelia', [POLONIUS]: 'Polonius' };
const namer = { user: (id: number) => NAMES[id] };

// System groups with members by role and their one subgroup, as the server describes them.
const INTERNET = 1;
const EVERYONE = 2;
const MEMBERS = 3;
const FULL = 4;
const MODS = 5;
const ADMINS = 6;
const OWNERS = 7;
const NOBODY = 8;
const PLAYERS = 20;
const LEADS = 21;
const RETIRED = 22;

function g(id: number, name: string, members: number[], subs: number[], extra: Partial<UserGroupView> = {}): UserGroupView {
  return {
    id,
    name,
    description: '',
    members,
    direct_subgroup_ids: subs,
    is_system_group: name.startsWith('role:'),
    deactivated: false,
    creator_id: null,
    date_created: null,
    can_add_members_group: ADMINS,
    can_join_group: MEMBERS,
    can_leave_group: EVERYONE,
    can_manage_group: ADMINS,
    can_mention_group: { direct_members: [], direct_subgroups: [EVERYONE] },
    can_remove_members_group: ADMINS,
    ...extra,
  };
}

const GROUPS: UserGroupView[] = [
  g(INTERNET, 'role:internet', [], [EVERYONE]),
  g(EVERYONE, 'role:everyone', [POLONIUS], [MEMBERS]),
  g(MEMBERS, 'role:members', [HAMLET, OTHELLO, CORDELIA], [FULL]),
  g(FULL, 'role:fullmembers', [HAMLET, OTHELLO, CORDELIA], [MODS]),
  g(MODS, 'role:moderators', [SHIVA], [ADMINS]),
  g(ADMINS, 'role:administrators', [IAGO], [OWNERS]),
  g(OWNERS, 'role:owners', [DES], []),
  g(NOBODY, 'role:nobody', [], []),
  g(PLAYERS, 'players', [HAMLET, OTHELLO, CORDELIA, POLONIUS], [LEADS], { description: 'The cast' }),
  g(LEADS, 'leads', [HAMLET, OTHELLO], []),
  g(RETIRED, 'retired', [POLONIUS], [], { deactivated: true }),
];
const ALL = byId(GROUPS);
const grp = (id: number) => ALL.get(id)!;

describe('membership', () => {
  it('is recursive through subgroups and system groups nest by role', () => {
    expect(isMember(ALL, HAMLET, PLAYERS)).toBe(true);
    expect(isMember(ALL, DES, ADMINS)).toBe(true); // owners ⊂ administrators
    expect(isMember(ALL, DES, EVERYONE)).toBe(true);
    expect(isMember(ALL, POLONIUS, INTERNET)).toBe(true);
    expect(isMember(ALL, POLONIUS, MEMBERS)).toBe(false);
    expect(isMember(ALL, IAGO, NOBODY)).toBe(false);
    expect(isMember(ALL, CORDELIA, LEADS)).toBe(false);
  });

  it('survives a cycle of subgroups', () => {
    const cyc = byId([g(30, 'a', [], [31]), g(31, 'b', [], [30])]);
    expect(isMember(cyc, HAMLET, 30)).toBe(false);
  });

  it('reads both forms of a value; an unknown value covers nobody', () => {
    expect(holds(ALL, HAMLET, { direct_members: [HAMLET], direct_subgroups: [] })).toBe(true);
    expect(holds(ALL, OTHELLO, { direct_members: [HAMLET], direct_subgroups: [LEADS] })).toBe(true);
    expect(holds(ALL, CORDELIA, { direct_members: [HAMLET], direct_subgroups: [LEADS] })).toBe(false);
    expect(holds(ALL, IAGO, ADMINS)).toBe(true);
    expect(holds(ALL, IAGO, null)).toBe(false);
    expect(holds(ALL, null, EVERYONE)).toBe(false);
  });
});

describe('what the user may do, and why not', () => {
  it('an administrator manages a group that administrators manage', () => {
    const a = abilities(grp(PLAYERS), { userId: IAGO, role: 200 }, OWNERS, ALL, namer);
    expect(Object.values(a).every((x) => x.ok)).toBe(true);
  });

  it('the realm’s managers of every group manage it too', () => {
    const nobodyManages = { ...grp(LEADS), can_manage_group: NOBODY, can_add_members_group: NOBODY, can_remove_members_group: NOBODY };
    const all = byId(GROUPS.map((x) => (x.id === LEADS ? nobodyManages : x)));
    expect(abilities(nobodyManages, { userId: DES, role: 100 }, OWNERS, all, namer).manage.ok).toBe(true);
    expect(abilities(nobodyManages, { userId: IAGO, role: 200 }, OWNERS, all, namer).manage.ok).toBe(false);
  });

  it('a member may not manage, add or remove others, and is told who may; joining and leaving follow their settings', () => {
    const a = abilities(grp(PLAYERS), { userId: HAMLET, role: 400 }, OWNERS, ALL, namer);
    expect(a.manage).toEqual({ ok: false, why: 'Only Administrators (and Owners, who manage every group) can manage this group.' });
    expect(a.addMembers).toEqual({ ok: false, why: 'Only Administrators (and Owners, who manage every group) can add members to this group.' });
    const mods = abilities({ ...grp(PLAYERS), can_remove_members_group: MODS }, { userId: HAMLET, role: 400 }, OWNERS, ALL, namer);
    expect(mods.removeMembers).toEqual({ ok: false, why: 'Only Moderators or those who manage it (Administrators (and Owners, who manage every group)) can remove members from this group.' });
    expect(a.removeMembers.ok).toBe(false);
    expect(a.addSubgroups.ok).toBe(false);
    expect(a.removeSubgroups.ok).toBe(false);
    expect(a.join.ok).toBe(true); // role:members may join
    expect(a.leave.ok).toBe(true); // role:everyone may leave
    const closed = { ...grp(PLAYERS), can_leave_group: NOBODY, can_join_group: { direct_members: [CORDELIA], direct_subgroups: [] } };
    const b = abilities(closed, { userId: HAMLET, role: 400 }, OWNERS, ALL, namer);
    expect(b.leave).toEqual({ ok: false, why: 'Nobody can leave this group.' });
    expect(b.join).toEqual({ ok: false, why: 'Only Cordelia can join this group.' });
  });

  it('a direct member of can_manage_group manages; can_add_members_group alone adds but does not manage', () => {
    const grant = { ...grp(LEADS), can_manage_group: { direct_members: [HAMLET], direct_subgroups: [ADMINS] }, can_add_members_group: { direct_members: [CORDELIA], direct_subgroups: [] } };
    expect(abilities(grant, { userId: HAMLET, role: 400 }, OWNERS, ALL, namer).manage.ok).toBe(true);
    const c = abilities(grant, { userId: CORDELIA, role: 400 }, OWNERS, ALL, namer);
    expect([c.manage.ok, c.addMembers.ok, c.addSubgroups.ok, c.removeMembers.ok, c.removeSubgroups.ok]).toEqual([false, true, true, false, false]);
  });

  it('guests change nothing; system groups are nobody’s to change', () => {
    const guest = abilities(grp(PLAYERS), { userId: POLONIUS, role: 600 }, EVERYONE, ALL, namer);
    expect(Object.values(guest).map((x) => x.ok)).toEqual([false, false, false, false, false, false, false]);
    expect(guest.leave).toEqual({ ok: false, why: 'Guests cannot change user groups.' });
    const sys = abilities(grp(MEMBERS), { userId: DES, role: 100 }, OWNERS, ALL, namer);
    expect(sys.manage.ok).toBe(false);
  });

  it('says who manages in words, once when both are the same', () => {
    expect(whoManages(grp(PLAYERS), ADMINS, ALL, namer)).toBe('Administrators');
    const custom = { ...grp(PLAYERS), can_manage_group: { direct_members: [HAMLET], direct_subgroups: [LEADS] } };
    expect(whoManages(custom, OWNERS, ALL, namer)).toBe('leads, King Hamlet (and Owners, who manage every group)');
    expect(valueInWords({ direct_members: [], direct_subgroups: [] }, ALL, namer)).toBe('Nobody');
    expect(valueInWords(999, ALL, namer)).toBe('group 999');
  });
});

describe('editing a group-setting value', () => {
  it('starts from the stored value: a system group (either form) or specific users and groups', () => {
    expect(draftOf(ADMINS, ALL)).toEqual({ mode: 'system', group: ADMINS });
    expect(draftOf({ direct_members: [], direct_subgroups: [EVERYONE] }, ALL)).toEqual({ mode: 'system', group: EVERYONE });
    expect(draftOf(LEADS, ALL)).toEqual({ mode: 'custom', users: [], groups: [LEADS] });
    expect(draftOf({ direct_members: [HAMLET], direct_subgroups: [LEADS] }, ALL)).toEqual({ mode: 'custom', users: [HAMLET], groups: [LEADS] });
    expect(draftOf(null, ALL)).toEqual({ mode: 'custom', users: [], groups: [] });
  });

  it('switches to specific users and groups keeping the system group, adds and removes once each', () => {
    let d: SettingDraft = { mode: 'system', group: ADMINS };
    d = editDraft(d, { type: 'custom' });
    expect(d).toEqual({ mode: 'custom', users: [], groups: [ADMINS] });
    d = editDraft(d, { type: 'add_user', id: HAMLET });
    d = editDraft(d, { type: 'add_user', id: HAMLET });
    d = editDraft(d, { type: 'add_group', id: LEADS });
    d = editDraft(d, { type: 'remove_group', id: ADMINS });
    expect(d).toEqual({ mode: 'custom', users: [HAMLET], groups: [LEADS] });
    expect(editDraft(d, { type: 'remove_user', id: HAMLET })).toEqual({ mode: 'custom', users: [], groups: [LEADS] });
    expect(editDraft(d, { type: 'system', group: MODS })).toEqual({ mode: 'system', group: MODS });
    // Adding to a system choice starts a custom set from nothing but the addition.
    expect(editDraft({ mode: 'system', group: ADMINS }, { type: 'add_user', id: OTHELLO })).toEqual({ mode: 'custom', users: [OTHELLO], groups: [] });
  });

  it('sends the id, or the object form where the server takes only that (can_mention_group), sorted', () => {
    expect(valueOf({ mode: 'system', group: ADMINS }, 'can_manage_group')).toBe(ADMINS);
    expect(valueOf({ mode: 'system', group: EVERYONE }, 'can_mention_group')).toEqual({ direct_members: [], direct_subgroups: [EVERYONE] });
    expect(valueOf({ mode: 'custom', users: [OTHELLO, HAMLET, HAMLET], groups: [LEADS] }, 'can_join_group')).toEqual({ direct_members: [HAMLET, OTHELLO], direct_subgroups: [LEADS] });
  });

  it('compares values as permissions', () => {
    expect(sameValue(ADMINS, { direct_members: [], direct_subgroups: [ADMINS] })).toBe(true);
    expect(sameValue({ direct_members: [2, 1], direct_subgroups: [] }, { direct_members: [1, 2], direct_subgroups: [] })).toBe(true);
    expect(sameValue(ADMINS, MODS)).toBe(false);
    expect(sameValue({ direct_members: [1], direct_subgroups: [] }, { direct_members: [], direct_subgroups: [1] })).toBe(false);
  });
});

describe('the spec’s rules for a setting', () => {
  it('can_manage_group: never role:internet or role:everyone', () => {
    expect(settingProblem('can_manage_group', EVERYONE, ALL)).toBe('Who can administer this group: cannot be Everyone including guests.');
    expect(settingProblem('can_manage_group', { direct_members: [], direct_subgroups: [INTERNET] }, ALL)).toBe('Who can administer this group: cannot be Everyone on the internet.');
    expect(settingProblem('can_manage_group', MEMBERS, ALL)).toBeNull();
  });

  it('can_mention_group: never role:internet or role:owners, and only the object form', () => {
    expect(settingProblem('can_mention_group', { direct_members: [], direct_subgroups: [OWNERS] }, ALL)).toBe('Who can mention this group: cannot be Owners.');
    expect(settingProblem('can_mention_group', MEMBERS, ALL)).toBe('Who can mention this group: the server takes only specific users and groups here.');
    expect(settingProblem('can_mention_group', { direct_members: [HAMLET], direct_subgroups: [EVERYONE] }, ALL)).toBeNull();
    expect(settingProblem('can_manage_group', OWNERS, ALL)).toBeNull();
  });

  it('no setting names role:internet, a deactivated group or an unknown one', () => {
    expect(settingProblem('can_join_group', INTERNET, ALL)).toBe('Who can join this group: cannot be Everyone on the internet.');
    expect(settingProblem('can_join_group', { direct_members: [], direct_subgroups: [RETIRED] }, ALL)).toBe('“retired” is deactivated: reactivate it before using it in a permission.');
    expect(settingProblem('can_leave_group', 77, ALL)).toBe('Group 77 is not known here.');
    expect(settingProblem('can_leave_group', { direct_members: [], direct_subgroups: [] }, ALL)).toBeNull();
  });

  it('offers the system groups widest first, the forbidden ones marked', () => {
    const c = systemChoices('can_manage_group', [...GROUPS].reverse());
    expect(c.map((x) => [x.label, x.allowed])).toEqual([
      ['Everyone on the internet', false],
      ['Everyone including guests', false],
      ['Everyone except guests', true],
      ['Full members', true],
      ['Moderators', true],
      ['Administrators', true],
      ['Owners', true],
      ['Nobody', true],
    ]);
    expect(systemChoices('can_mention_group', GROUPS).filter((x) => !x.allowed).map((x) => x.group.name)).toEqual(['role:internet', 'role:owners']);
  });
});

describe('subgroups', () => {
  it('offers named, active groups that are not in yet and make no cycle', () => {
    const fresh = g(23, 'understudies', [CORDELIA], []);
    const all = byId([...GROUPS, fresh]);
    expect(subgroupCandidates(grp(LEADS), all).map((x) => x.name)).toEqual(['understudies']); // players holds leads: a cycle
    expect(subgroupCandidates(grp(PLAYERS), all).map((x) => x.name)).toEqual(['understudies']); // leads is in already
    expect(subgroupCandidates(fresh, all).map((x) => x.name)).toEqual(['players', 'leads']);
  });
});

describe('the #groups places and list', () => {
  it('reads Zulip web’s fragments', () => {
    expect(groupsPlace([])).toEqual({ kind: 'list', tab: 'your' });
    expect(groupsPlace(['your'])).toEqual({ kind: 'list', tab: 'your' });
    expect(groupsPlace(['all'])).toEqual({ kind: 'list', tab: 'all' });
    expect(groupsPlace(['20', 'players', 'general'])).toEqual({ kind: 'group', id: 20 });
    expect(groupHref({ id: 20, name: 'the cast' })).toBe('#groups/20/the.20cast');
  });

  it('lists named groups by name: the user’s own (through subgroups too) or all, deactivated ones on request', () => {
    expect(listedGroups(GROUPS, ALL, 'all', IAGO, false).map((x) => x.name)).toEqual(['leads', 'players']);
    expect(listedGroups(GROUPS, ALL, 'all', IAGO, true).map((x) => x.name)).toEqual(['leads', 'players', 'retired']);
    expect(listedGroups(GROUPS, ALL, 'your', CORDELIA, false).map((x) => x.name)).toEqual(['players']);
    expect(listedGroups(GROUPS, ALL, 'your', POLONIUS, true).map((x) => x.name)).toEqual(['players', 'retired']);
    expect(listedGroups(GROUPS, ALL, 'your', null, true)).toEqual([]);
  });

  it('finds a group’s unfinished changes', () => {
    const row = (id: number, target: string, state: OutboxRowView['state']): OutboxRowView => outboxRow({ outbox_id: id, kind: 'update_user_group', target, state });
    const rows = [row(1, 'user_group:20', 'queued'), row(2, 'user_group:20', 'done'), row(3, 'user_group:21', 'failed'), row(4, 'user_group:20', 'failed'), row(5, 'user_group:200', 'queued')];
    expect(groupRows(rows, 20).map((r) => r.outbox_id)).toEqual([1, 4]);
  });

  it('explains a refused compare-and-swap; other refusals stand in the server’s words alone', () => {
    const err = (code: string | null) => ({ last_error: { kind: 'api', code, message: 'x', details: null } });
    expect(refusalHint(err('EXPECTATION_MISMATCH'))).toMatch(/^Someone changed this setting elsewhere/);
    expect(refusalHint(err('BAD_REQUEST'))).toBeNull();
    expect(refusalHint({ last_error: null })).toBeNull();
  });

  it('says what stops a deactivation, from the server’s objections', () => {
    const details = { kind: 'api', code: 'CANNOT_DEACTIVATE_GROUP_IN_USE', details: { objections: [{ type: 'subgroup', supergroup_ids: [20] }, { type: 'realm', settings: ['can_create_groups'] }, { type: 'channel', channel_id: 3, settings: ['can_send_message_group'] }] } };
    expect(objectionsInWords(details, (id) => (id === 20 ? 'players' : `group ${id}`))).toEqual([
      'It is a subgroup of players.',
      'The organization’s settings use it: can_create_groups.',
      'Channel 3 uses it: can_send_message_group.',
    ]);
    expect(objectionsInWords(undefined, String)).toEqual([]);
  });
});
