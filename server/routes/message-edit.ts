/**
 * Edits area routes: PATCH /messages/{id} (edit / move), GET /messages/{id}/history,
 * DELETE /messages/{id}, POST /streams/{id}/delete_topic, POST /typing,
 * POST /messages/{id}/typing and the legacy POST /message_edit_typing.
 */
import * as z from 'zod';
import { confusingParams } from '../http/errors.js';
import { deleteMessageById, deleteTopic, editMessage, getMessageHistory } from '../model/message-edit.js';
import { sendEditTyping, sendTyping } from '../model/typing.js';
import { pathId, route, type ApiRouter, type Ctx } from './context.js';

const PROPAGATE_MODES = ['change_one', 'change_later', 'change_all'] as const;
const TYPING_OPS = ['start', 'stop'] as const;

function updateMessage(ctx: Ctx) {
  const { srv, user, params } = ctx;
  const messageId = pathId(ctx, 'message_id');
  const topic = params.str('topic');
  const subject = params.str('subject');
  if (topic !== undefined && subject !== undefined) throw confusingParams('topic', 'subject');
  const propagateMode = params.choice('propagate_mode', PROPAGATE_MODES) ?? 'change_one';
  const sendNotificationToOldThread = params.bool('send_notification_to_old_thread') ?? false;
  const sendNotificationToNewThread = params.bool('send_notification_to_new_thread') ?? true;
  const content = params.str('content');
  const prevContentSha256 = params.str('prev_content_sha256');
  const streamId = params.int('stream_id', { min: 0 });
  const result = editMessage(srv, user, messageId, {
    topic: topic ?? subject,
    propagateMode,
    sendNotificationToOldThread,
    sendNotificationToNewThread,
    content,
    prevContentSha256,
    streamId,
  });
  return { detached_uploads: result.detachedUploads };
}

function history(ctx: Ctx) {
  const messageId = pathId(ctx, 'message_id');
  const allowEmptyTopicName = ctx.params.bool('allow_empty_topic_name') ?? false;
  return { message_history: getMessageHistory(ctx.srv, ctx.user, messageId, allowEmptyTopicName) };
}

function deleteMessage(ctx: Ctx) {
  deleteMessageById(ctx.srv, ctx.user, pathId(ctx, 'message_id'));
}

function deleteTopicRoute(ctx: Ctx) {
  const channelId = pathId(ctx, 'stream_id');
  const topicName = ctx.params.reqStr('topic_name');
  return deleteTopic(ctx.srv, ctx.user, channelId, topicName);
}

function typing(ctx: Ctx) {
  const { params } = ctx;
  const type = params.choice('type', ['direct', 'stream', 'channel'] as const) ?? 'direct';
  const to = params.json('to', z.array(z.number().int()));
  const streamId = params.int('stream_id');
  const topic = params.str('topic');
  const op = params.choice('op', TYPING_OPS) ?? requiredOp(ctx);
  sendTyping(ctx.srv, ctx.user, { type, op, to, streamId, topic });
}

function editTyping(ctx: Ctx) {
  const messageId = pathId(ctx, 'message_id');
  const op = ctx.params.choice('op', TYPING_OPS) ?? requiredOp(ctx);
  sendEditTyping(ctx.srv, ctx.user, messageId, op);
}

function legacyEditTyping(ctx: Ctx) {
  const op = ctx.params.choice('op', TYPING_OPS) ?? requiredOp(ctx);
  const messageId = ctx.params.reqInt('message_id', { min: 0 });
  sendEditTyping(ctx.srv, ctx.user, messageId, op);
}

/** Throws the "missing argument" error for `op`. */
function requiredOp(ctx: Ctx): never {
  ctx.params.reqStr('op');
  throw new Error('unreachable');
}

export function registerMessageEditRoutes(r: ApiRouter): void {
  route(r, 'PATCH', '/messages/:message_id', updateMessage);
  route(r, 'DELETE', '/messages/:message_id', deleteMessage);
  route(r, 'GET', '/messages/:message_id/history', history);
  route(r, 'POST', '/streams/:stream_id/delete_topic', deleteTopicRoute);
  route(r, 'POST', '/typing', typing);
  route(r, 'POST', '/messages/:message_id/typing', editTyping);
  route(r, 'POST', '/message_edit_typing', legacyEditTyping);
}
