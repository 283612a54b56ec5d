/**
 * Scheduled messages: GET, POST /scheduled_messages; PATCH, DELETE /scheduled_messages/{id}
 * (spec "Edit a scheduled message", docs/zulip-behaviour.md "Scheduled messages"; validation order as Zulip's views).
 */
import * as z from 'zod';
import { badRequest } from '../http/errors.js';
import type { Params } from '../http/params.js';
import {
  checkDeliveryTime,
  createScheduledMessage,
  deleteScheduledMessage,
  listScheduledMessages,
  notInFuture,
  requireScheduledMessage,
  resolveTarget,
  storedTarget,
  updateScheduledMessage,
} from '../model/scheduled-messages.js';
import { pathId, route, type ApiRouter } from './context.js';

const TYPES = ['direct', 'channel', 'stream', 'private'] as const;
const toSchema = z.union([z.number().int(), z.array(z.number().int())]);

/** `direct`/`private` → `private`, `channel`/`stream` → `stream` (the stored, legacy names). */
const legacyType = (t: (typeof TYPES)[number]): 'stream' | 'private' => (t === 'direct' || t === 'private' ? 'private' : 'stream');

function readType(params: Params, required: boolean) {
  const t = params.choice('type', TYPES);
  if (t === undefined && required) params.reqStr('type');
  return t === undefined ? undefined : legacyType(t);
}

export function registerScheduledMessageRoutes(r: ApiRouter): void {
  route(r, 'GET', '/scheduled_messages', ({ srv, user }) => ({ scheduled_messages: listScheduledMessages(srv, user.id) }));

  route(r, 'POST', '/scheduled_messages', ({ srv, user, params }) => {
    const type = readType(params, true)!;
    const to = params.reqJson('to', toSchema);
    const content = params.reqStr('content');
    const topic = params.str('topic');
    const deliverAt = params.reqInt('scheduled_delivery_timestamp');
    const readBySender = params.bool('read_by_sender');
    checkDeliveryTime(srv, deliverAt);
    const target = resolveTarget(srv, user, type, to, topic);
    return { scheduled_message_id: createScheduledMessage(srv, user, { target, content, deliverAt, readBySender }) };
  });

  route(r, 'PATCH', '/scheduled_messages/:scheduled_message_id', (ctx) => {
    const { srv, user, params } = ctx;
    const id = pathId(ctx, 'scheduled_message_id');
    const type = readType(params, false);
    const to = params.json('to', toSchema);
    const topic = params.str('topic');
    const content = params.str('content');
    const deliverAt = params.int('scheduled_delivery_timestamp');
    if (type === undefined && to === undefined && topic === undefined && content === undefined && deliverAt === undefined) {
      throw badRequest('Nothing to change');
    }
    if (type !== undefined && to === undefined) throw badRequest('Recipient required when updating type of scheduled message.');
    if (type === 'stream' && topic === undefined) throw badRequest('Topic required when updating scheduled message type to channel.');
    if (deliverAt !== undefined) checkDeliveryTime(srv, deliverAt);

    const row = requireScheduledMessage(srv, user.id, id);
    if (row.delivered_message_id !== null) throw badRequest('Scheduled message was already sent');
    // A message whose send failed needs a new time (spec: required in that case).
    if (row.failed === 1 && deliverAt === undefined) throw notInFuture();

    const current = storedTarget(row);
    const newType = type ?? row.type;
    let target;
    if (to !== undefined || type !== undefined || (topic !== undefined && newType === 'stream')) {
      const newTo = to ?? (current.kind === 'stream' ? current.channelId : current.to);
      // The topic is ignored for direct messages; a channel message keeps its topic unless given.
      const newTopic = topic ?? (current.kind === 'stream' ? current.topic : undefined);
      target = resolveTarget(srv, user, newType, newTo, newType === 'stream' ? newTopic : undefined);
    }
    updateScheduledMessage(srv, user, row, { target, content, deliverAt });
  });

  route(r, 'DELETE', '/scheduled_messages/:scheduled_message_id', (ctx) => {
    deleteScheduledMessage(ctx.srv, ctx.user.id, pathId(ctx, 'scheduled_message_id'));
  });
}
