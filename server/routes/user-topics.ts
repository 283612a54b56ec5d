/** POST /user_topics (spec "POST /user_topics"): per-topic visibility policy. */
import * as z from 'zod';
import { badRequest, invalidParam } from '../http/errors.js';
import { canAccessChannel, getChannel } from '../model/access.js';
import { getRealm } from '../model/realm.js';
import { setUserTopicPolicy, type VisibilityPolicy } from '../model/user-topics.js';
import { route, type ApiRouter } from './context.js';

const policySchema = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]);

export function registerUserTopicRoutes(r: ApiRouter): void {
  route(r, 'POST', '/user_topics', ({ srv, user, params }) => {
    const realm = getRealm(srv);
    const channelId = params.reqInt('stream_id');
    const rawTopic = params.reqStr('topic', { maxLength: realm.max_topic_length });
    const policy: VisibilityPolicy = params.reqJson('visibility_policy', policySchema);
    // Spec rule 5: the empty-topic display name means "".
    const trimmed = rawTopic.trim();
    const topic = trimmed === realm.empty_topic_display_name ? '' : trimmed;
    if ([...topic].length > realm.max_topic_length) throw invalidParam('topic', rawTopic, `topic is too long (limit: ${realm.max_topic_length} characters)`);

    const channel = getChannel(srv, channelId);
    // Removing a policy only needs the channel to exist (Zulip lets users clean up after losing
    // access); setting one needs access to the channel.
    if (!channel || (policy !== 0 && !canAccessChannel(srv, user, channel))) throw badRequest('Invalid channel ID');
    setUserTopicPolicy(srv, user.id, channelId, topic, policy);
  });
}
