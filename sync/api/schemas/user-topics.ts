/** User topic preferences (spec "POST /user_topics"; register `user_topics`; `user_topic` event). */
import * as z from 'zod';
import { int, openIntEnum } from './envelope.js';

/** 0 none (removes the policy), 1 muted, 2 unmuted, 3 followed (FL 219). */
export type VisibilityPolicy = 0 | 1 | 2 | 3;
export const VisibilityPolicy = {
  none: 0,
  muted: 1,
  unmuted: 2,
  followed: 3,
} as const satisfies Record<string, VisibilityPolicy>;

/** As parsed from the server: newer values degrade to `'unknown'`. */
export const visibilityPolicy = openIntEnum([0, 1, 2, 3]);
export type ParsedVisibilityPolicy = z.output<typeof visibilityPolicy>;

export const userTopic = z.object({
  stream_id: int,
  /** May be `""` (the empty topic) with the `empty_topic_name` capability. */
  topic_name: z.string(),
  /** UNIX seconds of the last change. */
  last_updated: int,
  visibility_policy: visibilityPolicy,
});
export type UserTopic = z.output<typeof userTopic>;
