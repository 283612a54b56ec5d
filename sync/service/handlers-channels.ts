/**
 * Handlers of the channels screen (spread into `handlers`): the store's answers (`allChannels`,
 * `channelCreation`, offline too), a channel's subscribers (the server's list online, a stored one
 * offline if any), and the two online-only commands, `createChannel` and `addSubscribers` (see
 * sync/protocol/outbox.ts for why they are not queued). Subscribing and unsubscribing oneself are
 * the queued `subscribe` / `unsubscribe` (handlers-outbox.ts).
 */
import { getStreamMembers, subscribe, type SubscribeArgs } from '../api/index.js';
import { channelName, getChannel, getChannels } from '../db/queries/channels.js';
import { getUserByEmail } from '../db/queries/users.js';
import { allChannels, channelCreation } from '../engine/channel-listing.js';
import { messageDeletion } from '../engine/message-permissions.js';
import type { AccountSession } from '../engine/session.js';
import { RpcFailure } from './errors.js';
import { setFields } from './fields.js';
import type { HandlerContext, Handlers } from './handlers.js';

type ChannelHandlers = Pick<Handlers, 'allChannels' | 'channelCreation' | 'messageDeletion' | 'channelSubscribers' | 'createChannel' | 'addSubscribers'>;

function live(ctx: HandlerContext): AccountSession {
  const s = ctx.session();
  if (!s.online) throw new RpcFailure('OFFLINE', 'this needs a connection to the server; nothing was changed', { state: s.status.state });
  return s;
}

/** `subscribed` / `already_subscribed` keys: user ids (FL 289), API emails before. */
function userIdOfKey(s: AccountSession, key: string): number | undefined {
  if (/^\d+$/.test(key)) return Number(key);
  return getUserByEmail(s.db, key)?.user.user_id;
}

/** Who the answer lists per channel name (lower-cased, as the server compares names). */
function byChannel(s: AccountSession, map: Record<string, string[]>): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const [key, names] of Object.entries(map)) {
    const id = userIdOfKey(s, key);
    if (id === undefined) continue;
    for (const n of names) {
      const k = n.toLowerCase();
      out.set(k, [...(out.get(k) ?? []), id].sort((a, b) => a - b));
    }
  }
  return out;
}

export const channelHandlers: ChannelHandlers = {
  allChannels: (ctx) => {
    const s = ctx.session();
    return allChannels(s.db, s.selfUserId);
  },
  channelCreation: (ctx) => {
    const s = ctx.session();
    return channelCreation(s.db, s.selfUserId);
  },
  messageDeletion: (ctx) => {
    const s = ctx.session();
    return messageDeletion(s.db, s.selfUserId);
  },
  channelSubscribers: async (ctx, req) => {
    const s = ctx.session();
    const stored = getChannel(s.db, req.channel_id);
    if (!stored) throw new RpcFailure('INVALID_REQUEST', `unknown channel ${req.channel_id}`);
    if (!s.online) {
      // Kept current by peer_add / peer_remove where the engine holds a list at all.
      const list = stored.subscription?.subscribers;
      if (list) return { channel_id: req.channel_id, user_ids: [...list].sort((a, b) => a - b), source: 'cache' as const };
      throw new RpcFailure('OFFLINE', 'the list of subscribers needs a connection to the server', { state: s.status.state });
    }
    const r = await getStreamMembers(s.conn, { streamId: req.channel_id });
    return { channel_id: req.channel_id, user_ids: [...r.subscribers].sort((a, b) => a - b), source: 'server' as const };
  },
  createChannel: async (ctx, req) => {
    const s = live(ctx);
    const self = s.selfUserId;
    if (self === undefined) throw new RpcFailure('UNAVAILABLE', 'the account has not finished its first sync yet; try again when the status is live');
    const name = req.name.trim();
    const known = getChannels(s.db).find((c) => c.channel.name.toLowerCase() === name.toLowerCase());
    if (known) throw new RpcFailure('INVALID_REQUEST', `a channel named “${known.channel.name}” exists already`);
    if (req.invite_only && req.is_web_public) throw new RpcFailure('INVALID_REQUEST', 'a channel is either private or web-public');
    const others = req.user_ids.filter((id) => id !== self);
    const args: SubscribeArgs = {
      subscriptions: [{ name, description: req.description }],
      // Principals replace the caller: the creator is listed too.
      ...(others.length > 0 ? { principals: [self, ...others] } : {}),
      announce: req.announce,
      invite_only: req.invite_only,
      is_web_public: req.is_web_public,
      is_default_stream: req.is_default_stream,
      ...(req.invite_only && req.history_public_to_subscribers !== undefined ? { history_public_to_subscribers: req.history_public_to_subscribers } : {}),
      ...setFields(req, [
        'message_retention_days',
        'topics_policy',
        'can_add_subscribers_group',
        'can_administer_channel_group',
        'can_send_message_group',
        'can_remove_subscribers_group',
      ]),
    };
    const r = await subscribe(s.conn, args);
    const k = name.toLowerCase();
    const ids = [...(byChannel(s, r.subscribed).get(k) ?? []), ...(byChannel(s, r.already_subscribed).get(k) ?? [])];
    return { ok: true as const, subscribed_user_ids: [...new Set(ids)].sort((a, b) => a - b) };
  },
  addSubscribers: async (ctx, req) => {
    const s = live(ctx);
    const channels = [...new Set(req.channel_ids)].map((id) => {
      const name = channelName(s.db, id);
      if (name === undefined) throw new RpcFailure('INVALID_REQUEST', `unknown channel ${id}`);
      return { id, name };
    });
    const r = await subscribe(s.conn, {
      subscriptions: channels.map((c) => ({ name: c.name })),
      principals: [...new Set(req.user_ids)],
      authorization_errors_fatal: false,
    });
    const added = byChannel(s, r.subscribed);
    const already = byChannel(s, r.already_subscribed);
    const refused = new Set((r.unauthorized ?? []).map((n) => n.toLowerCase()));
    return {
      channels: channels.map((c) => {
        const k = c.name.toLowerCase();
        return {
          channel_id: c.id,
          name: c.name,
          subscribed_user_ids: added.get(k) ?? [],
          already_subscribed_user_ids: already.get(k) ?? [],
          unauthorized: refused.has(k),
        };
      }),
    };
  },
};
