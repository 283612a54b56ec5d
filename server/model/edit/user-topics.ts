/**
 * Topic preferences follow a topic that moved as a whole (Zulip's do_update_message, "migrate
 * topic with visibility_policy"): users who lost access lose the preference; everyone else's
 * preference moves to the destination, merged with any preference there when the destination
 * already had messages (the more visible policy wins: followed > unmuted > none > muted).
 */
import type { ServerState } from '../../state.js';
import { sameTopic, topicKey } from '../../../common/topic-key.js';
import { setUserTopicPolicy, VISIBILITY_POLICY, type VisibilityPolicy } from '../user-topics.js';
import type { EditRequest } from './request.js';

function policies(srv: ServerState, channelId: number, topic: string): Map<number, VisibilityPolicy> {
  const rows = srv.db.prepare('SELECT user_id, visibility_policy FROM user_topics WHERE channel_id = ? AND topic_key = ?').all(channelId, topicKey(topic)) as Array<{
    user_id: number;
    visibility_policy: VisibilityPolicy;
  }>;
  return new Map(rows.map((r) => [r.user_id, r.visibility_policy]));
}

/** Zulip's get_visibility_policy_after_merge. */
export function mergedPolicy(a: VisibilityPolicy, b: VisibilityPolicy): VisibilityPolicy {
  const both = new Set([a, b]);
  if (both.has(VISIBILITY_POLICY.followed)) return VISIBILITY_POLICY.followed;
  if (both.has(VISIBILITY_POLICY.unmuted)) return VISIBILITY_POLICY.unmuted;
  if (both.has(VISIBILITY_POLICY.inherit)) return VISIBILITY_POLICY.inherit;
  return VISIBILITY_POLICY.muted;
}

export function migrateUserTopics(srv: ServerState, r: EditRequest, losingAccess: ReadonlySet<number>, targetHadMessages: boolean): void {
  const orig = r.origChannel;
  const target = r.targetChannel;
  if (!orig || !target) return;
  // The same topic up to case: the stored preferences already apply (names compare by topicKey).
  if (orig.id === target.id && sameTopic(r.origTopic, r.targetTopic)) return;
  const from = policies(srv, orig.id, r.origTopic);
  const to = policies(srv, target.id, r.targetTopic);
  if (r.isStreamEdited) {
    for (const userId of [...from.keys()]) {
      if (!losingAccess.has(userId)) continue;
      setUserTopicPolicy(srv, userId, orig.id, r.origTopic, VISIBILITY_POLICY.inherit);
      from.delete(userId);
    }
  }
  for (const userId of new Set([...from.keys(), ...to.keys()])) {
    const o = from.get(userId) ?? VISIBILITY_POLICY.inherit;
    const t = to.get(userId) ?? VISIBILITY_POLICY.inherit;
    if (o !== VISIBILITY_POLICY.inherit) setUserTopicPolicy(srv, userId, orig.id, r.origTopic, VISIBILITY_POLICY.inherit);
    const next = targetHadMessages ? mergedPolicy(o, t) : o;
    if (next !== t) setUserTopicPolicy(srv, userId, target.id, r.targetTopic, next);
  }
}
