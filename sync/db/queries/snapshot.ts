/**
 * Store a `POST /register` snapshot. Each collection the snapshot carries replaces the cached one
 * (a snapshot is the whole truth as of its queue); collections it does not carry (not fetched)
 * are left alone. Unread and starred state is reconciled onto cached messages, and kept as the
 * server's sets (unreads.ts) for the messages the cache does not hold; the recent DM conversations
 * likewise (recent-dms.ts).
 */
import type { RegisterResponse } from '../../api/index.js';
import type { ChangeCollector, StoreArea } from '../changes.js';
import { FLAG } from '../flags.js';
import type { LocalDb } from '../open.js';
import { putChannel, putSubscription } from './channels.js';
import { putUserGroup } from './groups.js';
import { putNavigationView, putSavedSnippet, putScheduledMessage, putUserSetting, putUserTopic } from './personal.js';
import { setRealmValue } from './realm.js';
import { replaceRecentDms } from './recent-dms.js';
import { getAccount, noteServerVersion } from './state.js';
import { cachedStatement } from './statements.js';
import { replaceServerStarred, replaceServerUnreads } from './unreads.js';
import { putUser } from './users.js';

/** Snapshot keys that are collections or queue bookkeeping, not realm settings. */
const NOT_REALM = new Set<string>([
  'result', 'msg', 'ignored_parameters_unsupported', 'queue_id', 'last_event_id',
  'realm_users', 'realm_non_active_users', 'cross_realm_bots', 'realm_user_groups',
  'subscriptions', 'unsubscribed', 'never_subscribed', 'unread_msgs', 'user_topics', 'saved_snippets',
  'navigation_views', 'scheduled_messages', 'user_settings', 'starred_messages', 'recent_private_conversations',
  'user_id', 'email', 'delivery_email', 'full_name', 'is_admin', 'is_owner', 'is_moderator', 'is_guest',
]);

export function storeRegisterSnapshot(db: LocalDb, s: RegisterResponse, changes: ChangeCollector): void {
  db.transaction(() => {
    // Realm settings, limits, timing and version: everything scalar-ish that is not a collection.
    for (const [k, v] of Object.entries(s)) if (!NOT_REALM.has(k) && v !== undefined) setRealmValue(db, k, v);
    changes.touched('realm');
    // `muted_users` is kept as a realm value too (outbox/mutations/user-mute.ts).
    if (s.muted_users !== undefined) changes.touched('muted_users');
    // So are `presences` and `user_status` (engine/handlers/presence.ts).
    if (s.presences !== undefined || s.user_status !== undefined) changes.touched('presence');
    noteServerVersion(db, { user_id: s.user_id, feature_level: s.zulip_feature_level, zulip_version: s.zulip_version });

    if (s.realm_users !== undefined) {
      cachedStatement(db, 'DELETE FROM users').run();
      for (const u of s.realm_users) putUser(db, u, true);
      for (const u of s.realm_non_active_users ?? []) putUser(db, u, false);
      for (const u of s.cross_realm_bots ?? []) putUser(db, u, true);
      changes.touched('users');
    }
    if (s.subscriptions !== undefined) {
      cachedStatement(db, 'DELETE FROM channels').run();
      cachedStatement(db, 'DELETE FROM subscriptions').run();
      for (const c of s.never_subscribed ?? []) putChannel(db, c);
      for (const c of s.unsubscribed ?? []) putChannel(db, c);
      for (const c of s.subscriptions) {
        putChannel(db, c);
        putSubscription(db, c);
      }
      changes.touched('channels');
      changes.touched('subscriptions');
    }
    /** A collection the snapshot carries replaces the table that caches it, and its area is told. */
    const replace = <T>(items: readonly T[] | undefined, table: string, area: StoreArea, put: (item: T, index: number) => void): void => {
      if (items === undefined) return;
      cachedStatement(db, `DELETE FROM ${table}`).run();
      items.forEach(put);
      changes.touched(area);
    };
    replace(s.user_topics, 'user_topics', 'user_topics', (t) => putUserTopic(db, t));
    replace(s.saved_snippets, 'saved_snippets', 'saved_snippets', (x) => putSavedSnippet(db, x));
    replace(s.navigation_views, 'navigation_views', 'navigation_views', (v, i) => putNavigationView(db, v, i));
    replace(s.scheduled_messages, 'scheduled_messages', 'scheduled_messages', (m) => putScheduledMessage(db, m));
    replace(s.user_settings && Object.entries(s.user_settings), 'user_settings', 'user_settings', ([k, v]) => {
      if (v !== undefined) putUserSetting(db, k, v);
    });
    replace(s.realm_user_groups, 'user_groups', 'user_groups', (g) => putUserGroup(db, g));
    const self = s.user_id ?? getAccount(db)?.user_id ?? undefined;
    if (s.unread_msgs !== undefined) {
      reconcileUnreads(db, s.unread_msgs, changes);
      if (self !== undefined) replaceServerUnreads(db, s.unread_msgs, self);
      changes.touched('unread');
    }
    if (s.starred_messages !== undefined) {
      reconcileFlag(db, FLAG.starred, s.starred_messages, 0, changes);
      replaceServerStarred(db, s.starred_messages);
      changes.touched('unread');
    }
    if (s.recent_private_conversations !== undefined && self !== undefined) {
      replaceRecentDms(db, s.recent_private_conversations, self);
      changes.touched('dm_conversations');
    }
  })();
}

