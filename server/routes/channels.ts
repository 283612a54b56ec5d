/**
 * Channels and subscriptions: POST (see subscribe.ts), GET and DELETE /users/me/subscriptions,
 * the personal channel settings (POST /users/me/subscriptions/properties),
 * GET /streams with Zulip's include_* filters, a channel's topics (GET /users/me/{id}/topics) and
 * its subscribers (GET /streams/{id}/members).
 */
import * as z from 'zod';
import { badRequest, invalidParam } from '../http/errors.js';
import { getChannel, getChannelByName, isSubscribed, subscriberIds, type ChannelRow } from '../model/access.js';
import { channelTopicHistory } from '../model/channel-topics.js';
import { apiChannel, apiSubscription, hasChannelPermission, subscribedChannelIds } from '../model/channels.js';
import { checkedSubscriptionProperty, setSubscriptionProperty } from '../model/subscription-properties.js';
import { bulkUnsubscribe, hasContentAccess, hasMetadataAccess } from '../model/subscriptions.js';
import { isAdmin, isGuest } from '../model/users.js';
import { pathId, route, type ApiRouter, type Ctx } from './context.js';
import { resolvePrincipals, subscribe } from './subscribe.js';

/** Python's default string order (code points), which Zulip uses to sort channel lists by name. */
const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

function listSubscriptions({ srv, params, user }: Ctx) {
  const raw = params.raw('include_subscribers');
  let mode: boolean | 'partial' = false;
  if (raw !== undefined) {
    if (raw === 'true') mode = true;
    else if (raw === 'partial') mode = 'partial';
    else if (raw !== 'false') throw invalidParam('include_subscribers', raw, 'Invalid include_subscribers');
  }
  const rows = subscribedChannelIds(srv, user.id).map((id) => srv.db.prepare('SELECT * FROM channels WHERE id = ?').get(id) as ChannelRow);
  return { subscriptions: rows.map((ch) => apiSubscription(srv, user.id, ch, { subscribers: mode })).sort(byName) };
}

const namesSchema = z.array(z.string());
const principalsSchema = z.union([z.array(z.number().int()), z.array(z.string())]);

function unsubscribe({ srv, params, user }: Ctx) {
  const names = params.reqJson('subscriptions', namesSchema);
  const principals = params.json('principals', principalsSchema);
  const targets = principals && principals.length > 0 ? resolvePrincipals(srv, principals) : [user];
  const channels: ChannelRow[] = [];
  const missing: string[] = [];
  for (const n of names) {
    const ch = getChannelByName(srv, n.trim());
    if (ch) {
      if (!channels.some((c) => c.id === ch.id)) channels.push(ch);
    } else missing.push(n.trim());
  }
  if (missing.length > 0) throw badRequest(`Channel(s) (${missing.join(', ')}) do not exist`);
  const others = targets.filter((u) => u.id !== user.id && u.bot_owner_id !== user.id);
  if (others.length > 0 && !isAdmin(user)) {
    for (const ch of channels) {
      if (isGuest(user) || !hasMetadataAccess(srv, user, ch)) throw badRequest('Insufficient permission');
      if (!hasChannelPermission(srv, user.id, ch, 'can_remove_subscribers_group') && !hasChannelPermission(srv, user.id, ch, 'can_administer_channel_group')) {
        throw badRequest('Insufficient permission');
      }
    }
  }
  const result = bulkUnsubscribe(srv, targets, channels);
  return { removed: result.removed.map(([, ch]) => ch.name), not_removed: result.notRemoved.map(([, ch]) => ch.name) };
}

const propertyChangesSchema = z.array(z.object({ stream_id: z.number().int(), property: z.string(), value: z.union([z.boolean(), z.string()]) }));

/**
 * POST /users/me/subscriptions/properties: every change's property and value are checked first
 * (Zulip's request model), then each channel in order: one the user cannot reach is "Invalid
 * channel ID", one they are not subscribed to "Not subscribed to channel ID N". The handler runs
 * in one transaction, so a refused change leaves the earlier ones of the request unapplied too.
 */
