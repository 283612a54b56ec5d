/**
 * `update_user_topic`: a topic's visibility policy (none, muted, unmuted, followed). Only the last
 * value matters, so a queued toggle takes the newer value instead of adding a row.
 */
import * as z from 'zod';
import { sameTopic, topicKey, updateUserTopic } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { getUserTopics, putUserTopic } from '../../db/queries/personal.js';
import type { ChangeCollector } from '../../db/changes.js';
import { atChannel, queues } from '../commands.js';
import { newestWins, oneCall, withoutBase } from './shared.js';
import { readState } from './read-state.js';

export const userTopicSetArgs = z.lazy(() => z.object({
  stream_id: z.number().int(),
  topic: z.string(),
  visibility_policy: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
}));
export type UserTopicSetArgs = z.output<typeof userTopicSetArgs>;

/** What each visibility policy does to a topic, for the row's description. */
const POLICY_VERBS = ['Reset notifications of', 'Mute', 'Unmute', 'Follow'];

export const userTopicSet = withoutBase({
  kind: 'update_user_topic',
  version: 1,
  argsSchema: userTopicSetArgs,
  describe: (a, names) => atChannel(names, a.stream_id, a.topic, (topic) => `${POLICY_VERBS[a.visibility_policy] ?? 'Change'} ${topic}`),
  // One entity per topic as the server matches them (`Lunch` and `lunch`, `Äpfel` and `ÄPFEL`).
  entityKey: (a) => `user_topic:${a.stream_id}:${topicKey(a.topic)}`,
  send: oneCall(updateUserTopic),
  async verify(conn, a) {
    const { user_topics = [] } = await readState(conn, ['user_topic']);
    const wire = conn.topicForWire(a.topic);
    const row = user_topics.find((t) => t.stream_id === a.stream_id && sameTopic(t.topic_name, wire));
    // No row means no policy (0): removing one is verified by its absence.
    return (row?.visibility_policy ?? 0) === a.visibility_policy ? 'applied' : 'not_applied';
  },
  coalesce: newestWins('update_user_topic'),
  local: { apply: (db, a, _b, c) => void applyOptimistic(db, a, c), areas: ['user_topics'], refetch: ['user_topic'] },
});

export function applyOptimistic(db: LocalDb, args: UserTopicSetArgs, changes: ChangeCollector): void {
  const old = getUserTopics(db).find((t) => t.channel_id === args.stream_id && sameTopic(t.topic, args.topic));
  // Replace the stored spelling rather than add a second row differing only in case.
  if (old && old.topic !== args.topic) putUserTopic(db, { stream_id: args.stream_id, topic_name: old.topic, visibility_policy: 0, last_updated: 0 });
  putUserTopic(db, { stream_id: args.stream_id, topic_name: args.topic, visibility_policy: args.visibility_policy, last_updated: old?.last_updated ?? 0 });
  changes.touched('user_topics');
}

/** The contract's command: a topic's visibility policy (0 none, 1 muted, 2 unmuted, 3 followed). */
export const userTopicSetCommands = {
  updateUserTopic: queues(userTopicSet, z.lazy(() => z.object({ channel_id: z.number().int().positive(), topic: z.string(), visibility_policy: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]) })), (r) => ({ stream_id: r.channel_id, topic: r.topic, visibility_policy: r.visibility_policy })),
};
