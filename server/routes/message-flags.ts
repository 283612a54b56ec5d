/**
 * Personal flags: POST /messages/flags, POST /messages/flags/narrow, and the deprecated
 * POST /mark_topic_as_read (plus Zulip's mark_stream_as_read and mark_all_as_read).
 */
import * as z from 'zod';
import { badRequest, missingParam } from '../http/errors.js';
import { getChannel } from '../model/access.js';
import { fetchRange, parseAnchor } from '../model/message-fetch.js';
import { checkEditableFlag, markAllRead, markChannelRead, updateMessageFlags } from '../model/message-flags.js';
import { sql } from '../db/statements.js';
import { parseNarrow } from '../model/narrow.js';
import { getRealm } from '../model/realm.js';
import { canAccessChannel } from '../model/access.js';
import type { ServerState } from '../state.js';
import type { UserRow } from '../model/users.js';
import { topicKey } from '../../common/topic-key.js';
import { route, type ApiRouter } from './context.js';

/** Zulip's MAX_MESSAGES_PER_UPDATE. */
const MAX_MESSAGES_PER_UPDATE = 5000;

function readOp(params: { str(name: string): string | undefined }): 'add' | 'remove' {
  const op = params.str('op');
  if (op === undefined) throw missingParam('op');
  if (op !== 'add' && op !== 'remove') throw badRequest(`Invalid message flag operation: '${op}'`);
  return op;
}

function accessChannel(srv: ServerState, user: UserRow, id: number) {
  const ch = getChannel(srv, id);
  if (!ch || !canAccessChannel(srv, user, ch)) throw badRequest('Invalid channel ID');
  return ch;
}

export function registerMessageFlagRoutes(r: ApiRouter): void {
  route(r, 'POST', '/messages/flags', ({ srv, user, params }) => {
    const messages = params.reqJson('messages', z.array(z.number().int()));
    const op = readOp(params);
    const flag = checkEditableFlag(params.reqStr('flag'));
    const res = updateMessageFlags(srv, user, op, flag, messages);
    return {
      messages: res.changed,
      ...(flag === 'read' && op === 'remove' ? { ignored_because_not_subscribed_channels: res.ignoredChannelIds } : {}),
    };
  });

  route(r, 'POST', '/messages/flags/narrow', ({ srv, user, params }) => {
    const anchorRaw = params.reqStr('anchor');
    const includeAnchor = params.bool('include_anchor') ?? true;
    let numBefore = params.reqInt('num_before', { min: 0 });
    let numAfter = params.reqInt('num_after', { min: 0 });
    const narrow = parseNarrow(params.reqJson('narrow', z.unknown()));
    const op = readOp(params);
    const flag = checkEditableFlag(params.reqStr('flag'));
    const anchor = parseAnchor(anchorRaw);
    if (numBefore > 0 && numAfter > 0 && !includeAnchor) throw badRequest('The anchor can only be excluded at an end of the range');
    // Zulip clamps the range to MAX_MESSAGES_PER_UPDATE.
    numBefore = Math.min(numBefore, Math.max(MAX_MESSAGES_PER_UPDATE - numAfter, MAX_MESSAGES_PER_UPDATE / 2));
    numAfter = Math.min(numAfter, MAX_MESSAGES_PER_UPDATE - numBefore);
    const range = fetchRange(srv, user, narrow, { anchor, includeAnchor, numBefore, numAfter });
    const res = updateMessageFlags(srv, user, op, flag, range.ids);
    return {
      processed_count: range.ids.length,
      updated_count: res.changed.length,
      first_processed_id: range.ids[0] ?? null,
      last_processed_id: range.ids[range.ids.length - 1] ?? null,
      found_oldest: range.foundOldest,
      found_newest: range.foundNewest,
      ...(flag === 'read' && op === 'remove' ? { ignored_because_not_subscribed_channels: res.ignoredChannelIds } : {}),
    };
  });

  route(r, 'POST', '/mark_topic_as_read', ({ srv, user, params }) => {
    const channelId = params.reqInt('stream_id');
    const topicRaw = params.reqStr('topic_name');
    const ch = accessChannel(srv, user, channelId);
    const topic = topicRaw === getRealm(srv).empty_topic_display_name ? '' : topicRaw;
    const exists = sql(srv, 'SELECT 1 FROM user_messages um JOIN messages m ON m.id = um.message_id WHERE um.user_id = ? AND m.channel_id = ? AND m.topic_key = ? LIMIT 1').get(
      user.id,
      ch.id,
      topicKey(topic),
    );
    if (!exists) throw badRequest(`No such topic '${topicRaw}'`);
    markChannelRead(srv, user, ch.id, topic);
  });

  route(r, 'POST', '/mark_stream_as_read', ({ srv, user, params }) => {
    const ch = accessChannel(srv, user, params.reqInt('stream_id'));
    markChannelRead(srv, user, ch.id, null);
  });

  route(r, 'POST', '/mark_all_as_read', ({ srv, user }) => {
    markAllRead(srv, user);
    return { complete: true };
  });
}
