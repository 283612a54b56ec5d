/**
 * Sending a message (Zulip's check_message + do_send_messages): validation of the addressee,
 * topic and content, rendering, mention permissions, the rows (message, user_messages with
 * flags, full-text index, attachment links), the channel's `first_message_id`, and the `message`
 * event to every recipient, shaped per queue (apply_markdown, client_gravatar, empty_topic_name,
 * `local_message_id` for the sending queue, register's `narrow`).
 */
import { seconds } from '../clock.js';
import { emit } from '../events/emit.js';
import type { QueueView } from '../events/queues.js';
import { badRequest, JsonableError } from '../http/errors.js';
import { renderMarkdown, type RenderedMessage } from '../markdown/render.js';
import type { ServerState } from '../state.js';
import { usersAlertedBy } from './alert-words.js';
import { dmRecipientId, getChannel, isSubscribed, subscriberIds, type ChannelRow } from './access.js';
import { hasChannelPermission } from './channels.js';
import { FLAG, flagNames } from './flags.js';
import { scheduleLinkPreview } from './link-previews.js';
import { usersMuting } from './muted-users.js';
import { getGroup, userHasPermission } from './groups.js';
import { sql } from '../db/statements.js';
import { apiMessage, type MessageRow } from './messages.js';
import { applySendVisibilityPolicies } from './message-visibility.js';
import { matchesEventNarrow } from './narrow-match.js';
import { getRealm, type RealmSettings } from './realm.js';
import { indexMessage } from './search.js';
import { topicKey } from '../../common/topic-key.js';
import { syncAttachments } from './uploads.js';
import { groupPermission } from './user-groups.js';
import { isGuest, type UserRow } from './users.js';
import { addWidgetOnSend } from './widgets.js';

export type SendTarget = { readonly channelId: number; readonly topic: string } | { readonly userIds: readonly number[] };

export interface SendArgs {
  readonly to: SendTarget;
  readonly content: string;
  /** The message's `client` (default "API"). */
  readonly client?: string;
  /** Default true: the sender's own message starts read. */
  readonly readBySender?: boolean;
  /** Local echo: the sender's queue with this id gets `local_message_id` on its `message` event. */
  readonly queueId?: string | undefined;
  readonly localId?: string | undefined;
  /** Seeds may backdate messages; default now. */
  readonly dateSent?: number;
  /**
   * Apply Zulip's automatic follow/unmute rules (message-visibility.ts). POST /messages turns this
   * on; internal senders (demo seed, notices) leave it off so seeded state stays predictable.
   */
  readonly autoVisibilityPolicies?: boolean;
}

const truncate = (s: string, max: number, marker: string): string => {
  const cps = [...s];
  return cps.length <= max ? s : cps.slice(0, max - [...marker].length).join('') + marker;
};

/** Channel topics policy after `inherit`. */
export function effectiveTopicsPolicy(realm: RealmSettings, ch: ChannelRow): string {
  return ch.topics_policy === 'inherit' ? realm.topics_policy : ch.topics_policy;
}

/**
 * A topic as a client sent it → as stored: trimmed; `(no topic)` and the realm's empty-topic
 * display name mean ""; longer than `max_topic_length` is truncated with "..." (Zulip).
 */
export function normalizeTopic(srv: ServerState, topic: string): string {
  const realm = getRealm(srv);
  const t = topic.trim();
  if (t === '(no topic)' || t === realm.empty_topic_display_name) return '';
  // Zulip's check_string_is_printable: control characters (Unicode Cc, Cs) are refused.
  const bad = [...t].findIndex((c) => /[\p{Cc}\p{Cs}]/u.test(c));
  if (bad >= 0) throw badRequest(`Invalid character in topic, at position ${bad + 1}!`);
  return truncate(t, realm.max_topic_length, '...');
}

/** Content as stored: trailing whitespace dropped, must not be empty, truncated past the limit. */
export function normalizeContent(srv: ServerState, content: string): string {
  const c = content.trimEnd();
  if (c.trim() === '') throw badRequest('Message must not be empty');
  return truncate(c, getRealm(srv).max_message_length, '\n[message truncated]');
}

/** Zulip's access_stream_for_send_message. */
export function checkCanSendToChannel(srv: ServerState, sender: UserRow, ch: ChannelRow): void {
  const denied = () => badRequest(`Not authorized to send to channel '${ch.name}'`);
  if (ch.is_archived) throw denied();
  const subscribed = isSubscribed(srv, sender.id, ch.id);
  if (ch.invite_only ? !subscribed : isGuest(sender) && !subscribed) throw denied();
  if (!hasChannelPermission(srv, sender.id, ch, 'can_send_message_group')) throw badRequest('You do not have permission to post in this channel.');
}

export function checkTopicsPolicy(srv: ServerState, ch: ChannelRow, topic: string): void {
  const realm = getRealm(srv);
  const policy = effectiveTopicsPolicy(realm, ch);
  if (policy === 'disable_empty_topic' && topic === '') {
    throw badRequest(`Sending messages to the "${realm.empty_topic_display_name}" topic is not allowed in this channel.`);
  }
  if (policy === 'empty_topic_only' && topic !== '') {
    throw badRequest(`Only the "${realm.empty_topic_display_name}" topic is allowed in this channel.`);
  }
}

