/** Per-topic preferences: spec "POST /user_topics (topic preferences)". */
import type { ApiConnection } from '../core.js';
import { operation, responseTable } from '../operation.js';
import { emptySuccess } from '../schemas/envelope.js';
import type { VisibilityPolicy } from '../schemas/user-topics.js';

/** Spec "POST /user_topics": set the visibility policy of one (channel, topic), even one without messages. */
export const updateUserTopic = operation({
  method: 'POST',
  path: '/user_topics',
  schema: emptySuccess,
  request: (args: { stream_id: number; topic: string; visibility_policy: VisibilityPolicy }, conn: ApiConnection) => ({
    params: {
      stream_id: args.stream_id,
      // The empty-topic display name means `""` (FL 334).
      topic: conn.topicForWire(args.topic),
      visibility_policy: args.visibility_policy,
    },
  }),
});

/** Response schemas by OpenAPI operation, for the example-conformance test. */
export const userTopicResponses = responseTable(updateUserTopic);
