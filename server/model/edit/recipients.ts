/**
 * Who hears about an action on existing messages (Zulip's event_recipient_ids_for_action_on_messages):
 * DMs: whoever has a user_messages row. Channels with protected history: subscribers who received
 * the message. Private channels with shared history: the subscribers. Public channels: the
 * subscribers plus non-guests holding a user_messages row (former subscribers, starrers).
 */
import type { ServerState } from '../../state.js';
import { subscriberIds, type ChannelRow } from '../access.js';

export function userMessageHolders(srv: ServerState, messageIds: readonly number[]): Set<number> {
  if (messageIds.length === 0) return new Set();
  const marks = messageIds.map(() => '?').join(',');
  const rows = srv.db
    .prepare(`SELECT DISTINCT um.user_id FROM user_messages um JOIN users u ON u.id = um.user_id WHERE um.message_id IN (${marks}) AND u.is_active = 1`)
    .pluck()
    .all(...messageIds) as number[];
  return new Set(rows);
}

export function eventRecipientIds(srv: ServerState, messageIds: readonly number[], channel: ChannelRow | null): Set<number> {
  const holders = userMessageHolders(srv, messageIds);
  if (!channel) return holders;
  const subscribers = new Set(subscriberIds(srv, channel.id));
  if (!channel.history_public_to_subscribers) return new Set([...holders].filter((id) => subscribers.has(id)));
  if (channel.invite_only) return subscribers;
  const guests = new Set(srv.db.prepare('SELECT id FROM users WHERE role = 600').pluck().all() as number[]);
  for (const id of holders) if (!guests.has(id)) subscribers.add(id);
  return subscribers;
}
