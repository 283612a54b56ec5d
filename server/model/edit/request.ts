/**
 * Turning PATCH /messages/{id} parameters into a validated edit request (Zulip's
 * check_update_message, validate_message_edit_payload and build_message_edit_request), with every
 * permission and time-limit check done before anything is written.
 */
import { createHash } from 'node:crypto';
import { badRequest, JsonableError } from '../../http/errors.js';
import { renderMarkdown, type RenderedMessage } from '../../markdown/render.js';
import type { ServerState } from '../../state.js';
import { canAccessChannel, getChannel, type ChannelRow } from '../access.js';
import { checkMentionPermissions, normalizeContent } from '../message-send.js';
import { getRealm } from '../realm.js';
import { isModeratorOrAbove, type UserRow } from '../users.js';
import type { StoredMessage } from './load.js';
import { canEditTopic, canMoveOutOfChannel, canResolveTopics, checkCanEditContent, checkCanPostIn, isPastLimit } from './permissions.js';
import { checkTopicCharacters, checkTopicsPolicy, isResolvingGeneralChat, normalizeTopicParam, resolveChange, truncateTopic } from './topics.js';

export type PropagateMode = 'change_one' | 'change_later' | 'change_all';

export interface EditArgs {
  readonly topic?: string | undefined;
  readonly propagateMode: PropagateMode;
  readonly sendNotificationToOldThread: boolean;
  readonly sendNotificationToNewThread: boolean;
  readonly content?: string | undefined;
  readonly prevContentSha256?: string | undefined;
  readonly streamId?: number | undefined;
}

interface ContentChange {
  readonly content: string;
  readonly rendered: RenderedMessage;
}

/** A validated edit. `orig`/`target` channels are null for direct messages. */
export interface EditRequest {
  readonly message: StoredMessage;
  readonly propagateMode: PropagateMode;
  readonly content: ContentChange | null;
  readonly origChannel: ChannelRow | null;
  readonly targetChannel: ChannelRow | null;
  readonly origTopic: string;
  readonly targetTopic: string;
  readonly isTopicEdited: boolean;
  readonly isStreamEdited: boolean;
  readonly topicResolved: boolean;
  readonly topicUnresolved: boolean;
  readonly sendNotificationToOldThread: boolean;
  readonly sendNotificationToNewThread: boolean;
}

export const isMoved = (r: EditRequest) => r.isTopicEdited || r.isStreamEdited;
export const isResolveToggle = (r: EditRequest) => r.topicResolved || r.topicUnresolved;

export const sha256Hex = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

function targetChannelFor(srv: ServerState, actor: UserRow, streamId: number): ChannelRow {
  const ch = getChannel(srv, streamId);
  if (!ch || !canAccessChannel(srv, actor, ch) || ch.is_archived) throw badRequest('Invalid channel ID');
  return ch;
}