/** Users who sent or reacted to messages in a topic (Zulip's participants_for_topic). */
export function topicParticipants(srv: ServerState, channelId: number, topic: string): Set<number> {
  const ids = sql(
    srv,
    `SELECT sender_id FROM messages WHERE channel_id = ? AND topic_key = ?
     UNION SELECT r.user_id FROM reactions r JOIN messages m ON m.id = r.message_id WHERE m.channel_id = ? AND m.topic_key = ?`,
  )
    .pluck()
    .all(channelId, topicKey(topic), channelId, topicKey(topic)) as number[];
  return new Set(ids);
}

/**
 * Mention permissions (Zulip's check_message): channel wildcards in a channel with more than
 * `wildcard_mention_threshold` subscribers, topic wildcards in a topic with more participants,
 * and every non-silent group mention need the respective permission. Also used by edits.
 */
export function checkMentionPermissions(srv: ServerState, sender: UserRow, r: RenderedMessage, channel: { id: number; topic: string } | null): void {
  const realm = getRealm(srv);
  const mayMentionMany = () => userHasPermission(srv, sender.id, realm.can_mention_many_users_group);
  if (channel && r.streamWildcard && subscriberIds(srv, channel.id).length > realm.wildcard_mention_threshold && !mayMentionMany()) {
    throw new JsonableError('STREAM_WILDCARD_MENTION_NOT_ALLOWED', 'You do not have permission to use channel wildcard mentions in this channel.');
  }
  if (channel && r.topicWildcard) {
    const participants = topicParticipants(srv, channel.id, channel.topic);
    participants.add(sender.id);
    if (participants.size > realm.wildcard_mention_threshold && !mayMentionMany()) {
      throw new JsonableError('TOPIC_WILDCARD_MENTION_NOT_ALLOWED', 'You do not have permission to use topic wildcard mentions in this topic.');
    }
  }
  for (const gid of r.mentionedGroupIds) {
    const g = getGroup(srv, gid);
    if (g && !userHasPermission(srv, sender.id, groupPermission(srv, g, 'can_mention_group'))) {
      throw badRequest(`You are not allowed to mention user group '${g.name}'.`);
    }
  }
}

/** Who a message notifies as `mentioned`: direct mentions plus members of mentioned groups. */
export function mentionedUserIds(srv: ServerState, r: RenderedMessage): Set<number> {
  const ids = new Set(r.mentionedUserIds);
  for (const gid of r.mentionedGroupIds) {
    for (const uid of sql(srv, 'SELECT id FROM users WHERE is_active = 1').pluck().all() as number[]) {
      if (userHasPermission(srv, uid, gid)) ids.add(uid);
    }
  }
  return ids;
}

/**
 * The mention-derived flag bits of one recipient (for sending, and for edits that re-render).
 * `topicParticipantIds` matters only when the message has a topic wildcard.
 */
export function mentionFlags(userId: number, r: RenderedMessage, mentioned: ReadonlySet<number>, topicParticipantIds: ReadonlySet<number>): number {
  let bits = 0;
  if (mentioned.has(userId)) bits |= FLAG.mentioned;
  if (r.streamWildcard) bits |= FLAG.stream_wildcard_mentioned;
  if (r.topicWildcard && topicParticipantIds.has(userId)) bits |= FLAG.topic_wildcard_mentioned;
  return bits;
}

/** Validates, stores and announces a message; returns its id. Throws JsonableError when invalid. */
export function sendMessage(srv: ServerState, sender: UserRow, args: SendArgs): number {
  return sendMessageWithResult(srv, sender, args).id;
}

export interface SentMessage {
  readonly id: number;
  /** The sender's new topic visibility policy, when sending changed it (2 unmuted, 3 followed). */
  readonly automaticNewVisibilityPolicy: 2 | 3 | undefined;
}