function reconcileUnreads(db: LocalDb, u: NonNullable<RegisterResponse['unread_msgs']>, changes: ChangeCollector): void {
  // A first sign-in has nothing cached to reconcile (and may list 100,000 unread ids).
  if (cachedStatement<[], number>(db, 'SELECT EXISTS (SELECT 1 FROM messages)').pluck().get() === 0) return;
  const unread = new Set<number>();
  for (const c of u.streams) for (const id of c.unread_message_ids) unread.add(id);
  for (const c of u.pms) for (const id of c.unread_message_ids) unread.add(id);
  for (const c of u.huddles) for (const id of c.unread_message_ids) unread.add(id);
  // A truncated list keeps the newest unreads: only messages above its oldest id are known read.
  let knownFrom = 0;
  if (u.old_unreads_missing) {
    knownFrom = Number.MAX_SAFE_INTEGER;
    for (const id of unread) if (id < knownFrom) knownFrom = id;
  }
  // `read` is set exactly on the messages NOT listed, so reconcile the inverse set.
  const touched = reconcileFlag(db, FLAG.read, [...unread], knownFrom, changes, true);
  if (touched > 0) changes.touched('unread');
}

/**
 * Make `bit` set exactly on the cached messages in `ids` (or, `inverse`, exactly on those not in
 * it), among messages with id >= `from`. Returns how many rows changed.
 */
function reconcileFlag(db: LocalDb, bit: number, ids: readonly number[], from: number, changes: ChangeCollector, inverse = false): number {
  const list = JSON.stringify(ids);
  const [inSet, notInSet] = inverse ? ['flags & ~@bit', 'flags | @bit'] : ['flags | @bit', 'flags & ~@bit'];
  const a = db
    .prepare<{ bit: number; list: string }, number>(`UPDATE messages SET flags = ${inSet} WHERE id IN (SELECT value FROM json_each(@list)) AND flags != ${inSet} RETURNING id`)
    .pluck()
    .all({ bit, list });
  const b = db
    .prepare<{ bit: number; list: string; from: number }, number>(
      `UPDATE messages SET flags = ${notInSet} WHERE id >= @from AND id NOT IN (SELECT value FROM json_each(@list)) AND flags != ${notInSet} RETURNING id`,
    )
    .pluck()
    .all({ bit, list, from });
  for (const id of [...a, ...b]) changes.messageUpdated(id);
  return a.length + b.length;
}
