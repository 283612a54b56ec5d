/** Invitations: spec "POST /invites (send invitations)". */
import type { ApiConnection, RequestOptions } from '../core.js';
import type { Params } from '../encoding.js';
import { endpoint, responseTable, send } from '../operation.js';
import { emptySuccess } from '../schemas/envelope.js';

const sendInvitesEndpoint = endpoint({ method: 'POST', path: '/invites', schema: emptySuccess });

/** Response schemas by OpenAPI operation, for the example-conformance test. */
export const inviteResponses = responseTable(sendInvitesEndpoint);

/** FL 126 replaced `invite_expires_in_days` with `invite_expires_in_minutes` (OpenAPI "Changes"). */
export const INVITE_EXPIRES_IN_MINUTES_FL = 126;
/** Spec limit on `welcome_message_custom_text`, counted in characters (code points, as the server does). */
export const MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH = 8000;

/** Role of the invited user: 100 owner, 200 administrator, 300 moderator, 400 member, 600 guest. */
export type InviteRole = 100 | 200 | 300 | 400 | 600;

export interface SendInvitesArgs {
  /** Addresses; a list is joined with commas (the server splits on commas and newlines). */
  invitee_emails: string | readonly string[];
  /** Minutes until the invitation expires; `null` never expires; omitted = server default (14400). */
  invite_expires_in_minutes?: number | null;
  /** Defaults to 400 (member) on the server; cannot exceed the inviter's own role. */
  invite_as?: InviteRole;
  /** Channels to subscribe the new user to; may be empty, never omitted. */
  stream_ids: readonly number[];
  /** Groups to add the new user to (FL 322). */
  group_ids?: readonly number[];
  include_realm_default_subscriptions?: boolean;
  notify_referrer_on_join?: boolean;
  /**
   * Administrators only (FL 416). A string is the Welcome Bot's custom message, `""` sends none,
   * `null` uses the organization default. The server reads this parameter as a raw string, so
   * `null` is expressed by leaving it out (the server's default for an absent value is exactly that).
   */
  welcome_message_custom_text?: string | null;
}

/** Spec "POST /invites": invite people by email; partial failures are `INVITATION_FAILED`. */
export async function sendInvites(conn: ApiConnection, args: SendInvitesArgs, opts: RequestOptions = {}) {
  const text = args.welcome_message_custom_text;
  if (typeof text === 'string') {
    const length = [...text].length;
    if (length > MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH) {
      throw new Error(
        `sendInvites: welcome_message_custom_text is ${length} characters; at most ${MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH} are allowed`,
      );
    }
  }
  const emails = typeof args.invitee_emails === 'string' ? args.invitee_emails : args.invitee_emails.join(',');
  const params: Params = {
    invitee_emails: emails,
    ...expirationParam(conn, args.invite_expires_in_minutes),
    invite_as: args.invite_as,
    stream_ids: args.stream_ids,
    group_ids: args.group_ids,
    include_realm_default_subscriptions: args.include_realm_default_subscriptions,
    notify_referrer_on_join: args.notify_referrer_on_join,
    welcome_message_custom_text: text ?? undefined,
  };
  return send(conn, sendInvitesEndpoint, { params }, opts);
}

/**
 * `invite_expires_in_minutes` (JSON int or `null`), or on servers before FL 126 the older
 * `invite_expires_in_days`, rounded up so an invitation never expires sooner than asked.
 */
function expirationParam(conn: ApiConnection, minutes: number | null | undefined): Params {
  if (minutes === undefined) return {};
  if (conn.supports(INVITE_EXPIRES_IN_MINUTES_FL)) return { invite_expires_in_minutes: minutes };
  return { invite_expires_in_days: minutes === null ? null : Math.ceil(minutes / (24 * 60)) };
}
