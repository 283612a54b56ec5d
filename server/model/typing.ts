/**
 * Typing notifications (POST /typing) and typing-while-editing notifications
 * (POST /messages/{id}/typing, legacy POST /message_edit_typing), after Zulip's
 * zerver/actions/typing.py. Stateless: every request becomes one event, never stored.
 *
 * - `typing` (direct): to every participant (the sender included, as in Zulip) who is active and
 *   has `receives_typing_notifications`; `recipients` lists every participant.
 * - `typing` (channel): to the channel's subscribers with `receives_typing_notifications`, only on
 *   queues with the `stream_typing_notifications` capability; skipped for channels with more than
 *   100 subscribers (Zulip's MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS).
 * - `typing_edit_message`: to the users who would be notified if the edit were saved (the DM's
 *   participants, the channel's subscribers) with `receives_typing_notifications`, never the editor.
 */
import { badRequest } from '../http/errors.js';
import type { QueueView } from '../events/queues.js';
import { emit } from '../events/emit.js';
import type { ServerState } from '../state.js';
import { canAccessChannel, getChannel, subscriberIds, type ChannelRow } from './access.js';
import { hasChannelPermission } from './channels.js';
import { getRealm } from './realm.js';
import { getUserSetting } from './user-settings.js';
import { getUser, isAdmin, type UserRow } from './users.js';
import { checkCanEditContentForTyping, loadEditableMessage } from './edit/load.js';
import { normalizeTopicParam } from './edit/topics.js';

export type TypingOp = 'start' | 'stop';

/** Zulip's MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS. */
export const MAX_CHANNEL_SIZE_FOR_TYPING = 100;

const receivesTyping = (srv: ServerState, userId: number): boolean => {
  const u = getUser(srv, userId);
  return !!u && u.is_active === 1 && getUserSetting(srv, userId, 'receives_typing_notifications') === true;
};

/** A topic field as a queue without the `empty_topic_name` capability must see it. */
export function topicForQueue(srv: ServerState, q: QueueView, topic: string): string {
  return topic === '' && !q.options.capabilities.empty_topic_name ? getRealm(srv).empty_topic_display_name : topic;
}

function channelForTyping(srv: ServerState, actor: UserRow, channelId: number): ChannelRow {
  const ch = getChannel(srv, channelId);
  if (!ch || !canAccessChannel(srv, actor, ch)) throw badRequest('Invalid channel ID');
  if (ch.is_archived) throw badRequest('Invalid channel ID');
  if (!isAdmin(actor) && !hasChannelPermission(srv, actor.id, ch, 'can_send_message_group')) {
    throw badRequest('You do not have permission to post in this channel.');
  }
  return ch;
}

function typingUser(u: UserRow) {
  return { user_id: u.id, email: u.email };
}

export interface TypingArgs {
  readonly type: 'direct' | 'stream' | 'channel';
  readonly op: TypingOp;
  readonly to: readonly number[] | undefined;
  readonly streamId: number | undefined;
  readonly topic: string | undefined;
}

/** POST /typing. */
export function sendTyping(srv: ServerState, actor: UserRow, args: TypingArgs): void {
  if (args.type === 'direct') {
    if (args.to === undefined) throw badRequest("Missing 'to' argument");
    if (args.to.length === 0) throw badRequest("Empty 'to' list");
    if (!getUserSetting(srv, actor.id, 'send_private_typing_notifications')) {
      throw badRequest('User has disabled typing notifications for direct messages');
    }
    const ids = [...args.to];
    if (!ids.includes(actor.id)) ids.push(actor.id);
    const users = ids.map((id) => {
      const u = getUser(srv, id);
      if (!u) throw badRequest(`Invalid user ID ${id}`);
      return u;
    });
    const event = { type: 'typing', op: args.op, message_type: 'direct', sender: typingUser(actor), recipients: users.map(typingUser) };
    emit(
      srv,
      users.filter((u) => receivesTyping(srv, u.id)).map((u) => u.id),
      event,
    );
    return;
  }
  if (args.streamId === undefined) throw badRequest('Missing channel ID');
  if (args.topic === undefined) throw badRequest('Missing topic');
  if (!getUserSetting(srv, actor.id, 'send_stream_typing_notifications')) {
    throw badRequest('User has disabled typing notifications for channel messages');
  }
  const ch = channelForTyping(srv, actor, args.streamId);
  const topic = normalizeTopicParam(srv, args.topic);
  const subscribers = subscriberIds(srv, ch.id);
  if (subscribers.length > MAX_CHANNEL_SIZE_FOR_TYPING) return;
  const sender = typingUser(actor);
  emit(
    srv,
    subscribers.filter((id) => receivesTyping(srv, id)),
    (q) =>
      q.options.capabilities.stream_typing_notifications
        ? { type: 'typing', op: args.op, message_type: 'stream', sender, stream_id: ch.id, topic: topicForQueue(srv, q, topic) }
        : null,
  );
}

/** POST /messages/{id}/typing and the legacy POST /message_edit_typing. */
export function sendEditTyping(srv: ServerState, actor: UserRow, messageId: number, op: TypingOp): void {
  const m = loadEditableMessage(srv, actor, messageId);
  checkCanEditContentForTyping(srv, actor, m);
  if (m.type === 'stream' && m.channel_id !== null) {
    if (!getUserSetting(srv, actor.id, 'send_stream_typing_notifications')) {
      throw badRequest('User has disabled typing notifications for channel messages');
    }
    const channelId = m.channel_id;
    const subscribers = subscriberIds(srv, channelId);
    if (subscribers.length > MAX_CHANNEL_SIZE_FOR_TYPING) return;
    emit(
      srv,
      subscribers.filter((id) => id !== actor.id && receivesTyping(srv, id)),
      (q) => ({
        type: 'typing_edit_message',
        op,
        sender_id: actor.id,
        message_id: messageId,
        recipient: { type: 'channel', channel_id: channelId, topic: topicForQueue(srv, q, m.topic) },
      }),
    );
    return;
  }
  if (!getUserSetting(srv, actor.id, 'send_private_typing_notifications')) {
    throw badRequest('User has disabled typing notifications for direct messages');
  }
  const participants = dmParticipants(srv, m.recipient_id);
  emit(
    srv,
    participants.filter((id) => id !== actor.id && receivesTyping(srv, id)),
    { type: 'typing_edit_message', op, sender_id: actor.id, message_id: messageId, recipient: { type: 'direct', user_ids: participants } },
  );
}

/** The participants of a DM conversation (its recipient's sorted user ids). */
export function dmParticipants(srv: ServerState, recipientId: number): number[] {
  const key = srv.db.prepare('SELECT dm_key FROM recipients WHERE id = ?').pluck().get(recipientId) as string | null | undefined;
  if (!key) return [];
  return key
    .split(',')
    .map(Number)
    .sort((a, b) => a - b);
}
