/** Scheduled message object (spec "Edit a scheduled message"; `GET /scheduled_messages`, FL 173). */
import * as z from 'zod';
import { int, openEnum } from './envelope.js';

/**
 * As listed by `GET /scheduled_messages` and carried by `scheduled_messages` events. Like message
 * objects it still uses the legacy `type` values `stream` / `private`. `to` is the channel id for a
 * channel message and the recipients' user ids for a direct message; `topic` is only there for
 * channel messages. `failed` is FL 181; servers before it never report a failed send.
 */
export const scheduledMessage = z.lazy(() => z.object({
  scheduled_message_id: int,
  type: openEnum(['stream', 'private']),
  to: z.union([int, z.array(int)]),
  topic: z.string().optional(),
  content: z.string(),
  rendered_content: z.string(),
  scheduled_delivery_timestamp: int,
  failed: z.boolean().default(false),
}));
export type ScheduledMessage = z.output<typeof scheduledMessage>;
