/**
 * Channels and who may see what: shared by every area that reads or writes messages.
 *
 * Access rules (Zulip's): a user can read a channel message when they received it (a
 * user_messages row), or the channel is public and they are not a guest, or the channel is
 * private with shared history and they are subscribed. Guests see only channels they are
 * subscribed to. DMs are visible to their participants (who all have user_messages rows).
 */
import type { ServerState } from '../state.js';
import { isGuest, type UserRow } from './users.js';

export interface ChannelRow {
  id: number;
  name: string;
  description: string;
  rendered_description: string;
  invite_only: number;
  is_web_public: number;
  history_public_to_subscribers: number;
  message_retention_days: number | null;
  topics_policy: string;
  is_default: number;
  is_archived: number;
  date_created: number;
  creator_id: number | null;
  first_message_id: number | null;
  recipient_id: number;
  permissions: string;
}

export function getChannel(srv: ServerState, id: number): ChannelRow | undefined {
  return srv.db.prepare('SELECT * FROM channels WHERE id = ?').get(id) as ChannelRow | undefined;
}

export function getChannelByName(srv: ServerState, name: string): ChannelRow | undefined {
  return srv.db.prepare('SELECT * FROM channels WHERE name = ?').get(name) as ChannelRow | undefined;
}

export function isSubscribed(srv: ServerState, userId: number, channelId: number): boolean {
  return !!srv.db.prepare('SELECT 1 FROM subscriptions WHERE user_id = ? AND channel_id = ? AND active = 1').get(userId, channelId);
}

export function subscriberIds(srv: ServerState, channelId: number): number[] {
  return srv.db
    .prepare('SELECT s.user_id FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE s.channel_id = ? AND s.active = 1 AND u.is_active = 1 ORDER BY s.user_id')
    .pluck()
    .all(channelId) as number[];
}

/** Whether the user may know the channel exists and read its (shared) history. */
export function canAccessChannel(srv: ServerState, user: UserRow, ch: ChannelRow): boolean {
  if (isSubscribed(srv, user.id, ch.id)) return true;
  if (isGuest(user)) return false;
  return ch.invite_only === 0;
}

/** Channel messages the user may read without having received them (public, or shared history). */
export function hasHistoricalAccess(srv: ServerState, user: UserRow, ch: ChannelRow): boolean {
  if (isGuest(user)) return isSubscribed(srv, user.id, ch.id) && ch.history_public_to_subscribers === 1;
  if (ch.invite_only === 0) return true;
  return isSubscribed(srv, user.id, ch.id) && ch.history_public_to_subscribers === 1;
}

export interface MessageAccessRow {
  id: number;
  type: 'stream' | 'private';
  channel_id: number | null;
}

export function canAccessMessage(srv: ServerState, user: UserRow, m: MessageAccessRow): boolean {
  if (srv.db.prepare('SELECT 1 FROM user_messages WHERE user_id = ? AND message_id = ?').get(user.id, m.id)) return true;
  if (m.type !== 'stream' || m.channel_id === null) return false;
  const ch = getChannel(srv, m.channel_id);
  return !!ch && hasHistoricalAccess(srv, user, ch);
}

/** The recipient row of a DM conversation between these users (created on first use). */
export function dmRecipientId(srv: ServerState, userIds: readonly number[]): number {
  const key = [...new Set(userIds)].sort((a, b) => a - b).join(',');
  const found = srv.db.prepare('SELECT id FROM recipients WHERE dm_key = ?').pluck().get(key) as number | undefined;
  if (found !== undefined) return found;
  return Number(srv.db.prepare("INSERT INTO recipients (type, dm_key) VALUES ('dm', ?)").run(key).lastInsertRowid);
}