/** Validates the parameters against the message and the actor's permissions (no writes). */
export function buildEditRequest(srv: ServerState, actor: UserRow, m: StoredMessage, args: EditArgs): EditRequest {
  if (args.content !== undefined) checkCanEditContent(srv, actor, m);

  let topic = args.topic === undefined ? undefined : normalizeTopicParam(srv, args.topic);
  if (topic !== undefined && topic === m.topic) topic = undefined;
  const origChannel = m.type === 'stream' && m.channel_id !== null ? (getChannel(srv, m.channel_id) ?? null) : null;
  const streamId = args.streamId !== undefined && args.streamId === origChannel?.id ? undefined : args.streamId;

  // validate_message_edit_payload
  if (topic === undefined && args.content === undefined && streamId === undefined) throw badRequest('Nothing to change');
  if (!origChannel) {
    if (args.streamId !== undefined) throw badRequest('Direct messages cannot be moved to channels.');
    if (topic !== undefined) throw badRequest('Direct messages cannot have topics.');
  }
  if (args.propagateMode !== 'change_one' && topic === undefined && streamId === undefined) {
    throw badRequest('Invalid propagate_mode without topic edit');
  }
  if (topic !== undefined && isResolvingGeneralChat(srv, topic)) throw badRequest('General chat cannot be marked as resolved');
  if (topic !== undefined) checkTopicCharacters(topic);
  // The raw parameter, as real Zulip checks it: `stream_id` naming the message's own channel
  // together with `content` is refused too (spec "PATCH /messages/{message_id}" rule 1).
  if (args.streamId !== undefined && args.content !== undefined) throw badRequest('Cannot change message content while changing channel');
  if (args.prevContentSha256 !== undefined && args.prevContentSha256 !== sha256Hex(m.content)) {
    throw new JsonableError('EXPECTATION_MISMATCH', "'prev_content_sha256' value does not match the expected value.", 400, { field_name: 'prev_content_sha256' });
  }

  // build_message_edit_request
  let content: ContentChange | null = null;
  if (args.content !== undefined) {
    const text = normalizeContent(srv, args.content.trimEnd() === '' ? '(deleted)' : args.content);
    content = { content: text, rendered: renderMarkdown(srv, text, { senderId: m.sender_id, channelId: origChannel?.id }) };
  }
  const targetTopic = topic === undefined ? m.topic : truncateTopic(srv, topic);
  const { resolved, unresolved } = topic === undefined ? { resolved: false, unresolved: false } : resolveChange(m.topic, topic, targetTopic);
  const targetChannel = streamId === undefined ? origChannel : targetChannelFor(srv, actor, streamId);
  const request: EditRequest = {
    message: m,
    propagateMode: args.propagateMode,
    content,
    origChannel,
    targetChannel,
    origTopic: m.topic,
    targetTopic,
    isTopicEdited: topic !== undefined,
    isStreamEdited: streamId !== undefined,
    topicResolved: resolved,
    topicUnresolved: unresolved,
    sendNotificationToOldThread: args.sendNotificationToOldThread,
    sendNotificationToNewThread: args.sendNotificationToNewThread,
  };
  if (targetChannel) checkTopicsPolicy(srv, targetChannel, targetTopic, isMoved(request));
  checkMovePermissions(srv, actor, request);
  if (content && origChannel) checkAddedMentions(srv, actor, m, content.rendered, origChannel, targetTopic);
  return request;
}

function checkMovePermissions(srv: ServerState, actor: UserRow, r: EditRequest): void {
  const { origChannel, targetChannel, message } = r;
  if (!origChannel || !targetChannel) return;
  const realm = getRealm(srv);
  if (r.isTopicEdited) {
    if (isResolveToggle(r)) {
      if (!canResolveTopics(srv, actor, origChannel, targetChannel)) throw badRequest("You don't have permission to resolve topics in this channel.");
    } else {
      if (!canEditTopic(srv, actor, origChannel, targetChannel)) throw badRequest("You don't have permission to edit this message");
      // change_later / change_all are checked topic-wide (MOVE_MESSAGES_TIME_LIMIT_EXCEEDED) instead.
      if (r.propagateMode === 'change_one' && !isModeratorOrAbove(actor) && isPastLimit(srv, message, realm.move_messages_within_stream_limit_seconds)) {
        throw badRequest("The time limit for editing this message's topic has passed.");
      }
    }
  }
  if (r.isStreamEdited) {
    if (!canMoveOutOfChannel(srv, actor, origChannel)) throw badRequest("You don't have permission to move this message");
    checkCanPostIn(srv, actor, targetChannel);
    if (r.propagateMode === 'change_one' && !isModeratorOrAbove(actor) && isPastLimit(srv, message, realm.move_messages_between_streams_limit_seconds)) {
      throw badRequest("The time limit for editing this message's channel has passed");
    }
  }
}

/**
 * Wildcard mentions need permission only when the edit adds them (spec: "Edit adds a channel
 * wildcard mention"); group mentions are checked as on sending.
 */
function checkAddedMentions(srv: ServerState, actor: UserRow, m: StoredMessage, r: RenderedMessage, ch: ChannelRow, topic: string): void {
  const before = renderMarkdown(srv, m.content, { senderId: m.sender_id, channelId: ch.id });
  const added: RenderedMessage = { ...r, streamWildcard: r.streamWildcard && !before.streamWildcard, topicWildcard: r.topicWildcard && !before.topicWildcard };
  checkMentionPermissions(srv, actor, added, { id: ch.id, topic });
}
