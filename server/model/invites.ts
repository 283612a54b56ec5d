/**
 * Invitations (POST /invites and the "Invitation accepted" transition of the spec's States table):
 * Zulip's do_invite_users checks (daily and license limits, invalid addresses, existing accounts)
 * and `acceptInvitation`, which creates the account with role invite_as, subscribes it to
 * stream_ids (+ the default channels if requested) and adds it to group_ids.
 */
import { seconds } from '../clock.js';
import { emit } from '../events/emit.js';
import { badRequest, JsonableError } from '../http/errors.js';
import type { ServerState } from '../state.js';
import { getChannel, type ChannelRow } from './access.js';
import { checkFullName, createAccount, defaultChannels, EMAIL_RE, isStrongPassword } from './accounts.js';
import { getGroup } from './groups.js';
import { activeUserIds, getUser, getUserByEmail, isAdmin, type Role, type UserRow } from './users.js';

export interface InviteRow {
  id: number;
  inviter_id: number;
  email: string;
  invite_as: Role;
  stream_ids: string;
  group_ids: string;
  include_realm_default_subscriptions: number;
  notify_referrer_on_join: number;
  welcome_message_custom_text: string | null;
  created_at: number;
  expires_at: number | null;
  accepted_user_id: number | null;
}

export interface InviteArgs {
  emails: readonly string[];
  inviteAs: Role;
  /** Minutes; null = never expires. */
  expiresInMinutes: number | null;
  channels: readonly ChannelRow[];
  groupIds: readonly number[];
  includeRealmDefaultSubscriptions: boolean;
  notifyReferrerOnJoin: boolean;
  welcomeMessageCustomText: string | null;
}

export type InviteError = [email: string, reason: string, deactivated: boolean];

export function invitationFailed(
  msg: string,
  errors: InviteError[],
  flags: { sent: boolean; daily?: boolean; license?: boolean },
): JsonableError {
  return new JsonableError('INVITATION_FAILED', msg, 400, {
    errors,
    sent_invitations: flags.sent,
    license_limit_reached: flags.license ?? false,
    daily_limit_reached: flags.daily ?? false,
  });
}

/** Zulip's get_invitee_emails_set: split on commas and newlines, `Name <addr>` → addr, trimmed, unique. */
export function parseInviteeEmails(raw: string): string[] {
  const out = new Set<string>();
  for (const part of raw.split(/[,\n]/)) {
    const named = /<(.*)>/.exec(part);
    out.add((named ? named[1]! : part).trim());
  }
  return [...out];
}

/** Administrators and the inviter learn that the set of invitations changed. */
function emitInvitesChanged(srv: ServerState, inviterId: number): void {
  const admins = activeUserIds(srv).filter((id) => isAdmin(getUser(srv, id)!));
  emit(srv, new Set([...admins, inviterId]), { type: 'invites_changed' });
}

function licensesInUse(srv: ServerState): number {
  return srv.db.prepare('SELECT COUNT(*) FROM users WHERE is_active = 1 AND is_bot = 0').pluck().get() as number;
}

/**
 * do_invite_users: all-or-nothing limits and address checks first; addresses with accounts are
 * skipped and returned (the caller answers INVITATION_FAILED with `sent_invitations: true` once
 * the other invitations are committed).
 */
