/**
 * A channel's topic list (GET /users/me/{stream_id}/topics; Zulip's get_topic_history_for_stream):
 * one entry per topic, named with the spelling of its most recent message, newest first. With
 * shared history every message of the channel counts; with protected history only the messages the
 * user received.
 */
import type { ServerState } from '../state.js';
import type { ChannelRow } from './access.js';
import { sql } from '../db/statements.js';
import { getRealm } from './realm.js';
import { topicKey } from '../../common/topic-key.js';

export interface TopicHistoryEntry {
  name: string;
  max_id: number;
}

export function channelTopicHistory(srv: ServerState, userId: number, ch: ChannelRow, allowEmptyTopicName: boolean): TopicHistoryEntry[] {
  const rows = (
    ch.history_public_to_subscribers === 1
      ? sql(srv, 'SELECT topic, MAX(id) AS max_id FROM messages WHERE channel_id = ? GROUP BY topic').all(ch.id)
      : sql(
          srv,
          'SELECT m.topic, MAX(m.id) AS max_id FROM user_messages um JOIN messages m ON m.id = um.message_id WHERE um.user_id = ? AND m.channel_id = ? GROUP BY m.topic',
        ).all(userId, ch.id)
  ) as Array<{ topic: string; max_id: number }>;
  // Spellings of one topic fold together; the most recent spelling names it (as in Zulip).
  const byKey = new Map<string, TopicHistoryEntry>();
  for (const r of rows) {
    const key = topicKey(r.topic);
    const seen = byKey.get(key);
    if (!seen || r.max_id > seen.max_id) byKey.set(key, { name: r.topic, max_id: r.max_id });
  }
  const display = getRealm(srv).empty_topic_display_name;
  return [...byKey.values()]
    .map((t) => (t.name === '' && !allowEmptyTopicName ? { ...t, name: display } : t))
    .sort((a, b) => b.max_id - a.max_id);
}