/** sendMessage with the whole result of POST /messages. */
export function sendMessageWithResult(srv: ServerState, sender: UserRow, args: SendArgs): SentMessage {
  const content = normalizeContent(srv, args.content);
  let channel: ChannelRow | undefined;
  let topic = '';
  let recipientId: number;
  let recipients: number[];
  if ('channelId' in args.to) {
    channel = getChannel(srv, args.to.channelId);
    if (!channel) {
      throw new JsonableError('STREAM_DOES_NOT_EXIST', `Channel with ID '${args.to.channelId}' does not exist`, 400, { stream_id: args.to.channelId });
    }
    checkCanSendToChannel(srv, sender, channel);
    topic = normalizeTopic(srv, args.to.topic);
    checkTopicsPolicy(srv, channel, topic);
    recipientId = channel.recipient_id;
    recipients = subscriberIds(srv, channel.id);
  } else {
    const ids = [...new Set([...args.to.userIds, sender.id])].sort((a, b) => a - b);
    recipientId = dmRecipientId(srv, ids);
    recipients = ids;
  }

  const rendered = renderMarkdown(srv, content, { senderId: sender.id, channelId: channel?.id });
  checkMentionPermissions(srv, sender, rendered, channel ? { id: channel.id, topic } : null);
  const mentioned = mentionedUserIds(srv, rendered);
  const participants = channel && rendered.topicWildcard ? topicParticipants(srv, channel.id, topic) : new Set<number>();
  participants.add(sender.id);

  const dateSent = args.dateSent ?? seconds(srv.clock);
  const info = sql(
    srv,
    `INSERT INTO messages (type, channel_id, topic, topic_key, recipient_id, sender_id, content, rendered_content, date_sent, client, is_me_message, has_link, has_image, has_attachment)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    channel ? 'stream' : 'private',
    channel?.id ?? null,
    topic,
    topicKey(topic),
    recipientId,
    sender.id,
    content,
    rendered.html,
    dateSent,
    args.client ?? 'API',
    rendered.isMe ? 1 : 0,
    rendered.hasLink ? 1 : 0,
    rendered.hasImage ? 1 : 0,
    0,
  );
  const id = Number(info.lastInsertRowid);
  indexMessage(srv, id, topic, rendered.html);
  syncAttachments(srv, id, rendered);

  const flagsByUser = new Map<number, number>();
  const alerted = usersAlertedBy(srv, content, recipients, sender.id);
  // Those who muted the sender get the message already read (Zulip: no notifications from them).
  const muting = usersMuting(srv, sender.id);
  const insertUm = sql(srv, 'INSERT INTO user_messages (user_id, message_id, flags) VALUES (?, ?, ?)');
  for (const uid of recipients) {
    let bits = mentionFlags(uid, rendered, mentioned, participants);
    if (alerted.has(uid)) bits |= FLAG.has_alert_word;
    if (!channel) bits |= FLAG.is_private;
    if (uid === sender.id && args.readBySender !== false) bits |= FLAG.read;
    if (muting.has(uid)) bits |= FLAG.read;
    insertUm.run(uid, id, bits);
    flagsByUser.set(uid, bits);
  }

  if (channel && channel.first_message_id === null) {
    sql(srv, 'UPDATE channels SET first_message_id = ? WHERE id = ?').run(id, channel.id);
    const ch = channel;
    const viewers = ch.invite_only ? subscriberIds(srv, ch.id) : (sql(srv, 'SELECT id FROM users WHERE is_active = 1').pluck().all() as number[]);
    emit(srv, viewers, { type: 'stream', op: 'update', stream_id: ch.id, name: ch.name, property: 'first_message_id', value: id });
  }

  const automaticNewVisibilityPolicy = channel && args.autoVisibilityPolicies ? applySendVisibilityPolicies(srv, sender, channel, topic, id, mentioned, recipients) : undefined;
  addWidgetOnSend(srv, { id, channel_id: channel?.id ?? null }, sender.id, content);
  emitMessageEvent(srv, id, flagsByUser, channel, args);
  if (getRealm(srv).inline_url_embed_preview && sender.is_bot === 0) scheduleLinkPreview(srv, id, rendered.links);
  return { id, automaticNewVisibilityPolicy };
}

function emitMessageEvent(srv: ServerState, id: number, flagsByUser: ReadonlyMap<number, number>, channel: ChannelRow | undefined, args: SendArgs): void {
  const row = sql(srv, 'SELECT * FROM messages WHERE id = ?').get(id) as MessageRow;
  const publicChannel = channel !== undefined && channel.invite_only === 0;
  const audience = publicChannel ? (sql(srv, 'SELECT id FROM users WHERE is_active = 1 AND role != 600').pluck().all() as number[]) : [...flagsByUser.keys()];
  const shapes = new Map<string, Record<string, unknown>>();
  emit(srv, [...new Set([...audience, ...flagsByUser.keys()])], (q: QueueView) => {
    const bits = flagsByUser.get(q.userId);
    if (bits === undefined && !q.options.allPublicStreams) return null;
    const allowEmpty = q.options.capabilities.empty_topic_name === true;
    const key = `${q.options.applyMarkdown}|${q.options.clientGravatar}|${allowEmpty}`;
    let message = shapes.get(key);
    if (!message) {
      message = apiMessage(srv, q.userId, row, { applyMarkdown: q.options.applyMarkdown, clientGravatar: q.options.clientGravatar, allowEmptyTopicName: allowEmpty, includeFlags: false });
      shapes.set(key, message);
    }
    if (!matchesEventNarrow(srv, q.options.narrow, row, q.userId, bits)) return null;
    const flags = bits === undefined ? [] : flagNames(bits);
    const event: Record<string, unknown> & { type: string } = { type: 'message', message, flags };
    if (args.queueId !== undefined && args.localId !== undefined && q.id === args.queueId && q.userId === row.sender_id) {
      event.local_message_id = args.localId;
    }
    return event;
  });
}
