/**
 * `mute_user`: mute or unmute a person (`POST` / `DELETE /users/me/muted_users/{id}`). Only the
 * last choice for a person matters, so a queued change of the same person takes the newer value.
 *
 * The local list (the register's `muted_users`, kept as a realm value and replaced by each
 * `muted_users` event) shows the change at once; the renderer hides the person's messages from it.
 *
 * The server refuses a change that is already true ("User already muted", "User is not muted"):
 * that is the user's wish reached (an earlier attempt whose answer was lost, or another device),
 * so it counts as done. A lost answer is still verified by reading the list back.
 */
import * as z from 'zod';
import { isApiError, muteUser, unmuteUser } from '../../api/index.js';
import type { ChangeCollector } from '../../db/changes.js';
import type { LocalDb } from '../../db/open.js';
import { getRealmValue, setRealmValue } from '../../db/queries/realm.js';
import { queues } from '../commands.js';
import { readState } from './read-state.js';
import { newestWins, withoutBase } from './shared.js';

export const MUTE_USER_KIND = 'mute_user';
/** The realm value holding the server's list (register's `muted_users`). */
export const MUTED_USERS_KEY = 'muted_users';

export const userMuteArgs = z.lazy(() => z.object({ user_id: z.number().int().positive(), muted: z.boolean() }));
export type UserMuteArgs = z.output<typeof userMuteArgs>;

const ALREADY = /^(user already muted|user is not muted)$/i;
const alreadyThere = (e: unknown): boolean => isApiError(e) && e.kind === 'api' && e.code === 'BAD_REQUEST' && ALREADY.test(e.serverMsg ?? '');

/** The stored list: `{id, timestamp}` per muted person (anything else in the value is ignored). */
export function storedMutedUsers(db: LocalDb): Array<{ id: number; timestamp: number }> {
  const v = getRealmValue(db, MUTED_USERS_KEY);
  const parsed = z.array(z.object({ id: z.number().int(), timestamp: z.number().int() })).safeParse(v);
  return parsed.success ? parsed.data : [];
}

export const userMute = withoutBase({
  kind: MUTE_USER_KIND,
  version: 1,
  argsSchema: userMuteArgs,
  describe: (a, names) => ({ text: `${a.muted ? 'Mute' : 'Unmute'} ${names.user(a.user_id) ?? 'a user'}`, link: null }),
  entityKey: (a) => `muted_user:${a.user_id}`,
  async send(conn, a) {
    try {
      await (a.muted ? muteUser : unmuteUser)(conn, { userId: a.user_id });
    } catch (e) {
      if (alreadyThere(e)) return;
      throw e;
    }
  },
  async verify(conn, a) {
    const { muted_users = [] } = await readState(conn, ['muted_users']);
    return muted_users.some((m) => m.id === a.user_id) === a.muted ? 'applied' : 'not_applied';
  },
  coalesce: newestWins(MUTE_USER_KIND),
  local: { apply: (db, a, _b, c) => void applyOptimistic(db, a, c), areas: ['muted_users'], refetch: ['muted_users'] },
});

export function applyOptimistic(db: LocalDb, a: UserMuteArgs, changes: ChangeCollector): void {
  const list = storedMutedUsers(db);
  const has = list.some((m) => m.id === a.user_id);
  if (has === a.muted) return;
  setRealmValue(db, MUTED_USERS_KEY, a.muted ? [...list, { id: a.user_id, timestamp: Math.floor(Date.now() / 1000) }] : list.filter((m) => m.id !== a.user_id));
  changes.touched('muted_users');
}

/** The contract's command: mute or unmute a person (queued offline). */
export const userMuteCommands = {
  setUserMuted: queues(userMute, z.lazy(() => z.object({ user_id: z.number().int().positive(), muted: z.boolean() })), (r) => r),
};
