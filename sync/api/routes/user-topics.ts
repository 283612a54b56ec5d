/** Per-topic preferences: spec "POST /user_topics (topic preferences)". */
import type { ApiConnection, RequestOptions } from '../core.js';
import { emptySuccess } from '../schemas/envelope.js';
import type { VisibilityPolicy } from '../schemas/user-topics.js';

/** Response schemas by OpenAPI operation, for the example-conformance test. */
export const userTopicResponses = {
  'POST /user_topics': emptySuccess,
} as const;

/** Spec "POST /user_topics": set the visibility policy of one (channel, topic), even one without messages. */
export function updateUserTopic(
  conn: ApiConnection,
  args: { stream_id: number; topic: string; visibility_policy: VisibilityPolicy },
  opts: RequestOptions = {},
) {
  return conn.request({
    method: 'POST',
    path: '/user_topics',
    params: {
      stream_id: args.stream_id,
      // The empty-topic display name means `""` (FL 334).
      topic: conn.topicForWire(args.topic),
      visibility_policy: args.visibility_policy,
    },
    schema: emptySuccess,
    ...opts,
  });
}
