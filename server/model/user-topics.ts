/**
 * Per-topic visibility policies (spec "POST /user_topics"; docs/zulip-behaviour.md "Topic preferences", "Personal state"):
 * 0 none (inherit), 1 muted, 2 unmuted, 3 followed. Policy 0 is stored as no row. Topics need not
 * have messages; names compare by topicKey (common/topic-key.ts), as Zulip's `topic_name__iexact`.
 */
import { seconds } from '../clock.js';
import { emit } from '../events/emit.js';
import type { QueueView } from '../events/queues.js';
import type { ServerState } from '../state.js';
import { getRealm } from './realm.js';
import { topicKey } from '../../common/topic-key.js';

export const VISIBILITY_POLICY = { inherit: 0, muted: 1, unmuted: 2, followed: 3 } as const;
export type VisibilityPolicy = 0 | 1 | 2 | 3;

export interface UserTopicRow {
  user_id: number;
  channel_id: number;
  topic: string;
  visibility_policy: 1 | 2 | 3;
  last_updated: number;
}

/** The user's policy for a topic (0 when none): used by the `is:followed` / `is:muted` narrows. */
export function userTopicPolicy(srv: ServerState, userId: number, channelId: number, topic: string): VisibilityPolicy {
  const p = srv.db
    .prepare('SELECT visibility_policy FROM user_topics WHERE user_id = ? AND channel_id = ? AND topic_key = ?')
    .pluck()
    .get(userId, channelId, topicKey(topic)) as VisibilityPolicy | undefined;
  return p ?? 0;
}

/** `""` shown as the realm's display name to clients without the `empty_topic_name` capability. */
export function topicForClient(srv: ServerState, topic: string, allowEmpty: boolean): string {
  return topic === '' && !allowEmpty ? getRealm(srv).empty_topic_display_name : topic;
}

export const queueAllowsEmptyTopic = (q: QueueView): boolean => q.options.capabilities.empty_topic_name === true;

/** register's `user_topics` (channels that are not archived). */
export function listUserTopics(srv: ServerState, userId: number, allowEmptyTopic: boolean) {
  const rows = srv.db
    .prepare(
      `SELECT ut.* FROM user_topics ut JOIN channels c ON c.id = ut.channel_id
       WHERE ut.user_id = ? AND c.is_archived = 0 ORDER BY ut.last_updated, ut.channel_id, ut.topic`,
    )
    .all(userId) as UserTopicRow[];
  return rows.map((r) => ({
    stream_id: r.channel_id,
    topic_name: topicForClient(srv, r.topic, allowEmptyTopic),
    last_updated: r.last_updated,
    visibility_policy: r.visibility_policy,
  }));
}

/**
 * Sets (or with 0 removes) a policy and tells the user's clients with a `user_topic` event. Setting
 * the current value again, or removing a policy that does not exist, changes nothing and sends no
 * event (as Zulip). Returns whether anything changed.
 */
export function setUserTopicPolicy(srv: ServerState, userId: number, channelId: number, topic: string, policy: VisibilityPolicy): boolean {
  const now = seconds(srv.clock);
  const current = userTopicPolicy(srv, userId, channelId, topic);
  if (current === policy) return false;
  if (policy === 0) {
    srv.db.prepare('DELETE FROM user_topics WHERE user_id = ? AND channel_id = ? AND topic_key = ?').run(userId, channelId, topicKey(topic));
  } else {
    srv.db
      .prepare(
        `INSERT INTO user_topics (user_id, channel_id, topic, topic_key, visibility_policy, last_updated) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (user_id, channel_id, topic_key) DO UPDATE SET topic = excluded.topic, visibility_policy = excluded.visibility_policy, last_updated = excluded.last_updated`,
      )
      .run(userId, channelId, topic, topicKey(topic), policy, now);
  }
  emit(srv, [userId], (q) => ({
    type: 'user_topic',
    stream_id: channelId,
    topic_name: topicForClient(srv, topic, queueAllowsEmptyTopic(q)),
    last_updated: now,
    visibility_policy: policy,
  }));
  return true;
}
