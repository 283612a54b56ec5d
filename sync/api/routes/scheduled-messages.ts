/** Scheduled messages: spec "PATCH /scheduled_messages/{scheduled_message_id}", and list/create/delete. */
import * as z from 'zod';
import type { ApiConnection } from '../core.js';
import { operation, responseTable } from '../operation.js';
import { emptySuccess, int, success } from '../schemas/envelope.js';
import { scheduledMessage } from '../schemas/scheduled-messages.js';

export const getScheduledMessagesResponse = z.lazy(() => success({ scheduled_messages: z.array(scheduledMessage) }));
export const createScheduledMessageResponse = success({ scheduled_message_id: int });

/** The `type` a request may carry; `private` and `stream` are the legacy spellings. */
export type ScheduledMessageRequestType = 'direct' | 'channel' | 'stream' | 'private';

/**
 * `channel` is FL 248; older servers know it as `stream`. `direct` is FL 174, which only the very
 * first scheduled-message servers (FL 173) lack; they know it as `private`.
 */
function typeForWire(conn: ApiConnection, type: ScheduledMessageRequestType): ScheduledMessageRequestType {
  if (type === 'channel' && !conn.supports(248)) return 'stream';
  if (type === 'direct' && !conn.supports(174)) return 'private';
  return type;
}

/** GET /scheduled_messages (referenced operation): the user's undelivered ones, by delivery time. */
export const getScheduledMessages = operation({ method: 'GET', path: '/scheduled_messages', schema: getScheduledMessagesResponse });

/** Where a new scheduled message goes: a channel and topic, or direct-message recipients. */
export type ScheduledMessageTarget =
  | { type: 'channel'; to: number; topic: string }
  | { type: 'direct'; to: readonly number[] };

export type CreateScheduledMessageArgs = ScheduledMessageTarget & {
  content: string;
  /** UNIX seconds. */
  scheduled_delivery_timestamp: number;
  /** FL 236. */
  read_by_sender?: boolean;
};

/** POST /scheduled_messages (referenced operation). */
export const createScheduledMessage = operation({
  method: 'POST',
  path: '/scheduled_messages',
  schema: createScheduledMessageResponse,
  request: (args: CreateScheduledMessageArgs, conn: ApiConnection) => ({
    params: {
      ...args,
      type: typeForWire(conn, args.type),
      topic: args.type === 'channel' ? conn.topicForWire(args.topic) : undefined,
    },
  }),
});

/**
 * What to change. Changing `type` requires `to` (and `topic` when switching to a channel), so
 * those combinations are the only ones the type admits; `to` alone may change within a type.
 */
export type UpdateScheduledMessageArgs = {
  /** Path parameter. */
  scheduledMessageId: number;
  content?: string;
  topic?: string;
  /** UNIX seconds; required by the server when the message has `failed: true`. */
  scheduled_delivery_timestamp?: number;
} & (
  | { type: 'channel' | 'stream'; to: number; topic: string }
  | { type: 'direct' | 'private'; to: readonly number[] }
  | { type?: undefined; to?: number | readonly number[] }
);

/** Spec "PATCH /scheduled_messages/{scheduled_message_id}": edit a scheduled message (FL 184). */
export const updateScheduledMessage = operation({
  method: 'PATCH',
  path: '/scheduled_messages/{scheduled_message_id}',
  schema: emptySuccess,
  request: ({ scheduledMessageId, ...rest }: UpdateScheduledMessageArgs, conn: ApiConnection) => ({
    path: { scheduled_message_id: scheduledMessageId },
    params: {
      ...rest,
      type: rest.type === undefined ? undefined : typeForWire(conn, rest.type),
      topic: rest.topic === undefined ? undefined : conn.topicForWire(rest.topic),
    },
  }),
});

/** DELETE /scheduled_messages/{scheduled_message_id} (referenced operation): cancel sending it. */
export const deleteScheduledMessage = operation({
  method: 'DELETE',
  path: '/scheduled_messages/{scheduled_message_id}',
  schema: emptySuccess,
  request: (args: { scheduledMessageId: number }) => ({ path: { scheduled_message_id: args.scheduledMessageId } }),
});

/** Response schemas by OpenAPI operation, for the example-conformance test. */
export const scheduledMessageResponses = responseTable(
  getScheduledMessages,
  createScheduledMessage,
  updateScheduledMessage,
  deleteScheduledMessage,
);
