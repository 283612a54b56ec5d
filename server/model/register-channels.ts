/**
 * register's `subscription` and `stream` parts (docs/zulip-behaviour.md "Register"): the user's subscriptions, the channels
 * they left (`unsubscribed`) and the visible ones they never joined (`never_subscribed`).
 * Archived channels appear only with the `archived_channels` capability.
 */
import type { ServerState } from '../state.js';
import { canAccessChannel, type ChannelRow } from './access.js';
import { apiChannel, apiSubscription } from './channels.js';
import { getUser } from './users.js';

export type IncludeSubscribers = boolean | 'partial';

interface SubRow {
  channel_id: number;
  active: number;
}

export function subscriptionState(srv: ServerState, userId: number, opts: { subscribers: IncludeSubscribers; archived: boolean }) {
  const me = getUser(srv, userId)!;
  const channels = (srv.db.prepare('SELECT * FROM channels ORDER BY id').all() as ChannelRow[]).filter((c) => opts.archived || c.is_archived === 0);
  const subs = new Map((srv.db.prepare('SELECT channel_id, active FROM subscriptions WHERE user_id = ?').all(userId) as SubRow[]).map((s) => [s.channel_id, s]));
  const subscriptions = [];
  const unsubscribed = [];
  const neverSubscribed = [];
  for (const ch of channels) {
    const sub = subs.get(ch.id);
    if (sub?.active === 1) subscriptions.push(apiSubscription(srv, userId, ch, { subscribers: opts.subscribers }));
    else if (!canAccessChannel(srv, me, ch)) continue;
    else if (sub) unsubscribed.push(apiSubscription(srv, userId, ch, { subscribers: opts.subscribers }));
    else neverSubscribed.push(withSubscribers(srv, apiChannel(srv, ch), userId, ch, opts.subscribers));
  }
  return { subscriptions, unsubscribed, never_subscribed: neverSubscribed };
}

/** never_subscribed entries carry `subscribers` like subscriptions when they were requested. */
function withSubscribers(srv: ServerState, base: ReturnType<typeof apiChannel>, userId: number, ch: ChannelRow, mode: IncludeSubscribers) {
  if (mode === false) return base;
  const { subscribers, partial_subscribers } = apiSubscription(srv, userId, ch, { subscribers: mode });
  return { ...base, ...(subscribers ? { subscribers } : {}), ...(partial_subscribers ? { partial_subscribers } : {}) };
}

/** register's `streams`: every channel the user can see (public or subscribed). */
export function streamsState(srv: ServerState, userId: number, archived: boolean) {
  const me = getUser(srv, userId)!;
  return (srv.db.prepare('SELECT * FROM channels ORDER BY id').all() as ChannelRow[])
    .filter((c) => (archived || c.is_archived === 0) && canAccessChannel(srv, me, c))
    .map((c) => apiChannel(srv, c));
}

/** register's `realm_default_streams`: ids of the default channels. */
export function defaultChannelIds(srv: ServerState): number[] {
  return srv.db.prepare('SELECT id FROM channels WHERE is_default = 1 AND is_archived = 0 ORDER BY id').pluck().all() as number[];
}
