/**
 * `subscription` (our personal side of channels) and `stream` (the channels themselves). A channel
 * rename also rewrites `display_recipient` of its cached messages, since `GET /messages` reports
 * the current name.
 */
import type { EventOf } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { deleteChannel, deleteSubscription, getChannel, patchChannelJson, patchSubscriptionProperty, putChannel, putSubscription } from '../../db/queries/channels.js';
import { renameChannelInMessages } from '../../db/queries/message-rows.js';
import type { ChangeCollector } from '../../db/changes.js';
import type { HandlerContext } from './types.js';

export function onSubscription(db: LocalDb, e: EventOf<'subscription'>, _ctx: HandlerContext, changes: ChangeCollector): void {
  changes.touched('subscriptions');
  switch (e.op) {
    case 'add':
      for (const s of e.subscriptions) {
        putChannel(db, s);
        putSubscription(db, s);
      }
      changes.touched('channels');
      return;
    case 'remove':
      for (const s of e.subscriptions) deleteSubscription(db, s.stream_id);
      return;
    case 'update':
      patchSubscriptionProperty(db, e.stream_id, e.property, e.value);
      return;
    case 'peer_add':
    case 'peer_remove':
      for (const channelId of e.stream_ids) updatePeers(db, channelId, e.user_ids, e.op === 'peer_add');
      changes.touched('channels');
      return;
  }
}

/** Subscriber lists where we hold them, and the subscriber count either way. */
function updatePeers(db: LocalDb, channelId: number, userIds: readonly number[], add: boolean): void {
  const stored = getChannel(db, channelId);
  if (!stored) return;
  let delta = add ? userIds.length : -userIds.length;
  const sub = stored.subscription;
  if (sub?.subscribers) {
    const set = new Set(sub.subscribers);
    const before = set.size;
    for (const id of userIds) {
      if (add) set.add(id);
      else set.delete(id);
    }
    delta = set.size - before;
    patchChannelJson(db, 'subscriptions', channelId, { subscribers: [...set].sort((a, b) => a - b) });
  }
  const count = stored.channel.subscriber_count;
  if (count !== undefined) {
    const next = Math.max(0, count + delta);
    patchChannelJson(db, 'channels', channelId, { subscriber_count: next });
    if (sub) patchChannelJson(db, 'subscriptions', channelId, { subscriber_count: next });
  }
}

export function onStream(db: LocalDb, e: EventOf<'stream'>, _ctx: HandlerContext, changes: ChangeCollector): void {
  changes.touched('channels');
  switch (e.op) {
    case 'create':
      for (const c of e.streams) putChannel(db, c);
      return;
    case 'delete':
      for (const id of e.stream_ids) deleteChannel(db, id);
      changes.touched('subscriptions');
      return;
    case 'update': {
      const patch: Record<string, unknown> = { [e.property]: e.value };
      // Extras the server sends with some properties (description, privacy).
      if (e.rendered_description !== undefined) patch.rendered_description = e.rendered_description;
      if (e.history_public_to_subscribers !== undefined) patch.history_public_to_subscribers = e.history_public_to_subscribers;
      if (e.is_web_public !== undefined) patch.is_web_public = e.is_web_public;
      patchChannelJson(db, 'channels', e.stream_id, patch);
      if (patchChannelJson(db, 'subscriptions', e.stream_id, patch)) changes.touched('subscriptions');
      if (e.property === 'name' && typeof e.value === 'string') renameInMessages(db, e.stream_id, e.value, changes);
      return;
    }
  }
}

function renameInMessages(db: LocalDb, channelId: number, name: string, changes: ChangeCollector): void {
  const ids = renameChannelInMessages(db, channelId, name);
  for (const id of ids) changes.messageUpdated(id);
}
