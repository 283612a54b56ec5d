/**
 * The `update_message` event as real Zulip sends it (docs/zulip-behaviour.md "update_message"; no `op`): `stream_id` (the channel
 * before the edit) + `stream_name` on every channel-message edit; `new_stream_id` only for channel
 * moves; `propagate_mode` + `orig_subject` only for moves; `subject` + `topic_links` only when the
 * topic changed; the content fields only when the content changed (`content` is the raw Markdown
 * whatever the queue's apply_markdown, as in Zulip). Topics follow the queue's `empty_topic_name`
 * capability.
 */
import type { EventBody, QueueView } from '../../events/queues.js';
import type { ServerState } from '../../state.js';
import { getRealm } from '../realm.js';
import type { UserRow } from '../users.js';
import { isMoved, type EditRequest } from './request.js';

export interface UpdateMessageEventData {
  readonly actor: UserRow;
  readonly request: EditRequest;
  readonly now: number;
  messageIds: number[];
}

export function updateMessageEvent(srv: ServerState, q: QueueView, d: UpdateMessageEventData, flags: string[]): EventBody {
  const r = d.request;
  const topic = (t: string) => (t === '' && !q.options.capabilities.empty_topic_name ? getRealm(srv).empty_topic_display_name : t);
  const e: Record<string, unknown> = {
    type: 'update_message',
    user_id: d.actor.id,
    edit_timestamp: d.now,
    message_id: r.message.id,
    message_ids: [...d.messageIds].sort((a, b) => a - b),
    flags,
    rendering_only: false,
  };
  if (r.origChannel) {
    e.stream_name = r.origChannel.name;
    e.stream_id = r.origChannel.id;
  }
  if (isMoved(r)) {
    e.propagate_mode = r.propagateMode;
    e.orig_subject = topic(r.origTopic);
  }
  if (r.isStreamEdited && r.targetChannel) e.new_stream_id = r.targetChannel.id;
  if (r.isTopicEdited) {
    e.subject = topic(r.targetTopic);
    e.topic_links = [];
  }
  if (r.content) {
    e.orig_content = r.message.content;
    e.orig_rendered_content = r.message.rendered_content;
    e.content = r.content.content;
    e.rendered_content = r.content.rendered.html;
    e.is_me_message = r.content.rendered.isMe;
  }
  return e as EventBody;
}
