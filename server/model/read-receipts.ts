/**
 * Read receipts (OpenAPI get-read-receipts; Zulip's zerver/views/read_receipts.py): who has read a
 * message the requester can access, ascending by id. Never the sender; never a deactivated user or
 * one whose `send_read_receipts` is off; never someone the requester muted or who muted the
 * requester. The requester is listed when they read it. The realm's `enable_read_receipts` off: an
 * error, whatever the users' settings.
 */
import { badRequest } from '../http/errors.js';
import type { ServerState } from '../state.js';
import { FLAG } from './flags.js';
import { accessMessage } from './reactions.js';
import { getRealm } from './realm.js';
import { getUserSetting } from './user-settings.js';
import type { UserRow } from './users.js';

export function readReceipts(srv: ServerState, user: UserRow, messageId: number): number[] {
  if (!getRealm(srv).enable_read_receipts) throw badRequest('Read receipts are disabled in this organization.');
  const m = accessMessage(srv, user, messageId);
  const readers = srv.db
    .prepare(
      `SELECT um.user_id FROM user_messages um JOIN users u ON u.id = um.user_id
       WHERE um.message_id = ? AND (um.flags & ?) != 0 AND u.is_active = 1 AND um.user_id != ?
         AND um.user_id NOT IN (SELECT muted_user_id FROM muted_users WHERE user_id = ?)
         AND um.user_id NOT IN (SELECT user_id FROM muted_users WHERE muted_user_id = ?)
       ORDER BY um.user_id`,
    )
    .pluck()
    .all(m.id, FLAG.read, m.sender_id, user.id, user.id) as number[];
  return readers.filter((id) => getUserSetting(srv, id, 'send_read_receipts'));
}