export function sendInvites(srv: ServerState, actor: UserRow, a: InviteArgs): InviteError[] {
  const now = seconds(srv.clock);
  const count = a.emails.length;
  const recent = srv.db.prepare('SELECT COUNT(*) FROM invites WHERE created_at > ?').pluck().get(now - 86400) as number;
  if (recent + count > srv.config.inviteDailyLimit) {
    throw invitationFailed(
      'To protect users, Zulip limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.',
      [],
      { sent: false, daily: true },
    );
  }
  if (licensesInUse(srv) + count > srv.config.licenseLimit) {
    throw invitationFailed(`Your organization does not have enough unused Zulip licenses to invite ${count} users.`, [], { sent: false, license: true });
  }
  const errors: InviteError[] = [];
  const skipped: InviteError[] = [];
  const valid: string[] = [];
  for (const email of a.emails) {
    if (email === '') continue;
    if (!EMAIL_RE.test(email)) {
      errors.push([email, 'Invalid address.', false]);
      continue;
    }
    const existing = getUserByEmail(srv, email);
    if (existing) skipped.push([email, existing.is_active ? 'Already has an account.' : 'Account has been deactivated.', existing.is_active === 0]);
    else valid.push(email);
  }
  if (errors.length > 0) throw invitationFailed("Some emails did not validate, so we didn't send any invitations.", [...errors, ...skipped], { sent: false });
  if (valid.length === 0) throw invitationFailed("We weren't able to invite anyone.", skipped, { sent: false });

  const insert = srv.db.prepare(
    `INSERT INTO invites (inviter_id, email, invite_as, stream_ids, group_ids, include_realm_default_subscriptions, notify_referrer_on_join,
       welcome_message_custom_text, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const email of valid) {
    insert.run(
      actor.id,
      email,
      a.inviteAs,
      JSON.stringify(a.channels.map((c) => c.id)),
      JSON.stringify(a.groupIds),
      a.includeRealmDefaultSubscriptions ? 1 : 0,
      a.notifyReferrerOnJoin ? 1 : 0,
      a.welcomeMessageCustomText,
      now,
      a.expiresInMinutes === null ? null : now + a.expiresInMinutes * 60,
    );
  }
  emitInvitesChanged(srv, actor.id);
  return skipped;
}

/** The error for addresses skipped while the others were invited (raised after the invitations commit). */
export const someSkipped = (skipped: InviteError[]) =>
  invitationFailed("Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!", skipped, {
    sent: true,
  });

/**
 * GET /invites (Zulip's do_get_invites_controlled_by_user): the invitations not yet accepted nor
 * expired; administrators see everyone's, others their own.
 */
export function listInvites(srv: ServerState, actor: UserRow) {
  const now = seconds(srv.clock);
  const rows = srv.db.prepare('SELECT * FROM invites WHERE accepted_user_id IS NULL AND (expires_at IS NULL OR expires_at > ?) ORDER BY id').all(now) as InviteRow[];
  return rows
    .filter((r) => isAdmin(actor) || r.inviter_id === actor.id)
    .map((r) => ({
      id: r.id,
      invited_by_user_id: r.inviter_id,
      invited: r.created_at,
      expiry_date: r.expires_at,
      email: r.email,
      notify_referrer_on_join: r.notify_referrer_on_join === 1,
      invited_as: r.invite_as,
      is_multiuse: false,
    }));
}

export function getInvite(srv: ServerState, id: number): InviteRow | undefined {
  return srv.db.prepare('SELECT * FROM invites WHERE id = ?').get(id) as InviteRow | undefined;
}

/**
 * The invitee signs up: the account gets role invite_as, the invitation's channels (+ the
 * default channels when include_realm_default_subscriptions) and groups. The spec leaves the
 * signup flow itself out of the API; this is its server side.
 */
export function acceptInvitation(srv: ServerState, inviteId: number, fullName: string, password: string): UserRow {
  const inv = getInvite(srv, inviteId);
  if (!inv || inv.accepted_user_id !== null) throw badRequest('No such invitation');
  if (inv.expires_at !== null && inv.expires_at <= seconds(srv.clock)) throw badRequest('The confirmation link has expired or been deactivated.');
  if (getUserByEmail(srv, inv.email)) throw badRequest('Email is already in use.');
  const name = checkFullName(fullName);
  if (!isStrongPassword(password)) throw badRequest('The password is too weak.');

  const channels = (JSON.parse(inv.stream_ids) as number[]).map((id) => getChannel(srv, id)).filter((c): c is ChannelRow => !!c && c.is_archived === 0);
  const all = inv.include_realm_default_subscriptions ? [...defaultChannels(srv), ...channels] : channels;
  const user = createAccount(srv, { email: inv.email, full_name: name, password, role: inv.invite_as }, all);

  const insert = srv.db.prepare('INSERT OR IGNORE INTO group_members (group_id, user_id) VALUES (?, ?)');
  for (const gid of JSON.parse(inv.group_ids) as number[]) {
    const g = getGroup(srv, gid);
    if (!g || g.is_system_group || g.deactivated) continue;
    insert.run(gid, user.id);
    emit(srv, activeUserIds(srv), { type: 'user_group', op: 'add_members', group_id: gid, user_ids: [user.id] });
  }
  srv.db.prepare('UPDATE invites SET accepted_user_id = ? WHERE id = ?').run(user.id, inv.id);
  emitInvitesChanged(srv, inv.inviter_id);
  return user;
}
