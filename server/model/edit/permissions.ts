/**
 * Who may edit or move a message (PATCH /messages/{id}), following Zulip's check_update_message:
 * realm settings (allow_message_editing, the can_*_group settings and the three time limits) plus
 * the per-channel grants (can_move_messages_within_channel_group, can_move_messages_out_of_channel_group,
 * can_resolve_topics_group, and can_administer_channel_group, which implies the moving ones).
 *
 * Time limits do not bind administrators and moderators (spec, Limits); `null` means unlimited.
 * Like Zulip, a 20-second grace period is added to every limit (network latency, the client's own
 * countdown).
 */
import { seconds } from '../../clock.js';
import { badRequest } from '../../http/errors.js';
import type { ServerState } from '../../state.js';
import type { ChannelRow } from '../access.js';
import { hasChannelPermission } from '../channels.js';
import { userHasPermission } from '../groups.js';
import { getRealm } from '../realm.js';
import { isAdmin, isModeratorOrAbove, type UserRow } from '../users.js';

/** Zulip's edit_limit_buffer / message_move_limit_buffer. */
export const EDIT_LIMIT_BUFFER_SECONDS = 20;

export interface EditableMessage {
  readonly id: number;
  readonly sender_id: number;
  readonly date_sent: number;
}

/** Past `limit` seconds (plus the grace period) since the message was sent; null = no limit. */
export function isPastLimit(srv: ServerState, m: Pick<EditableMessage, 'date_sent'>, limit: number | null, buffer = EDIT_LIMIT_BUFFER_SECONDS): boolean {
  if (limit === null) return false;
  return seconds(srv.clock) - m.date_sent > limit + buffer;
}

/** Content edits: the organization allows editing, the actor sent the message, within the limit. */
export function checkCanEditContent(srv: ServerState, actor: UserRow, m: EditableMessage): void {
  const realm = getRealm(srv);
  if (!realm.allow_message_editing) throw badRequest('Your organization has turned off message editing');
  if (m.sender_id !== actor.id) throw badRequest("You don't have permission to edit this message");
  if (!isModeratorOrAbove(actor) && isPastLimit(srv, m, realm.message_content_edit_limit_seconds)) {
    throw badRequest('The time limit for editing this message has passed');
  }
}

function canMoveWithinChannel(srv: ServerState, actor: UserRow, ch: ChannelRow): boolean {
  if (isAdmin(actor)) return true;
  return (
    hasChannelPermission(srv, actor.id, ch, 'can_administer_channel_group') ||
    hasChannelPermission(srv, actor.id, ch, 'can_move_messages_within_channel_group')
  );
}

/** Topic changes (other than resolving): the realm grant, or a within-channel grant on either channel. */
export function canEditTopic(srv: ServerState, actor: UserRow, orig: ChannelRow, target: ChannelRow): boolean {
  if (userHasPermission(srv, actor.id, getRealm(srv).can_move_messages_between_topics_group)) return true;
  if (canMoveWithinChannel(srv, actor, orig)) return true;
  return orig.id !== target.id && canMoveWithinChannel(srv, actor, target);
}

/** Resolving / unresolving: the realm's can_resolve_topics_group, or the channel's (either channel). */
export function canResolveTopics(srv: ServerState, actor: UserRow, orig: ChannelRow, target: ChannelRow): boolean {
  if (userHasPermission(srv, actor.id, getRealm(srv).can_resolve_topics_group)) return true;
  if (hasChannelPermission(srv, actor.id, orig, 'can_resolve_topics_group')) return true;
  return orig.id !== target.id && hasChannelPermission(srv, actor.id, target, 'can_resolve_topics_group');
}

/** Moving to another channel: the realm grant, or the origin channel's out-of-channel grant. */
export function canMoveOutOfChannel(srv: ServerState, actor: UserRow, orig: ChannelRow): boolean {
  if (isAdmin(actor)) return true;
  if (userHasPermission(srv, actor.id, getRealm(srv).can_move_messages_between_channels_group)) return true;
  return (
    hasChannelPermission(srv, actor.id, orig, 'can_administer_channel_group') ||
    hasChannelPermission(srv, actor.id, orig, 'can_move_messages_out_of_channel_group')
  );
}

/** Moving into a channel requires being allowed to post there (can_send_message_group). */
export function checkCanPostIn(srv: ServerState, actor: UserRow, target: ChannelRow): void {
  if (isAdmin(actor)) return;
  if (!hasChannelPermission(srv, actor.id, target, 'can_send_message_group')) {
    throw badRequest('You do not have permission to post in this channel.');
  }
}

export type MoveKind = 'topic' | 'channel' | 'both';

/**
 * The time limit that applies to a move (the stricter one when both topic and channel change), or
 * null when none does (moderators and above, or unlimited settings).
 */
export function moveLimitSeconds(srv: ServerState, actor: UserRow, kind: MoveKind): number | null {
  if (isModeratorOrAbove(actor)) return null;
  const realm = getRealm(srv);
  const limits: number[] = [];
  if (kind !== 'channel' && realm.move_messages_within_stream_limit_seconds !== null) limits.push(realm.move_messages_within_stream_limit_seconds);
  if (kind !== 'topic' && realm.move_messages_between_streams_limit_seconds !== null) limits.push(realm.move_messages_between_streams_limit_seconds);
  return limits.length ? Math.min(...limits) : null;
}
