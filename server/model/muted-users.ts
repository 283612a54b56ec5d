/**
 * Muted users (Zulip's zerver/actions/muted_users.py): per user, the people whose messages are
 * hidden for them. Muting marks every message of the muted user read for the muter, and messages
 * they send later arrive read; each change sends the muter a `muted_users` event with the whole
 * list, as Zulip does.
 */
import { emit } from '../events/emit.js';
import { badRequest } from '../http/errors.js';
import type { ServerState } from '../state.js';
import { FLAG } from './flags.js';
import { emitFlagEvent } from './message-flags.js';
import { getUser } from './users.js';

export interface MutedUser {
  readonly id: number;
  /** UNIX seconds when muted. */
  readonly timestamp: number;
}

export function listMutedUsers(srv: ServerState, userId: number): MutedUser[] {
  return srv.db.prepare('SELECT muted_user_id AS id, date_muted AS timestamp FROM muted_users WHERE user_id = ? ORDER BY date_muted, muted_user_id').all(userId) as MutedUser[];
}

/** Who among `userIds` muted `senderId` (their copies of a new message from `senderId` start read). */
export function usersMuting(srv: ServerState, senderId: number): Set<number> {
  return new Set(srv.db.prepare('SELECT user_id FROM muted_users WHERE muted_user_id = ?').pluck().all(senderId) as number[]);
}

function target(srv: ServerState, mutedUserId: number) {
  const u = getUser(srv, mutedUserId);
  if (!u) throw badRequest('No such user');
  return u;
}

export function muteUser(srv: ServerState, userId: number, mutedUserId: number): void {
  if (mutedUserId === userId) throw badRequest('Cannot mute self');
  target(srv, mutedUserId);
  const had = srv.db.prepare('SELECT 1 FROM muted_users WHERE user_id = ? AND muted_user_id = ?').get(userId, mutedUserId);
  if (had) throw badRequest('User already muted');
  srv.db.transaction(() => {
    srv.db.prepare('INSERT INTO muted_users (user_id, muted_user_id, date_muted) VALUES (?, ?, ?)').run(userId, mutedUserId, Math.floor(srv.clock.now() / 1000));
    // Zulip's mark_muted_user_messages_as_read.
    const ids = srv.db
      .prepare('SELECT um.message_id FROM user_messages um JOIN messages m ON m.id = um.message_id WHERE um.user_id = ? AND m.sender_id = ? AND um.flags & ? = 0 ORDER BY um.message_id')
      .pluck()
      .all(userId, mutedUserId, FLAG.read) as number[];
    const mark = srv.db.prepare('UPDATE user_messages SET flags = flags | ? WHERE user_id = ? AND message_id = ?');
    for (const id of ids) mark.run(FLAG.read, userId, id);
    if (ids.length > 0) emitFlagEvent(srv, userId, 'add', 'read', ids);
  })();
  emit(srv, [userId], { type: 'muted_users', muted_users: listMutedUsers(srv, userId) });
}

export function unmuteUser(srv: ServerState, userId: number, mutedUserId: number): void {
  target(srv, mutedUserId);
  const r = srv.db.prepare('DELETE FROM muted_users WHERE user_id = ? AND muted_user_id = ?').run(userId, mutedUserId);
  if (r.changes === 0) throw badRequest('User is not muted');
  emit(srv, [userId], { type: 'muted_users', muted_users: listMutedUsers(srv, userId) });
}
