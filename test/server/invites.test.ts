/** POST /invites (spec "send invitations", Errors table, Limits) and the "Invitation accepted" transition. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { atomically } from '../../server/events/emit.js';
import { systemGroupId } from '../../server/model/groups.js';
import { acceptInvitation, type InviteRow } from '../../server/model/invites.js';
import { setRealmSettings } from '../../server/model/realm.js';
import { startTestServer, type TestServer } from './harness.js';
import { openQueue } from './messages-util.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** A queue of `who`'s events, registered without client capabilities. */
const listen = (who: string) => openQueue(t, who, { capabilities: {} });

const db = () => t.server.state.db;
const invite = (email: string) => db().prepare('SELECT * FROM invites WHERE email = ? ORDER BY id DESC').get(email) as InviteRow | undefined;
const chId = (name: string) => db().prepare('SELECT id FROM channels WHERE name = ?').pluck().get(name) as number;
const gid = (name: string) => db().prepare('SELECT id FROM user_groups WHERE name = ?').pluck().get(name) as number;

describe('POST /invites', () => {
  it('invites addresses separated by commas or newlines (Name <addr> accepted); empty success', async () => {
    const r = await t.as('hamlet').post('/invites', { invitee_emails: 'a1@example.com, a2@example.com\nViola <a3@example.com>', stream_ids: [] });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ result: 'success', msg: '' });
    for (const e of ['a1@example.com', 'a2@example.com', 'a3@example.com']) expect(invite(e)).toMatchObject({ inviter_id: t.userId('hamlet') });
  });

  it('defaults: invite_as member (400), expiry 14400 minutes, notify_referrer_on_join true, no default subscriptions', async () => {
    await t.as('hamlet').post('/invites', { invitee_emails: 'd1@example.com', stream_ids: [] });
    const inv = invite('d1@example.com')!;
    expect(inv).toMatchObject({ invite_as: 400, notify_referrer_on_join: 1, include_realm_default_subscriptions: 0, welcome_message_custom_text: null });
    expect(inv.expires_at! - inv.created_at).toBe(14400 * 60);
  });

  it('invite_expires_in_minutes null means never', async () => {
    await t.as('hamlet').post('/invites', { invitee_emails: 'd2@example.com', stream_ids: [], invite_expires_in_minutes: null });
    expect(invite('d2@example.com')!.expires_at).toBeNull();
  });

  it('invite_expires_in_minutes sets the expiry', async () => {
    await t.as('hamlet').post('/invites', { invitee_emails: 'd3@example.com', stream_ids: [], invite_expires_in_minutes: 60 });
    const inv = invite('d3@example.com')!;
    expect(inv.expires_at! - inv.created_at).toBe(3600);
  });

  it('no email address: "You must specify at least one email address."', async () => {
    expect((await t.as('hamlet').post('/invites', { invitee_emails: '', stream_ids: [] })).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'You must specify at least one email address.' });
  });

  it('stream_ids is required (may be empty)', async () => {
    expect((await t.as('hamlet').post('/invites', { invitee_emails: 'x@example.com' })).json).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'stream_ids' });
  });

  it('an invalid channel id: "Invalid channel ID 11. No invites were sent."', async () => {
    const r = await t.as('hamlet').post('/invites', { invitee_emails: 'x1@example.com', stream_ids: [11] });
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID 11. No invites were sent.' });
    expect(invite('x1@example.com')).toBeUndefined();
  });

  it('a private channel the inviter cannot access counts as an invalid channel id', async () => {
    const r = await t.as('othello').post('/invites', { invitee_emails: 'x2@example.com', stream_ids: [chId('core team')] });
    expect(r.json.msg).toBe(`Invalid channel ID ${chId('core team')}. No invites were sent.`);
  });

  it('stream_ids are stored; default channels are allowed even without permission to subscribe others', async () => {
    setRealmSettings(t.server.state, { can_add_subscribers_group: systemGroupId(t.server.state, 'role:administrators') });
    try {
      expect((await t.as('hamlet').post('/invites', { invitee_emails: 'x3@example.com', stream_ids: [chId('Verona')] })).status).toBe(200);
      const r = await t.as('hamlet').post('/invites', { invitee_emails: 'x4@example.com', stream_ids: [chId('Denmark')] });
      expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'You do not have permission to subscribe other users to channels.' });
      expect((await t.as('hamlet').post('/invites', { invitee_emails: 'x5@example.com', stream_ids: [], include_realm_default_subscriptions: true })).status).toBe(200);
    } finally {
      setRealmSettings(t.server.state, { can_add_subscribers_group: systemGroupId(t.server.state, 'role:members') });
    }
    expect(JSON.parse(invite('x3@example.com')!.stream_ids)).toEqual([chId('Verona')]);
    expect(invite('x5@example.com')!.include_realm_default_subscriptions).toBe(1);
  });

  it('group_ids need permission to add members to each group', async () => {
    expect((await t.as('hamlet').post('/invites', { invitee_emails: 'g1@example.com', stream_ids: [], group_ids: [gid('players')] })).json.msg).toBe('Insufficient permission');
    expect((await t.as('iago').post('/invites', { invitee_emails: 'g2@example.com', stream_ids: [], group_ids: [gid('players')] })).status).toBe(200);
    expect(JSON.parse(invite('g2@example.com')!.group_ids)).toEqual([gid('players')]);
    expect((await t.as('iago').post('/invites', { invitee_emails: 'g3@example.com', stream_ids: [], group_ids: [9999] })).json.msg).toBe('Invalid user group');
  });

  it('invite_as: an administrator cannot invite owners; non-administrators cannot invite moderators or above', async () => {
    expect((await t.as('iago').post('/invites', { invitee_emails: 'r1@example.com', stream_ids: [], invite_as: 100 })).json).toMatchObject({ code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' });
    expect((await t.as('iago').post('/invites', { invitee_emails: 'r2@example.com', stream_ids: [], invite_as: 200 })).status).toBe(200);
    expect((await t.as('desdemona').post('/invites', { invitee_emails: 'r3@example.com', stream_ids: [], invite_as: 100 })).status).toBe(200);
    expect((await t.as('shiva').post('/invites', { invitee_emails: 'r4@example.com', stream_ids: [], invite_as: 300 })).json.code).toBe('BAD_REQUEST');
    expect((await t.as('hamlet').post('/invites', { invitee_emails: 'r5@example.com', stream_ids: [], invite_as: 600 })).status).toBe(200);
    expect(invite('r5@example.com')!.invite_as).toBe(600);
  });

  it('invite_as must be one of 100, 200, 300, 400, 600', async () => {
    expect((await t.as('desdemona').post('/invites', { invitee_emails: 'r6@example.com', stream_ids: [], invite_as: 500 })).json.code).toBe('REQUEST_VARIABLE_INVALID');
  });

  it('permission: can_invite_users_group, and never guests ("Insufficient permission")', async () => {
    expect((await t.as('polonius').post('/invites', { invitee_emails: 'p1@example.com', stream_ids: [] })).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Insufficient permission' });
    setRealmSettings(t.server.state, { can_invite_users_group: systemGroupId(t.server.state, 'role:administrators') });
    try {
      expect((await t.as('hamlet').post('/invites', { invitee_emails: 'p2@example.com', stream_ids: [] })).json.msg).toBe('Insufficient permission');
    } finally {
      setRealmSettings(t.server.state, { can_invite_users_group: systemGroupId(t.server.state, 'role:members') });
    }
  });

  it('welcome_message_custom_text is stored for administrators, null for others', async () => {
    await t.as('iago').post('/invites', { invitee_emails: 'w1@example.com', stream_ids: [], welcome_message_custom_text: 'Welcome!' });
    await t.as('hamlet').post('/invites', { invitee_emails: 'w2@example.com', stream_ids: [], welcome_message_custom_text: 'Hi!' });
    expect(invite('w1@example.com')!.welcome_message_custom_text).toBe('Welcome!');
    expect(invite('w2@example.com')!.welcome_message_custom_text).toBeNull();
  });

  it('welcome_message_custom_text is limited to 8000 characters', async () => {
    expect((await t.as('iago').post('/invites', { invitee_emails: 'w3@example.com', stream_ids: [], welcome_message_custom_text: 'w'.repeat(8001) })).json.code).toBe('REQUEST_VARIABLE_INVALID');
    expect((await t.as('iago').post('/invites', { invitee_emails: 'w4@example.com', stream_ids: [], welcome_message_custom_text: 'w'.repeat(8000) })).status).toBe(200);
  });

  it('addresses with accounts: INVITATION_FAILED, errors triples, sent_invitations true when others were invited', async () => {
    const r = await t.as('hamlet').post('/invites', { invitee_emails: 'othello@example.com, fresh@example.com', stream_ids: [] });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({
      code: 'INVITATION_FAILED',
      errors: [['othello@example.com', 'Already has an account.', false]],
      sent_invitations: true,
      license_limit_reached: false,
      daily_limit_reached: false,
    });
    expect(invite('fresh@example.com')).toBeDefined();
  });

  it('only addresses with accounts: INVITATION_FAILED with sent_invitations false', async () => {
    const r = await t.as('hamlet').post('/invites', { invitee_emails: 'othello@example.com', stream_ids: [] });
    expect(r.json).toMatchObject({ code: 'INVITATION_FAILED', sent_invitations: false, errors: [['othello@example.com', 'Already has an account.', false]] });
  });

  it('an invalid address: INVITATION_FAILED, nothing sent', async () => {
    const r = await t.as('hamlet').post('/invites', { invitee_emails: 'not-an-email, ok1@example.com', stream_ids: [] });
    expect(r.json).toMatchObject({ code: 'INVITATION_FAILED', sent_invitations: false, errors: [['not-an-email', 'Invalid address.', false]] });
    expect(invite('ok1@example.com')).toBeUndefined();
  });

  it('invites_changed goes to administrators and the inviter', async () => {
    const admin = listen('iago');
    const inviter = listen('cordelia');
    const other = listen('othello');
    await t.as('cordelia').post('/invites', { invitee_emails: 'ev@example.com', stream_ids: [] });
    expect(await admin.events()).toEqual([{ type: 'invites_changed', id: 0 }]);
    expect(await inviter.events()).toEqual([{ type: 'invites_changed', id: 0 }]);
    expect(await other.events()).toEqual([]);
  });
});

describe('POST /invites: limits', () => {
  it('the daily limit: INVITATION_FAILED with daily_limit_reached, nothing sent', async () => {
    const s = await startTestServer({ config: { inviteDailyLimit: 2 } });
    try {
      expect((await s.as('hamlet').post('/invites', { invitee_emails: 'l1@example.com', stream_ids: [] })).status).toBe(200);
      const r = await s.as('hamlet').post('/invites', { invitee_emails: 'l2@example.com, l3@example.com', stream_ids: [] });
      expect(r.json).toMatchObject({ code: 'INVITATION_FAILED', daily_limit_reached: true, license_limit_reached: false, sent_invitations: false, errors: [] });
      s.clock.advance(86_400_000 + 1000);
      expect((await s.as('hamlet').post('/invites', { invitee_emails: 'l2@example.com, l3@example.com', stream_ids: [] })).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('the license limit: INVITATION_FAILED with license_limit_reached, nothing sent', async () => {
    const s = await startTestServer({ config: { licenseLimit: 8 } });
    try {
      const r = await s.as('hamlet').post('/invites', { invitee_emails: 'm1@example.com, m2@example.com', stream_ids: [] });
      expect(r.json).toMatchObject({ code: 'INVITATION_FAILED', license_limit_reached: true, daily_limit_reached: false, sent_invitations: false });
      expect(s.server.state.db.prepare('SELECT COUNT(*) FROM invites').pluck().get()).toBe(0);
      expect((await s.as('hamlet').post('/invites', { invitee_emails: 'm1@example.com', stream_ids: [] })).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

describe('Invitation accepted', () => {
  const accept = (id: number, name = 'New Person', password = 'new-password') => atomically(t.server.state, () => acceptInvitation(t.server.state, id, name, password));

  it('creates the user with role invite_as, subscribed to stream_ids, added to group_ids', async () => {
    await t.as('iago').post('/invites', { invitee_emails: 'joiner@example.com', stream_ids: [chId('Denmark')], group_ids: [gid('leads')], invite_as: 300 });
    const u = accept(invite('joiner@example.com')!.id, 'Joiner');
    expect(u).toMatchObject({ email: 'joiner@example.com', full_name: 'Joiner', role: 300 });
    const subs = (await t.as('joiner').get('/users/me/subscriptions')).json.subscriptions as Array<{ name: string }>;
    expect(subs.map((s) => s.name)).toEqual(['Denmark']);
    expect(db().prepare('SELECT 1 FROM group_members WHERE group_id = ? AND user_id = ?').get(gid('leads'), u.id)).toBeDefined();
    expect(invite('joiner@example.com')!.accepted_user_id).toBe(u.id);
  });

  it('include_realm_default_subscriptions adds the default channels', async () => {
    await t.as('hamlet').post('/invites', { invitee_emails: 'joiner2@example.com', stream_ids: [chId('Scotland')], include_realm_default_subscriptions: true });
    accept(invite('joiner2@example.com')!.id);
    const subs = (await t.as('joiner2').get('/users/me/subscriptions')).json.subscriptions as Array<{ name: string }>;
    expect(subs.map((s) => s.name)).toEqual(['Scotland', 'Verona', 'general']);
  });

  it('the new user can log in; others learn of them (realm_user add) and the inviter sees invites_changed', async () => {
    await t.as('cordelia').post('/invites', { invitee_emails: 'joiner3@example.com', stream_ids: [] });
    const other = listen('othello');
    const inviter = listen('cordelia');
    accept(invite('joiner3@example.com')!.id, 'Joiner Three', 'pass-word-3');
    expect(await other.events()).toContainEqual(expect.objectContaining({ type: 'realm_user', op: 'add', person: expect.objectContaining({ email: 'joiner3@example.com', role: 400 }) }));
    expect(await inviter.events()).toContainEqual(expect.objectContaining({ type: 'invites_changed' }));
    const login = await t.raw('POST', '/fetch_api_key', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'username=joiner3%40example.com&password=pass-word-3' });
    expect(login.json.result).toBe('success');
  });

  it('an invitation is used only once, and not after it expired', async () => {
    expect(() => accept(invite('joiner@example.com')!.id)).toThrow('No such invitation');
    await t.as('hamlet').post('/invites', { invitee_emails: 'late@example.com', stream_ids: [], invite_expires_in_minutes: 1 });
    t.clock.advance(120_000);
    expect(() => accept(invite('late@example.com')!.id)).toThrow(/expired/);
  });
});

describe('GET /invites', () => {
  const accept = (id: number, name: string, password: string) => atomically(t.server.state, () => acceptInvitation(t.server.state, id, name, password));

  it('lists pending invitations: administrators see all, others their own; accepted and expired ones go', async () => {
    await t.as('othello').post('/invites', { invitee_emails: 'listed-o@example.com', stream_ids: [], invite_as: 600, notify_referrer_on_join: false });
    await t.as('cordelia').post('/invites', { invitee_emails: 'listed-c@example.com', stream_ids: [], invite_expires_in_minutes: null });
    const mine = (await t.as('othello').get('/invites')).json.invites as Array<{ email: string; invited_by_user_id: number; invited_as: number; notify_referrer_on_join: boolean; expiry_date: number | null }>;
    expect(mine.map((i) => i.email)).toContain('listed-o@example.com');
    expect(mine.every((i) => i.invited_by_user_id === t.userId('othello'))).toBe(true);
    expect(mine.find((i) => i.email === 'listed-o@example.com')).toMatchObject({ invited_as: 600, notify_referrer_on_join: false, is_multiuse: false });
    const all = (await t.as('iago').get('/invites')).json.invites as Array<{ email: string; expiry_date: number | null }>;
    expect(all.map((i) => i.email)).toEqual(expect.arrayContaining(['listed-o@example.com', 'listed-c@example.com']));
    expect(all.find((i) => i.email === 'listed-c@example.com')!.expiry_date).toBeNull();
    accept(invite('listed-o@example.com')!.id, 'Listed O', 'pass-word-lo');
    const after = (await t.as('iago').get('/invites')).json.invites as Array<{ email: string }>;
    expect(after.map((i) => i.email)).not.toContain('listed-o@example.com');
  });
});