function updateSubscriptionProperties({ srv, params, user }: Ctx) {
  const changes = params.reqJson('subscription_data', propertyChangesSchema).map((c) => ({ ...c, property: checkedSubscriptionProperty(c.property, c.value) }));
  for (const c of changes) {
    const ch = getChannel(srv, c.stream_id);
    if (!ch || !hasContentAccess(srv, user, ch)) throw badRequest('Invalid channel ID');
    if (!isSubscribed(srv, user.id, ch.id)) throw badRequest(`Not subscribed to channel ID ${ch.id}`);
    setSubscriptionProperty(srv, user.id, ch.id, c.property, c.value);
  }
}

function getStreams({ srv, params, user }: Ctx) {
  const includePublic = params.bool('include_public') ?? true;
  const includeWebPublic = params.bool('include_web_public') ?? false;
  const includeSubscribed = params.bool('include_subscribed') ?? true;
  const excludeArchived = params.bool('exclude_archived') ?? true;
  const includeAllActive = params.bool('include_all_active') ?? false;
  const includeAll = (params.bool('include_all') ?? false) || includeAllActive;
  const includeDefault = params.bool('include_default') ?? false;
  const includeOwnerSubscribed = params.bool('include_owner_subscribed') ?? false;
  const includeCanAccessContent = params.bool('include_can_access_content') ?? false;
  if (includeAllActive && !isAdmin(user)) throw badRequest('User not authorized for this query');

  const all = (srv.db.prepare('SELECT * FROM channels ORDER BY id').all() as ChannelRow[]).filter((c) => !excludeArchived || c.is_archived === 0);
  const subscribed = new Set(subscribedChannelIds(srv, user.id));
  const ownerSubscribed = includeOwnerSubscribed && user.is_bot && user.bot_owner_id !== null ? new Set(subscribedChannelIds(srv, user.bot_owner_id)) : new Set<number>();
  const picked = all.filter((ch) => {
    if (includeAll) return hasMetadataAccess(srv, user, ch);
    if (includePublic && !isGuest(user) && ch.invite_only === 0) return true;
    if (includeWebPublic && ch.is_web_public === 1) return true;
    if (includeSubscribed && subscribed.has(ch.id)) return true;
    if (includeDefault && ch.is_default === 1) return true;
    if (ownerSubscribed.has(ch.id)) return true;
    return includeCanAccessContent && hasContentAccess(srv, user, ch);
  });
  return { streams: picked.map((ch) => apiChannel(srv, ch)).sort(byName) };
}

/**
 * GET /users/me/{stream_id}/topics: Zulip's get_topics_backend, which needs content access to the
 * channel (access_stream_by_id); a missing or inaccessible channel is "Invalid channel ID".
 */
function getTopics(ctx: Ctx) {
  const { srv, user, params } = ctx;
  const id = pathId(ctx, 'stream_id');
  const allowEmptyTopicName = params.bool('allow_empty_topic_name') ?? false;
  const ch = getChannel(srv, id);
  if (!ch || !hasContentAccess(srv, user, ch)) throw badRequest('Invalid channel ID');
  return { topics: channelTopicHistory(srv, user.id, ch, allowEmptyTopicName) };
}

/**
 * GET /streams/{stream_id}/members (referenced operation "get subscribers"): the channel's active
 * subscribers' ids, for anyone with metadata access to it (Zulip's access_stream_by_id without
 * content access; a private channel's list is not shown to others). Otherwise "Invalid channel ID".
 */
function getMembers(ctx: Ctx) {
  const { srv, user } = ctx;
  const ch = getChannel(srv, pathId(ctx, 'stream_id'));
  if (!ch || !hasMetadataAccess(srv, user, ch)) throw badRequest('Invalid channel ID');
  return { subscribers: subscriberIds(srv, ch.id) };
}

export function registerChannelRoutes(r: ApiRouter): void {
  route(r, 'GET', '/streams/:stream_id/members', getMembers);
  route(r, 'GET', '/users/me/:stream_id/topics', getTopics);
  route(r, 'POST', '/users/me/subscriptions', subscribe);
  route(r, 'GET', '/users/me/subscriptions', listSubscriptions);
  route(r, 'DELETE', '/users/me/subscriptions', unsubscribe);
  route(r, 'POST', '/users/me/subscriptions/properties', updateSubscriptionProperties);
  route(r, 'GET', '/streams', getStreams);
}
