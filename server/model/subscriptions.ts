/**
 * Channel creation, subscribing and unsubscribing, with Zulip's events: `stream` op `create` to
 * those who can newly see a channel, `subscription` op `add`/`remove` to the users whose
 * subscriptions changed, and `peer_add`/`peer_remove` to everyone else who can see the channel's
 * subscribers. Shared by POST/DELETE /users/me/subscriptions and invitation acceptance.
 */
import { seconds } from '../clock.js';
import { emit } from '../events/emit.js';
import { renderMarkdown } from '../markdown/render.js';
import type { ServerState } from '../state.js';
import { getChannel, isSubscribed, type ChannelRow } from './access.js';
import { apiChannel, apiSubscription, hasChannelPermission, type ChannelPermissionSetting } from './channels.js';
import type { GroupSettingValue } from './groups.js';
import { activeUserIds, getUser, isAdmin, isGuest, type UserRow } from './users.js';

/** Zulip's STREAM_ASSIGNMENT_COLORS: new subscriptions take the first color the user has not used. */
const STREAM_COLORS = [
  '#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55', '#b0a5fd', '#addfe5', '#f5ce6e', '#c2726a', '#94c849', '#bd86e5',
  '#ee7e4a', '#a6dcbf', '#95a5fd', '#53a063', '#9987e1', '#e4523d', '#c2c2c2', '#4f8de4', '#c6a8ad', '#e7cc4d', '#c8bebf', '#a47462',
];

/** Zulip's user_has_content_access: subscribed, public to non-guests, or can_add_subscribers / can_subscribe. */
export function hasContentAccess(srv: ServerState, user: UserRow, ch: ChannelRow): boolean {
  if (isSubscribed(srv, user.id, ch.id)) return true;
  if (isGuest(user)) return false;
  if (ch.invite_only === 0) return true;
  return hasChannelPermission(srv, user.id, ch, 'can_add_subscribers_group') || hasChannelPermission(srv, user.id, ch, 'can_subscribe_group');
}

/** Zulip's user_has_metadata_access: content access, realm administrators, or channel administrators. */
export function hasMetadataAccess(srv: ServerState, user: UserRow, ch: ChannelRow): boolean {
  if (hasContentAccess(srv, user, ch)) return true;
  if (isGuest(user)) return false;
  return isAdmin(user) || hasChannelPermission(srv, user.id, ch, 'can_administer_channel_group');
}

/** Active users who may see the channel (and so its subscriber list). */
export function usersWithMetadataAccess(srv: ServerState, ch: ChannelRow): number[] {
  return activeUserIds(srv).filter((id) => hasMetadataAccess(srv, getUser(srv, id)!, ch));
}

export interface NewChannel {
  name: string;
  description: string;
  invite_only: boolean;
  is_web_public: boolean;
  history_public_to_subscribers: boolean;
  /** null = realm default, -1 = unlimited. */
  message_retention_days: number | null;
  topics_policy: string;
  is_default: boolean;
  permissions: Partial<Record<ChannelPermissionSetting, GroupSettingValue>>;
}

