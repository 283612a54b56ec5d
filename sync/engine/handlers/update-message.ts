/**
 * `update_message`: content edits, topic/channel moves, and rendering-only updates
 * (docs/zulip-behaviour.md "update_message").
 *
 * The cached message must end up equal to what `GET /messages` would return, so the edit-history
 * entry is built exactly per the spec's table from the event: `user_id`, `timestamp` =
 * `edit_timestamp`, then `prev_content`/`prev_rendered_content` (content edits, the edited message
 * only), `prev_topic`/`topic` (topic changed) and `prev_stream`/`stream` (channel changed), newest
 * entry first. A resolve/unresolve (topics equal once the `✔ ` prefix is stripped, same channel)
 * adds history but does not set `last_moved_timestamp` (FL 365).
 */
import type { EditHistoryEntry, EventOf, Message } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { channelName } from '../../db/queries/channels.js';
import { getStoredMessage, updateStoredMessage } from '../../db/queries/messages.js';
import { hasRawContent, putRawContent } from '../../db/queries/raw.js';
import { invalidateServerTopics } from '../../db/queries/server-topics.js';
import { getAccount } from '../../db/queries/state.js';
import { moveServerUnreads, setServerUnreadMentionBits } from '../../db/queries/unreads.js';
import { flagsToBits } from '../../db/flags.js';
import { channelRecipientId } from '../../db/queries/message-rows.js';
import type { ChangeCollector } from '../../db/changes.js';
import type { HandlerContext } from './types.js';
import { applyRows, storedBits } from './update-message-rows.js';

const RESOLVED_PREFIX = '✔ ';
const unresolved = (topic: string) => (topic.startsWith(RESOLVED_PREFIX) ? topic.slice(RESOLVED_PREFIX.length) : topic);

type UpdateMessageEvent = EventOf<'update_message'>;

export function onUpdateMessage(db: LocalDb, e: UpdateMessageEvent, _ctx: HandlerContext, changes: ChangeCollector): void {
  const contentChanged = e.rendered_content !== undefined;
  if (e.rendering_only) {
    // Not a user edit: new rendering (e.g. an inline preview), no history, no timestamps.
    if (contentChanged) updateStoredMessage(db, e.message_id, (m) => ({ ...m, content: e.rendered_content ?? m.content }), changes);
    return;
  }

  // The new raw Markdown (the event's `content` is raw) keeps the offline-edit copy current:
  // for a message whose raw text the device keeps, or one of the user's own.
  if (e.content !== undefined && e.rendered_content !== undefined) {
    const self = getAccount(db)?.user_id ?? undefined;
    if (hasRawContent(db, e.message_id) || (self !== undefined && getStoredMessage(db, e.message_id)?.sender_id === self)) putRawContent(db, e.message_id, e.content, Date.now());
  }

  const origTopic = e.orig_subject;
  const topicChanged = e.subject !== undefined && origTopic !== undefined && e.subject !== origTopic;
  const channelChanged = e.new_stream_id !== undefined && e.new_stream_id !== e.stream_id;
  const moved = topicChanged || channelChanged;
  const resolveOnly = moved && !channelChanged && origTopic !== undefined && e.subject !== undefined && unresolved(origTopic) === unresolved(e.subject);
  const newChannelName = channelChanged && e.new_stream_id !== undefined ? channelName(db, e.new_stream_id) : undefined;
  const newRecipientId = channelChanged && e.new_stream_id !== undefined ? recipientIdOf(db, e.new_stream_id) : undefined;

  const moveEntry: Partial<EditHistoryEntry> = {};
  if (channelChanged) {
    moveEntry.prev_stream = e.stream_id;
    moveEntry.stream = e.new_stream_id;
  }
  if (topicChanged) {
    moveEntry.prev_topic = origTopic;
    moveEntry.topic = e.subject;
  }

  const edit = (m: Message, isTarget: boolean): Message | undefined => {
    const withContent = isTarget && contentChanged;
    if (!withContent && !moved) return undefined;
    const entry: EditHistoryEntry = { user_id: e.user_id, timestamp: e.edit_timestamp };
    const next: Message = { ...m };
    if (withContent) {
      if (e.orig_content !== undefined) entry.prev_content = e.orig_content;
      if (e.orig_rendered_content !== undefined) entry.prev_rendered_content = e.orig_rendered_content;
      next.content = e.rendered_content ?? m.content;
      if (e.is_me_message !== undefined) next.is_me_message = e.is_me_message;
      next.last_edit_timestamp = e.edit_timestamp;
    }
    if (moved) {
      Object.assign(entry, moveEntry);
      if (topicChanged && e.subject !== undefined) {
        next.subject = e.subject;
        next.topic_links = e.topic_links ?? [];
      }
      if (channelChanged && e.new_stream_id !== undefined) {
        next.stream_id = e.new_stream_id;
        if (newChannelName !== undefined) next.display_recipient = newChannelName;
        if (newRecipientId !== undefined) next.recipient_id = newRecipientId;
      }
      if (!resolveOnly) next.last_moved_timestamp = e.edit_timestamp;
    }
    next.edit_history = [entry, ...(m.edit_history ?? [])];
    return next;
  };

  const ids = moved ? e.message_ids : [e.message_id];
  const before = storedBits(db, ids.includes(e.message_id) ? ids : [...ids, e.message_id]);
  for (const id of ids) updateStoredMessage(db, id, (m) => edit(m, id === e.message_id), changes);
  if (!ids.includes(e.message_id)) updateStoredMessage(db, e.message_id, (m) => edit(m, true), changes);
  // Flags last: the event's are ours for `message_id` (mentions may appear or vanish with an
  // edit), read through who holds a per-user row now (update-message-rows.ts).
  applyRows(db, e, before, changes);
  // The server's unread set (messages not cached included) follows the move and the mentions; the
  // stored topic lists of both channels may name a topic that emptied.
  if (moved) {
    moveServerUnreads(db, e.message_ids, { channel_id: channelChanged ? e.new_stream_id : undefined, topic: topicChanged ? e.subject : undefined });
    const lists = [e.stream_id, e.new_stream_id].filter((id): id is number => id !== undefined);
    if (lists.length > 0) {
      invalidateServerTopics(db, lists);
      changes.touched('channel_topics');
    }
    changes.touched('unread');
  }
  if (e.flags !== undefined) setServerUnreadMentionBits(db, e.message_id, flagsToBits(e.flags));
}

/**
 * A channel's recipient id is not in the channel object; a cached message of that channel has it.
 * Undefined when we cache none (the next refetch of the moved messages corrects it).
 */
function recipientIdOf(db: LocalDb, channelId: number): number | undefined {
  return channelRecipientId(db, channelId);
}

