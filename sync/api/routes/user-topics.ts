/** Per-topic preferences: spec "POST /user_topics (topic preferences)". */
import type { ApiConnection, RequestOptions } from '../core.js';
import { emptySuccess } from '../schemas/envelope.js';

/** Response schemas by OpenAPI operation, for the example-conformance test. */
export const userTopicResponses = {
  'POST /user_topics': emptySuccess,
} as const;

/** 0 none (removes the policy), 1 muted, 2 unmuted, 3 followed (FL 219). */
export type VisibilityPolicy = 0 | 1 | 2 | 3;

export const VisibilityPolicy = {
  none: 0,
  muted: 1,
  unmuted: 2,
  followed: 3,
} as const satisfies Record<string, VisibilityPolicy>;

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