/** Inserts the channel and sends `stream` op `create` to those who can see it (subscribers get theirs on subscribing). */
export function createChannel(srv: ServerState, creator: UserRow, c: NewChannel): ChannelRow {
  const recipientId = Number(srv.db.prepare("INSERT INTO recipients (type) VALUES ('channel')").run().lastInsertRowid);
  const rendered = c.description === '' ? '' : renderMarkdown(srv, c.description, { senderId: creator.id }).html;
  const id = Number(
    srv.db
      .prepare(
        `INSERT INTO channels (name, description, rendered_description, invite_only, is_web_public, history_public_to_subscribers,
           message_retention_days, topics_policy, is_default, date_created, creator_id, recipient_id, permissions)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        c.name,
        c.description,
        rendered,
        c.invite_only ? 1 : 0,
        c.is_web_public ? 1 : 0,
        c.history_public_to_subscribers ? 1 : 0,
        c.message_retention_days,
        c.topics_policy,
        c.is_default ? 1 : 0,
        seconds(srv.clock),
        creator.id,
        recipientId,
        JSON.stringify(c.permissions),
      ).lastInsertRowid,
  );
  srv.db.prepare('UPDATE recipients SET channel_id = ? WHERE id = ?').run(id, recipientId);
  const ch = getChannel(srv, id)!;
  const viewers = usersWithMetadataAccess(srv, ch);
  if (viewers.length > 0) emit(srv, viewers, { type: 'stream', op: 'create', streams: [apiChannel(srv, ch)] });
  return ch;
}

export interface SubscribeResult {
  /** [user, channel] pairs newly subscribed. */
  readonly subscribed: Array<[UserRow, ChannelRow]>;
  readonly alreadySubscribed: Array<[UserRow, ChannelRow]>;
}

function nextColor(srv: ServerState, userId: number): string {
  const used = new Set(srv.db.prepare('SELECT color FROM subscriptions WHERE user_id = ?').pluck().all(userId) as string[]);
  const count = used.size;
  return STREAM_COLORS.find((c) => !used.has(c)) ?? STREAM_COLORS[count % STREAM_COLORS.length]!;
}

/** Subscribes every user to every channel (no permission checks: callers decide), with the events. */
export function bulkSubscribe(srv: ServerState, users: readonly UserRow[], channels: readonly ChannelRow[]): SubscribeResult {
  const subscribed: Array<[UserRow, ChannelRow]> = [];
  const alreadySubscribed: Array<[UserRow, ChannelRow]> = [];
  for (const ch of channels) {
    // Who could see the channel before (for `stream` op `create` to those who newly can).
    const sawBefore = new Map(users.map((u) => [u.id, hasMetadataAccess(srv, u, ch)]));
    for (const u of users) {
      if (isSubscribed(srv, u.id, ch.id)) {
        alreadySubscribed.push([u, ch]);
        continue;
      }
      const existing = srv.db.prepare('SELECT 1 FROM subscriptions WHERE user_id = ? AND channel_id = ?').get(u.id, ch.id);
      if (existing) srv.db.prepare('UPDATE subscriptions SET active = 1 WHERE user_id = ? AND channel_id = ?').run(u.id, ch.id);
      else srv.db.prepare('INSERT INTO subscriptions (user_id, channel_id, color) VALUES (?, ?, ?)').run(u.id, ch.id, nextColor(srv, u.id));
      subscribed.push([u, ch]);
    }
    const added = subscribed.filter(([, c]) => c.id === ch.id).map(([u]) => u);
    if (added.length === 0) continue;
    const addedIds = new Set(added.map((u) => u.id));
    const newViewers = added.filter((u) => !sawBefore.get(u.id)).map((u) => u.id);
    if (newViewers.length > 0) emit(srv, newViewers, { type: 'stream', op: 'create', streams: [apiChannel(srv, ch)] });
    const peers = usersWithMetadataAccess(srv, ch).filter((id) => !addedIds.has(id));
    if (peers.length > 0) emit(srv, peers, { type: 'subscription', op: 'peer_add', stream_ids: [ch.id], user_ids: [...addedIds].sort((a, b) => a - b) });
  }
  // One `subscription` op `add` per user with all their new channels.
  const byUser = new Map<number, ChannelRow[]>();
  for (const [u, ch] of subscribed) byUser.set(u.id, [...(byUser.get(u.id) ?? []), ch]);
  for (const [userId, chs] of byUser) {
    emit(srv, [userId], {
      type: 'subscription',
      op: 'add',
      subscriptions: chs.map((ch) => apiSubscription(srv, userId, getChannel(srv, ch.id)!, { subscribers: true })),
    });
  }
  return { subscribed, alreadySubscribed };
}

export interface UnsubscribeResult {
  readonly removed: Array<[UserRow, ChannelRow]>;
  readonly notRemoved: Array<[UserRow, ChannelRow]>;
}

export function bulkUnsubscribe(srv: ServerState, users: readonly UserRow[], channels: readonly ChannelRow[]): UnsubscribeResult {
  const removed: Array<[UserRow, ChannelRow]> = [];
  const notRemoved: Array<[UserRow, ChannelRow]> = [];
  for (const ch of channels) {
    const gone: number[] = [];
    for (const u of users) {
      if (!isSubscribed(srv, u.id, ch.id)) {
        notRemoved.push([u, ch]);
        continue;
      }
      srv.db.prepare('UPDATE subscriptions SET active = 0 WHERE user_id = ? AND channel_id = ?').run(u.id, ch.id);
      removed.push([u, ch]);
      gone.push(u.id);
    }
    if (gone.length === 0) continue;
    const peers = usersWithMetadataAccess(srv, ch).filter((id) => !gone.includes(id));
    if (peers.length > 0) emit(srv, peers, { type: 'subscription', op: 'peer_remove', stream_ids: [ch.id], user_ids: gone.sort((a, b) => a - b) });
  }
  const byUser = new Map<number, ChannelRow[]>();
  for (const [u, ch] of removed) byUser.set(u.id, [...(byUser.get(u.id) ?? []), ch]);
  for (const [userId, chs] of byUser) {
    emit(srv, [userId], { type: 'subscription', op: 'remove', subscriptions: chs.map((c) => ({ name: c.name, stream_id: c.id })) });
  }
  return { removed, notRemoved };
}
