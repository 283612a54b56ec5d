/**
 * `mark_topic_as_read`: every message of a topic becomes read. Idempotent, so repeated intents for a
 * topic merge; a resend after a failed verify is harmless. Verified by asking the server for an
 * unread message left in the topic (one that arrived later also counts: resending reads it too,
 * which is what the user asked for).
 */
import * as z from 'zod';
import { getMessages, markTopicAsRead, topicKey } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { updateStoredMessage } from '../../db/queries/messages.js';
import { unreadIdsInTopic } from '../../db/queries/message-rows.js';
import type { ChangeCollector } from '../../db/changes.js';
import { atChannel, queues } from '../commands.js';
import { newestWins, oneCall, withoutBase } from './shared.js';

export const markTopicReadArgs = z.lazy(() => z.object({ stream_id: z.number().int(), topic_name: z.string() }));
export type MarkTopicReadArgs = z.output<typeof markTopicReadArgs>;

export const markTopicRead = withoutBase({
  kind: 'mark_topic_as_read',
  version: 1,
  argsSchema: markTopicReadArgs,
  describe: (a, names) => atChannel(names, a.stream_id, a.topic_name, (topic) => `Mark ${topic} as read`),
  // Topics match case-insensitively on the server.
  entityKey: (a) => `topic_read:${a.stream_id}:${topicKey(a.topic_name)}`,
  // Read and unread marks of overlapping messages must reach the server in the user's order (a
  // topic marked read, then a message in it marked unread): one at a time across these kinds.
  serialGroup: 'read-state',
  send: oneCall(markTopicAsRead),
  async verify(conn, a) {
    const res = await getMessages(conn, {
      anchor: 'newest',
      num_before: 1,
      num_after: 0,
      narrow: [
        { operator: 'channel', operand: a.stream_id },
        { operator: 'topic', operand: a.topic_name },
        { operator: 'is', operand: 'unread' },
      ],
    });
    return res.messages.length === 0 ? 'applied' : 'not_applied';
  },
  coalesce: newestWins('mark_topic_as_read'),
  local: { apply: (db, a, _b, c) => void applyOptimistic(db, a, c), areas: ['unread'], refetch: ['message', 'update_message_flags'] },
});

export function applyOptimistic(db: LocalDb, args: MarkTopicReadArgs, changes: ChangeCollector): void {
  // Only the unread ones need rewriting; topics match by their key, as on the server.
  const ids = unreadIdsInTopic(db, args.stream_id, topicKey(args.topic_name));
  for (const id of ids) updateStoredMessage(db, id, (m) => (m.flags.includes('read') ? undefined : { ...m, flags: [...m.flags, 'read'] }), changes);
  // Always: unread messages of the topic the cache does not hold count as read while this row is
  // pending (engine/unread-pending.ts), so the counts change even when no cached message did.
  changes.touched('unread');
}

export const markTopicReadCommands = {
  markTopicAsRead: queues(markTopicRead, z.lazy(() => z.object({ channel_id: z.number().int().positive(), topic: z.string() })), (r) => ({ stream_id: r.channel_id, topic_name: r.topic })),
};
