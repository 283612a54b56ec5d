/**
 * Deleting messages (DELETE /messages/{id}, POST /streams/{id}/delete_topic, undoing a resolve
 * notice), after Zulip's do_delete_messages: the rows go (message, per-user rows, reactions,
 * submessages, attachment links, search index), `delete_message` goes to everyone who could see
 * the messages, and a channel whose oldest message went gets a `stream` update of
 * `first_message_id` (FL 256).
 */
import { emit } from '../../events/emit.js';
import type { QueueView } from '../../events/queues.js';
import type { ServerState } from '../../state.js';
import { getChannel, type ChannelRow } from '../access.js';
import { getRealm } from '../realm.js';
import { unindexMessages } from '../search.js';
import type { StoredMessage } from './load.js';
import { eventRecipientIds } from './recipients.js';

type DeletedMessage = Pick<StoredMessage, 'id' | 'type' | 'channel_id' | 'topic'>;

/**
 * The `delete_message` event(s) for one conversation, shaped per queue: `message_ids` (sorted)
 * with the `bulk_message_deletion` capability, else one event per `message_id`; topics follow
 * the `empty_topic_name` capability.
 */
export function deleteMessageEvents(srv: ServerState, q: QueueView, sample: DeletedMessage, ids: readonly number[]) {
  const sorted = [...ids].sort((a, b) => a - b);
  const where =
    sample.type === 'stream'
      ? {
          message_type: 'stream',
          stream_id: sample.channel_id,
          topic: sample.topic === '' && !q.options.capabilities.empty_topic_name ? getRealm(srv).empty_topic_display_name : sample.topic,
        }
      : { message_type: 'private' };
  if (q.options.capabilities.bulk_message_deletion) return { type: 'delete_message', message_ids: sorted, ...where };
  return sorted.map((id) => ({ type: 'delete_message', message_id: id, ...where }));
}

function removeRows(srv: ServerState, ids: readonly number[]): void {
  const marks = ids.map(() => '?').join(',');
  for (const table of ['user_messages', 'reactions', 'submessages', 'attachment_messages']) {
    srv.db.prepare(`DELETE FROM ${table} WHERE message_id IN (${marks})`).run(...ids);
  }
  srv.db.prepare(`DELETE FROM messages WHERE id IN (${marks})`).run(...ids);
  unindexMessages(srv, ids);
}

/** The channel's oldest message changed: store it and tell whoever heard of the deletion. */
function updateFirstMessageId(srv: ServerState, ch: ChannelRow, recipients: Iterable<number>): void {
  const first = (srv.db.prepare('SELECT MIN(id) FROM messages WHERE channel_id = ?').pluck().get(ch.id) as number | null) ?? null;
  if (first === ch.first_message_id) return;
  srv.db.prepare('UPDATE channels SET first_message_id = ? WHERE id = ?').run(first, ch.id);
  emit(srv, recipients, { type: 'stream', op: 'update', stream_id: ch.id, name: ch.name, property: 'first_message_id', value: first });
}

/**
 * Deletes messages of one conversation (one DM, or one channel topic) and sends the events.
 * Returns the ids deleted.
 */
export function deleteMessages(srv: ServerState, messages: readonly DeletedMessage[]): number[] {
  const sample = messages[0];
  if (!sample) return [];
  const ids = messages.map((m) => m.id);
  const channel = sample.type === 'stream' && sample.channel_id !== null ? (getChannel(srv, sample.channel_id) ?? null) : null;
  const recipients = eventRecipientIds(srv, ids, channel);
  const oldestBefore = channel ? (srv.db.prepare('SELECT MIN(id) FROM messages WHERE channel_id = ?').pluck().get(channel.id) as number | null) : null;
  removeRows(srv, ids);
  emit(srv, recipients, (q) => deleteMessageEvents(srv, q, sample, ids));
  if (channel) {
    // Zulip updates only when the stored first message went; compare with the real oldest too.
    const stored = channel.first_message_id ?? oldestBefore;
    if (stored !== null && ids.includes(stored)) updateFirstMessageId(srv, { ...channel, first_message_id: stored }, recipients);
  }
  return ids;
}
