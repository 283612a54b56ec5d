/**
 * The engine's scheduled messages (query `scheduledMessages`, live area `scheduled_messages`),
 * as a Solid store for as long as the calling component lives. Queued creates show at once under
 * a negative local id.
 */
import type * as z from 'zod';
import type { scheduledMessageSchema } from '../../../sync/protocol/commands.js';
import { useLiveQuery } from '../core/area-query-store.js';
import type { Bridge } from '../core/bridge.js';

export type ScheduledMessage = z.output<typeof scheduledMessageSchema>;

export function useScheduledMessages(bridge: Bridge) {
  return useLiveQuery<ScheduledMessage[]>(bridge, { fetch: () => bridge.invoke('scheduledMessages', {}), areas: ['scheduled_messages'], initial: [], key: 'scheduled_message_id' });
}
