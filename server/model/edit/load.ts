/**
 * Loading a message for modification (Zulip's access_message with is_modifying_message): it must
 * exist and be accessible to the actor, and channel messages must not be in an archived channel.
 * Every failure is the same boring "Invalid message(s)" so nothing leaks.
 */
import { badRequest } from '../../http/errors.js';
import type { ServerState } from '../../state.js';
import { canAccessMessage, getChannel } from '../access.js';
import { getMessage, type MessageRow } from '../messages.js';
import { getRealm } from '../realm.js';
import { isModeratorOrAbove, type UserRow } from '../users.js';
import { isPastLimit } from './permissions.js';

/** A row of the `messages` table. */
export type StoredMessage = MessageRow;

export const invalidMessage = () => badRequest('Invalid message(s)');

export const getStoredMessage = (srv: ServerState, id: number): StoredMessage | undefined => getMessage(srv, id);

/** A message the actor may read (for GET .../history). */
export function loadReadableMessage(srv: ServerState, actor: UserRow, id: number): StoredMessage {
  const m = getStoredMessage(srv, id);
  if (!m || !canAccessMessage(srv, actor, m)) throw invalidMessage();
  return m;
}

/** A message the actor may modify: readable, and not in an archived channel. */
export function loadEditableMessage(srv: ServerState, actor: UserRow, id: number): StoredMessage {
  const m = loadReadableMessage(srv, actor, id);
  if (m.type === 'stream' && m.channel_id !== null && getChannel(srv, m.channel_id)?.is_archived) throw invalidMessage();
  return m;
}

/**
 * Typing-while-editing needs the content-edit permission with no grace period (Zulip calls
 * validate_user_can_edit_message with edit_limit_buffer=0).
 */
export function checkCanEditContentForTyping(srv: ServerState, actor: UserRow, m: StoredMessage): void {
  const realm = getRealm(srv);
  if (!realm.allow_message_editing) throw badRequest('Your organization has turned off message editing');
  if (m.sender_id !== actor.id) throw badRequest("You don't have permission to edit this message");
  if (!isModeratorOrAbove(actor) && isPastLimit(srv, m, realm.message_content_edit_limit_seconds, 0)) {
    throw badRequest('The time limit for editing this message has passed');
  }
}
