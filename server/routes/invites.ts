/**
 * GET /invites (pending invitations) and POST /invites (spec "send invitations" + Errors table): who may invite and as what role, which
 * channels and groups the invitation may carry, then Zulip's do_invite_users. The handler runs
 * its own transaction so that, when some addresses already have accounts, the other invitations
 * are committed before INVITATION_FAILED (`sent_invitations: true`) is answered.
 */
import * as z from 'zod';
import { atomically } from '../events/emit.js';
import { badRequest, invalidParam } from '../http/errors.js';
import { getChannel, type ChannelRow } from '../model/access.js';
import { userHasPermission } from '../model/groups.js';
import { listInvites, parseInviteeEmails, sendInvites, someSkipped } from '../model/invites.js';
import { getRealm } from '../model/realm.js';
import { hasContentAccess } from '../model/subscriptions.js';
import { isAdmin, isGuest, ROLE, ROLES, type Role, type UserRow } from '../model/users.js';
import type { ServerState } from '../state.js';
import { route, type ApiRouter, type Ctx } from './context.js';
import { canAddSubscribers, ownerRequired } from './subscribe.js';
import { accessGroupForUpdate } from './user-groups.js';

/** Zulip's Realm.MAX_REALM_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH. */
export const MAX_WELCOME_MESSAGE_LENGTH = 8000;

const idsSchema = z.array(z.number().int());

/** access_streams_for_invite: accessible channels, each a default channel or one the actor may add subscribers to. */
function channelsForInvite(srv: ServerState, actor: UserRow, ids: readonly number[]): ChannelRow[] {
  const channels = ids.map((id) => {
    const ch = getChannel(srv, id);
    if (!ch || !hasContentAccess(srv, actor, ch)) throw badRequest(`Invalid channel ID ${id}. No invites were sent.`);
    return ch;
  });
  if (channels.some((ch) => ch.is_default === 0 && !canAddSubscribers(srv, actor, ch))) {
    throw badRequest('You do not have permission to subscribe other users to channels.');
  }
  return channels;
}

function invite({ srv, params, user }: Ctx): Record<string, never> {
  const skipped = atomically(srv, () => {
    const rawEmails = params.reqStr('invitee_emails');
    const expiry = params.jsonValue('invite_expires_in_minutes');
    const inviteAs = params.int('invite_as') ?? ROLE.member;
    const streamIds = params.reqJson('stream_ids', idsSchema);
    const groupIds = params.json('group_ids', idsSchema) ?? [];
    const includeDefaults = params.bool('include_realm_default_subscriptions') ?? false;
    const notifyReferrer = params.bool('notify_referrer_on_join') ?? true;
    const welcome = params.str('welcome_message_custom_text', { maxLength: MAX_WELCOME_MESSAGE_LENGTH });
    if (!(ROLES as readonly number[]).includes(inviteAs)) throw invalidParam('invite_as', inviteAs, 'Invalid invite_as');
    let expiresIn: number | null;
    if (expiry === undefined) expiresIn = getRealm(srv).invite_expiry_default_minutes;
    else if (expiry === null) expiresIn = null;
    else if (typeof expiry === 'number' && Number.isSafeInteger(expiry) && expiry > 0) expiresIn = expiry;
    else throw invalidParam('invite_expires_in_minutes', expiry, 'Invalid invite_expires_in_minutes');

    if (isGuest(user) || !userHasPermission(srv, user.id, getRealm(srv).can_invite_users_group)) throw badRequest('Insufficient permission');
    if (inviteAs === ROLE.owner && user.role !== ROLE.owner) throw ownerRequired();
    if (inviteAs <= ROLE.moderator && !isAdmin(user)) throw badRequest('Must be an organization administrator');
    const emails = parseInviteeEmails(rawEmails);
    if (emails.every((e) => e === '')) throw badRequest('You must specify at least one email address.');
    const channels = channelsForInvite(srv, user, streamIds);
    for (const gid of groupIds) accessGroupForUpdate(srv, user, gid, 'can_add_members_group', false);

    return sendInvites(srv, user, {
      emails,
      inviteAs: inviteAs as Role,
      expiresInMinutes: expiresIn,
      channels,
      groupIds: [...new Set(groupIds)],
      includeRealmDefaultSubscriptions: includeDefaults,
      notifyReferrerOnJoin: notifyReferrer,
      // Only administrators may set a custom welcome message; for others it is stored as null.
      welcomeMessageCustomText: isAdmin(user) ? (welcome ?? null) : null,
    });
  });
  if (skipped.length > 0) throw someSkipped(skipped);
  return {};
}

export function registerInviteRoutes(r: ApiRouter): void {
  route(r, 'POST', '/invites', invite, { async: true });
  // GET /invites (referenced by the spec's invitation states): the pending invitations one controls.
  route(r, 'GET', '/invites', ({ srv, user }) => ({ invites: listInvites(srv, user) }));
}
